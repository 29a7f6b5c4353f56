package io.lockstep.app.chaos;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.app.demo.ShopTransaction;
import io.lockstep.app.demo.ShopTransactionGenerator;
import io.lockstep.app.demo.ShopWorkload;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
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
 * A deterministic, checkpointed source of shop transactions (parallelism 1): replays a
 * {@link ShopTransactionGenerator} from its seed. Its state is the position (transactions emitted); a restore
 * regenerates the workload up to the restored position and goes on from there, so the stream the sink sees
 * after any number of restarts is the generator's, replayed from the last completed checkpoint.
 *
 * <p>Each transaction's rows are emitted under the checkpoint lock in one block, so checkpoints fall between
 * source transactions. After every {@code batch} transactions it waits for a checkpoint covering them to
 * complete: the job moves one checkpoint at a time and the run's length does not depend on machine speed.
 * It ends (bounded input) at the {@link ChaosControl#stopAt} position the test sets.
 */
@SuppressWarnings("deprecation") // SourceFunction: the legacy API matches the legacy SinkFunction under test
final class ShopReplaySource implements SourceFunction<DefaultStarRocksRowData>, CheckpointedFunction,
        CheckpointListener {
    private static final long serialVersionUID = 1L;

    /** The rows the source emits. */
    enum Shape {
        /** CDC rows for the exactly-once multi-table sink, with versions and the change log ({@link ShopRows#cdcRows}). */
        CDC,
        /** One event per change for the exactly-once DUPLICATE KEY table ({@link ShopRows#eventRows}). */
        EVENTS
    }

    private final String run;
    /** The workload's settings (ShopWorkload is not serializable). */
    private final long seed;
    private final int partitions;
    private final int customers;
    private final int bulkMin;
    private final int bulkMax;
    private final int[] sourcePartitions;
    private final Shape shape;
    private final int batch;

    private transient ListState<Long> positionState;
    /** Transactions emitted; written under the checkpoint lock by the source thread, read by snapshotState. */
    private transient long position;
    /** Guards the two fields below; the source thread waits on it for a completed checkpoint. */
    private transient Object progress;
    /** (checkpoint id, position) recorded by snapshotState (guarded by progress). */
    private transient List<long[]> snapshots;
    /** Highest position covered by a completed checkpoint of this attempt (guarded by progress). */
    private transient long completed;
    private volatile boolean running = true;

    /**
     * @param run the {@link ChaosControl} name
     * @param workload the generator settings (seed included)
     * @param sourcePartitions source partition of each generator partition
     * @param shape the rows to emit
     * @param batch transactions between two waits for a completed checkpoint
     */
    ShopReplaySource(String run, ShopWorkload workload, int[] sourcePartitions, Shape shape, int batch) {
        this.run = run;
        this.seed = workload.seed();
        this.partitions = workload.partitions();
        this.customers = workload.customers();
        this.bulkMin = workload.bulkOrderMinItems();
        this.bulkMax = workload.bulkOrderMaxItems();
        this.sourcePartitions = sourcePartitions.clone();
        this.shape = shape;
        this.batch = batch;
    }

    /** A generator whose commit times are fixed, so the rows do not depend on the wall clock. */
    static ShopTransactionGenerator generator(ShopWorkload workload) {
        return new ShopTransactionGenerator(workload, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        positionState = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("position", LongSerializer.INSTANCE));
        position = 0;
        for (Long restored : positionState.get()) {
            position = restored;
        }
        if (context.isRestored()) {
            ChaosControl.of(run).sourceRestores.incrementAndGet();
        }
        progress = new Object();
        snapshots = new ArrayList<>();
        completed = position;
    }

    @Override
    public void run(SourceContext<DefaultStarRocksRowData> ctx) throws Exception {
        ChaosControl control = ChaosControl.of(run);
        ShopTransactionGenerator generator = generator(
                new ShopWorkload(seed, partitions, customers, bulkMin, bulkMax));
        ShopRows rows = new ShopRows(sourcePartitions);
        for (long i = 0; i < position; i++) {
            generator.next();
        }
        while (running && position < control.stopAt.get()) {
            long batchEnd = Math.min(control.stopAt.get(), position + batch);
            while (position < batchEnd) {
                ShopTransaction transaction = generator.next();
                List<DefaultStarRocksRowData> out = shape == Shape.CDC ? rows.cdcRows(transaction)
                        : rows.eventRows(transaction);
                synchronized (ctx.getCheckpointLock()) {
                    for (DefaultStarRocksRowData row : out) {
                        ctx.collect(row);
                    }
                    position++;
                }
                control.emittedPosition.accumulateAndGet(position, Math::max);
            }
            synchronized (progress) {
                while (running && completed < batchEnd && position < control.stopAt.get()) {
                    progress.wait(200); // woken by notifyCheckpointComplete or cancel; rechecks stopAt
                }
            }
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        positionState.update(List.of(position));
        synchronized (progress) {
            snapshots.add(new long[] {context.getCheckpointId(), position});
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        synchronized (progress) {
            for (long[] s : snapshots) {
                if (s[0] <= checkpointId) {
                    completed = Math.max(completed, s[1]);
                }
            }
            snapshots.removeIf(s -> s[0] <= checkpointId);
            ChaosControl.of(run).completedPosition.accumulateAndGet(completed, Math::max);
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
