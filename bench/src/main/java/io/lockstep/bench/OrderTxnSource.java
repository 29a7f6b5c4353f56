package io.lockstep.bench;

import io.lockstep.flink.row.LoadRow;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;

/**
 * The order workload's bounded source: {@value #PARTITIONS} source partitions; every source transaction is one
 * {@code orders} row and {@value #ITEMS} {@code order_items} rows of about {@value #ROW_BYTES} bytes of JSON each, the
 * last row ending it. Partition index {@code i} is served by subtask {@code i mod parallelism} (subtasks beyond the
 * partitions emit nothing); each partition emits {@code txnsPerPartition} transactions as fast as the job accepts
 * them, under the checkpoint lock, with the transaction's number as its source position. Row texts come from a pool,
 * so the source's own cost stays small and the same for every sink.
 *
 * <p>The run is in-JVM (MiniCluster): the counters are static, reset by {@link #reset} before each run.
 */
@SuppressWarnings("deprecation")
final class OrderTxnSource extends RichParallelSourceFunction<LoadRow> {
    private static final long serialVersionUID = 1L;
    static final int PARTITIONS = 2;
    static final int ITEMS = 3;
    static final int ROW_BYTES = 194;
    static final String ORDERS = "orders";
    static final String ORDER_ITEMS = "order_items";
    /** Rows and bytes emitted over all subtasks, and the nanoTime of the first emission. */
    static final AtomicLong ROWS = new AtomicLong();
    static final AtomicLong BYTES = new AtomicLong();
    static final AtomicLong TXNS = new AtomicLong();
    static final AtomicLong FIRST_EMIT_NANOS = new AtomicLong(Long.MAX_VALUE);
    /**
     * Rows emitted so far over all subtasks, brought up to date every {@value #PROGRESS_EVERY} source transactions
     * of a subtask (and at its end): the steady-state marks of {@link CostChild} read it while the job runs.
     */
    static final AtomicLong PROGRESS_ROWS = new AtomicLong();
    private static final int PROGRESS_EVERY = 1024;

    private final int[] partitions;
    private final long txnsPerPartition;
    /** Written by cancel() (any thread), read by the source thread. */
    private volatile boolean running = true;

    /**
     * @param partitions the source partition ids (see {@link FlinkEndToEnd#spreadPartitions}), {@value #PARTITIONS}
     */
    OrderTxnSource(int[] partitions, long txnsPerPartition) {
        this.partitions = partitions.clone();
        this.txnsPerPartition = txnsPerPartition;
    }

    static void reset() {
        ROWS.set(0);
        BYTES.set(0);
        TXNS.set(0);
        PROGRESS_ROWS.set(0);
        FIRST_EMIT_NANOS.set(Long.MAX_VALUE);
    }

    @Override
    public void run(SourceContext<LoadRow> ctx) {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        if (subtask >= partitions.length) {
            return;
        }
        String[] pool = new String[1024];
        String filler = BenchTables.filler(ROW_BYTES);
        for (int n = 0; n < pool.length; n++) {
            pool[n] = BenchTables.rowText(subtask * 1_000_000L + n, subtask, n, filler);
        }
        FIRST_EMIT_NANOS.accumulateAndGet(System.nanoTime(), Math::min);
        long rows = 0;
        long bytes = 0;
        long txns = 0;
        long reported = 0;
        for (long k = 0; k < txnsPerPartition && running; k++) {
            for (int i = subtask; i < partitions.length; i += parallelism) {
                synchronized (ctx.getCheckpointLock()) {
                    for (int j = 0; j <= ITEMS; j++) {
                        String row = pool[(int) (rows % pool.length)];
                        LoadRow data = new LoadRow(null, BenchTables.DATABASE,
                                j == 0 ? ORDERS : ORDER_ITEMS, row);
                        data.setSourcePartition(partitions[i]);
                        data.setSource(TxnSource.SOURCE);
                        data.setSourcePosition(k);
                        data.setTransactionEnd(j == ITEMS);
                        ctx.collect(data);
                        rows++;
                        bytes += row.length();
                    }
                }
                txns++;
            }
            if ((k + 1) % PROGRESS_EVERY == 0) {
                PROGRESS_ROWS.addAndGet(rows - reported);
                reported = rows;
            }
        }
        PROGRESS_ROWS.addAndGet(rows - reported);
        ROWS.addAndGet(rows);
        BYTES.addAndGet(bytes);
        TXNS.addAndGet(txns);
    }

    @Override
    public void cancel() {
        running = false;
    }
}
