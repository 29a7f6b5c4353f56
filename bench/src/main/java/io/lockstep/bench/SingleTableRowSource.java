package io.lockstep.bench;

import io.lockstep.flink.row.LoadRow;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;

/**
 * A source for the single-table runs: rows of about {@code rowBytes} bytes into one table, as fast as the sink
 * accepts, for {@code durationMs}; no source partitions, no transaction ends. Counts into {@link TxnSource#ROWS},
 * {@link TxnSource#BYTES} and the emission window.
 */
@SuppressWarnings("deprecation")
final class SingleTableRowSource extends RichParallelSourceFunction<LoadRow> {
    private static final long serialVersionUID = 1L;

    private final String table;
    private final int rowBytes;
    private final long durationMs;
    /** Written by cancel() (any thread), read by the source thread. */
    private volatile boolean running = true;

    SingleTableRowSource(String table, int rowBytes, long durationMs) {
        this.table = table;
        this.rowBytes = rowBytes;
        this.durationMs = durationMs;
    }

    @Override
    public void run(SourceContext<LoadRow> ctx) {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        String[] pool = new String[1024];
        String filler = BenchTables.filler(rowBytes);
        for (int n = 0; n < pool.length; n++) {
            pool[n] = BenchTables.rowText(subtask * 1_000_000L + n, subtask, n, filler);
        }
        long start = System.nanoTime();
        TxnSource.FIRST_EMIT_NANOS.accumulateAndGet(start, Math::min);
        long deadline = start + durationMs * 1_000_000L;
        long rows = 0;
        long bytes = 0;
        while (running && ((rows & 255) != 0 || System.nanoTime() < deadline)) {
            String row = pool[(int) (rows % pool.length)];
            synchronized (ctx.getCheckpointLock()) {
                ctx.collect(new LoadRow(null, BenchTables.DATABASE, table, row));
            }
            rows++;
            bytes += row.length();
        }
        TxnSource.ROWS.addAndGet(rows);
        TxnSource.BYTES.addAndGet(bytes);
        TxnSource.LAST_EMIT_NANOS.accumulateAndGet(System.nanoTime(), Math::max);
    }

    @Override
    public void cancel() {
        running = false;
    }
}
