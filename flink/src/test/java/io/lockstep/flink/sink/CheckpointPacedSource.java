package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.SourceFunction;

/**
 * A bounded, deterministic test source (parallelism 1): emits rows {@code {"id": i, "note": "n<i>"}} for
 * {@code i} in {@code [from, to)}, in batches; after each batch it waits until a checkpoint taken after the batch
 * has completed, so every checkpoint carries new rows and no sleep paces the test. Its offset is operator state, so a
 * restart resumes exactly where the restored checkpoint left off: the source itself neither loses nor repeats rows.
 */
@SuppressWarnings("deprecation") // SourceFunction: the legacy API matches the legacy SinkFunction under test
final class CheckpointPacedSource implements SourceFunction<DefaultStarRocksRowData>, CheckpointedFunction,
        CheckpointListener {
    private static final long serialVersionUID = 1L;

    private final String database;
    private final String table;
    private final long from;
    private final long to;
    private final int batchSize;

    private transient ListState<Long> offsetState;
    /** Next id to emit; written under the checkpoint lock by the source thread, read by snapshotState. */
    private transient long offset;
    /** Guards the two fields below; the source thread waits on it for a completed checkpoint. */
    private transient Object progress;
    /** Offsets recorded by snapshotState, by checkpoint id (guarded by progress). */
    private transient List<long[]> snapshots;
    /** The highest offset covered by a completed checkpoint (guarded by progress). */
    private transient long completedOffset;
    private volatile boolean running = true;

    CheckpointPacedSource(String database, String table, long from, long to, int batchSize) {
        this.database = database;
        this.table = table;
        this.from = from;
        this.to = to;
        this.batchSize = batchSize;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        offsetState = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("offset", LongSerializer.INSTANCE));
        offset = from;
        for (Long restored : offsetState.get()) {
            offset = restored;
        }
        progress = new Object();
        snapshots = new ArrayList<>();
        completedOffset = offset;
    }

    @Override
    public void run(SourceContext<DefaultStarRocksRowData> ctx) throws Exception {
        while (running && offset < to) {
            long batchEnd = Math.min(to, offset + batchSize);
            while (offset < batchEnd) {
                synchronized (ctx.getCheckpointLock()) {
                    ctx.collect(new DefaultStarRocksRowData(null, database, table,
                            "{\"id\":" + offset + ",\"note\":\"n" + offset + "\"}"));
                    offset++;
                }
            }
            synchronized (progress) {
                while (running && completedOffset < batchEnd) {
                    progress.wait(1_000); // woken by notifyCheckpointComplete or cancel
                }
            }
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        offsetState.update(List.of(offset));
        synchronized (progress) {
            snapshots.add(new long[] {context.getCheckpointId(), offset});
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        synchronized (progress) {
            for (long[] s : snapshots) {
                if (s[0] <= checkpointId) {
                    completedOffset = Math.max(completedOffset, s[1]);
                }
            }
            snapshots.removeIf(s -> s[0] <= checkpointId);
            progress.notifyAll();
        }
    }

    @Override
    public void cancel() {
        running = false;
        if (progress != null) {
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }
}
