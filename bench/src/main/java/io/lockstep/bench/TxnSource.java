package io.lockstep.bench;

import io.lockstep.flink.row.LoadRow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;

/**
 * The benchmark's Flink source: each subtask emits source transactions round-robin over its share of
 * {@code partitions} (partition index {@code i} of {@link #PARTITIONS_MAX} is served by subtask {@code i mod
 * parallelism}). Transaction {@code k} of partition index {@code i} has 1 to 4 rows: the first goes to the
 * partition's header table {@code h{i}}, the others to the shared tables {@code s0..s2}; the last row ends it. All
 * rows of one transaction are emitted under the checkpoint lock, with source {@value #SOURCE} and {@code k} as
 * their source position (what the exactly-once multi-table sink commits; the at-least-once sink ignores it).
 *
 * <p>Paced at {@code txnsPerSecond} over the whole source (0 = as fast as the sink accepts), for
 * {@code durationMs}. With {@code logEmissions} it records each transaction's emission time ({@link System#nanoTime})
 * in {@link #EMITTED_AT}, which the {@link FreshnessProbe} reads; the run is in-JVM (MiniCluster), so the static
 * state is shared with the benchmark thread.
 */
@SuppressWarnings("deprecation")
final class TxnSource extends RichParallelSourceFunction<LoadRow> {
    private static final long serialVersionUID = 1L;
    /** The rows' source (the exactly-once multi-table sink commits one position per source and partition). */
    static final String SOURCE = "bench";
    /** Most partitions a run uses. */
    static final int PARTITIONS_MAX = 4;
    /** Most transactions recorded per partition. */
    static final int LOG_CAPACITY = 400_000;
    /** Emission time of transaction {@code k} of partition index {@code i}: {@code [i][k]}, nanoTime. */
    static final long[][] EMITTED_AT = new long[PARTITIONS_MAX][];
    /** Transactions emitted per partition index. */
    static final AtomicLongArray EMITTED = new AtomicLongArray(PARTITIONS_MAX);
    /** Rows and bytes emitted, and the nanoTime of the first emission. */
    static final AtomicLong ROWS = new AtomicLong();
    static final AtomicLong BYTES = new AtomicLong();
    static final AtomicLong FIRST_EMIT_NANOS = new AtomicLong(Long.MAX_VALUE);
    static final AtomicLong LAST_EMIT_NANOS = new AtomicLong();

    private final int[] partitions;
    private final int rowBytes;
    private final long txnsPerSecond;
    private final long durationMs;
    private final boolean logEmissions;
    /** Written by cancel() (any thread), read by the source thread. */
    private volatile boolean running = true;

    /**
     * @param partitions    the source partition ids, one per header table ({@code h0..}); at most
     *                      {@link #PARTITIONS_MAX}
     * @param rowBytes      approximate row size, bytes
     * @param txnsPerSecond total rate over all subtasks; 0 = unpaced
     */
    TxnSource(int[] partitions, int rowBytes, long txnsPerSecond, long durationMs, boolean logEmissions) {
        this.partitions = partitions.clone();
        this.rowBytes = rowBytes;
        this.txnsPerSecond = txnsPerSecond;
        this.durationMs = durationMs;
        this.logEmissions = logEmissions;
    }

    /** Clears the shared counters before a run. */
    static void reset(boolean logEmissions) {
        for (int i = 0; i < PARTITIONS_MAX; i++) {
            EMITTED.set(i, 0);
            EMITTED_AT[i] = logEmissions ? new long[LOG_CAPACITY] : null;
        }
        ROWS.set(0);
        BYTES.set(0);
        FIRST_EMIT_NANOS.set(Long.MAX_VALUE);
        LAST_EMIT_NANOS.set(0);
    }

    @Override
    public void run(SourceContext<LoadRow> ctx) {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        int mine = 0;
        for (int i = subtask; i < partitions.length; i += parallelism) {
            mine++;
        }
        if (mine == 0) {
            return;
        }
        String[] pool = new String[1024];
        String filler = BenchTables.filler(rowBytes);
        for (int n = 0; n < pool.length; n++) {
            pool[n] = BenchTables.rowText(subtask * 1_000_000L + n, subtask, n, filler);
        }
        double perSecond = txnsPerSecond * (double) mine / partitions.length;
        long start = System.nanoTime();
        FIRST_EMIT_NANOS.accumulateAndGet(start, Math::min);
        long deadline = start + durationMs * 1_000_000L;
        long emitted = 0;
        long rows = 0;
        long bytes = 0;
        while (running) {
            long now = System.nanoTime();
            if (now >= deadline) {
                break;
            }
            if (perSecond > 0 && emitted >= (now - start) / 1e9 * perSecond) {
                java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                continue;
            }
            for (int i = subtask; i < partitions.length && running; i += parallelism) {
                long k = EMITTED.get(i);
                if (logEmissions && k >= LOG_CAPACITY) {
                    running = false;
                    break;
                }
                int size = 1 + (int) (k % 4);
                synchronized (ctx.getCheckpointLock()) {
                    if (logEmissions) {
                        EMITTED_AT[i][(int) k] = System.nanoTime();
                    }
                    for (int j = 0; j < size; j++) {
                        String table = j == 0 ? "h" + i : "s" + ((k + j) % 3);
                        String row = pool[(int) ((rows + j) % pool.length)];
                        LoadRow data = new LoadRow(null, BenchTables.DATABASE, table,
                                row);
                        data.setSourcePartition(partitions[i]);
                        data.setSource(SOURCE);
                        data.setSourcePosition(k);
                        data.setTransactionEnd(j == size - 1);
                        ctx.collect(data);
                        bytes += row.length();
                    }
                    EMITTED.set(i, k + 1);
                }
                rows += size;
                emitted++;
            }
        }
        ROWS.addAndGet(rows);
        BYTES.addAndGet(bytes);
        LAST_EMIT_NANOS.accumulateAndGet(System.nanoTime(), Math::max);
    }

    @Override
    public void cancel() {
        running = false;
    }
}
