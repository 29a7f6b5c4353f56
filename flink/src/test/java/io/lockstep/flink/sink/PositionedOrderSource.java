package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.SourceFunction;

/**
 * A replayable source of positioned source transactions, like a Kafka topic read from checkpointed offsets
 * (parallelism 1): transaction {@code n} (for {@code n} in {@code [0, to)}) goes to source partition
 * {@code partitions[n % partitions.length]} of source {@value #SOURCE} at position {@code n} and writes one
 * {@code shop.orders} row (PRIMARY KEY) and one {@code shop.order_log} row (DUPLICATE KEY: a transaction loaded twice
 * shows twice). Its offset is operator state, so a restore replays from the checkpoint, including transactions the
 * sink's commit timer had already made visible. Pauses {@code pauseMs} after each transaction (pacing only; no test
 * asserts a time). {@link #emitted(String)} tells a test how far a named source got.
 */
@SuppressWarnings("deprecation") // SourceFunction: the legacy API matches the legacy SinkFunction under test
final class PositionedOrderSource implements SourceFunction<DefaultStarRocksRowData>, CheckpointedFunction {
    static final String SOURCE = "orders-topic";
    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> EMITTED = new ConcurrentHashMap<>();

    private final String name;
    private final int[] partitions;
    private final long to;
    private final long pauseMs;
    /** Emits nothing from this position on, but keeps running until cancelled (so a test can cancel it). */
    private final long holdFrom;
    private transient ListState<Long> offsetState;
    /** Next transaction; written by the source thread under the checkpoint lock, read by snapshotState. */
    private transient long offset;
    private volatile boolean running = true;

    PositionedOrderSource(String name, int[] partitions, long to, long pauseMs) {
        this(name, partitions, to, pauseMs, to);
    }

    /** As above, but the source stops emitting at {@code holdFrom} and idles until it is cancelled. */
    PositionedOrderSource(String name, int[] partitions, long to, long pauseMs, long holdFrom) {
        this.holdFrom = holdFrom;
        this.name = name;
        this.partitions = partitions.clone();
        this.to = to;
        this.pauseMs = pauseMs;
        EMITTED.put(name, new AtomicLong());
    }

    /** How many transactions the named source emitted so far (all attempts together; replays count again). */
    static long emitted(String name) {
        return EMITTED.get(name).get();
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        offsetState = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("offset", LongSerializer.INSTANCE));
        offset = 0;
        for (Long restored : offsetState.get()) {
            offset = restored;
        }
    }

    @Override
    public void run(SourceContext<DefaultStarRocksRowData> ctx) throws Exception {
        while (running && offset < to) {
            if (offset >= holdFrom) {
                Thread.sleep(10);
                continue;
            }
            synchronized (ctx.getCheckpointLock()) {
                long n = offset;
                int partition = partitions[(int) (n % partitions.length)];
                ctx.collect(row(partition, n, "orders", "{\"order_id\":" + n + ",\"version\":1}", false));
                ctx.collect(row(partition, n, "order_log", "{\"order_id\":" + n + ",\"note\":\"p" + partition
                        + "\"}", true));
                offset++;
            }
            EMITTED.get(name).incrementAndGet();
            if (pauseMs > 0) {
                Thread.sleep(pauseMs);
            }
        }
    }

    private static DefaultStarRocksRowData row(int partition, long position, String table, String json, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "shop", table, json);
        row.setSourcePartition(partition);
        row.setSource(SOURCE);
        row.setSourcePosition(position);
        row.setTransactionEnd(end);
        return row;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        offsetState.update(List.of(offset));
    }

    @Override
    public void cancel() {
        running = false;
    }
}
