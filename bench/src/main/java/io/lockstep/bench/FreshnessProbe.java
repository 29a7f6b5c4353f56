package io.lockstep.bench;

import io.lockstep.emulator.StarRocksEmulator;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures freshness: the time from a source transaction's emission ({@link TxnSource#EMITTED_AT}) to the moment
 * its rows are visible in the emulator. Every transaction writes exactly one row into its partition's header table
 * {@code h{i}}, and a partition's transactions commit in order, so when {@code rowCount(h{i})} reaches {@code n},
 * transactions {@code 0..n-1} of partition {@code i} are visible (counted from the table's rows when the probe
 * started: create the probe before the run). A daemon thread polls the counts every
 * {@code pollMicros}; the poll period bounds the measurement error (reported with the figures).
 */
final class FreshnessProbe implements AutoCloseable {
    private final StarRocksEmulator emulator;
    private final int partitions;
    private final long pollMicros;
    private final long[] latencyNanos = new long[TxnSource.PARTITIONS_MAX * TxnSource.LOG_CAPACITY];
    private final Thread thread;
    /** Header-table rows before the run (the emulator may hold earlier runs' rows). */
    private final long[] baseline;
    /** Owned by the probe thread until {@link #close()} joined it. */
    private int count;
    private volatile boolean running = true;

    FreshnessProbe(StarRocksEmulator emulator, int partitions, long pollMicros) {
        this.emulator = emulator;
        this.partitions = partitions;
        this.pollMicros = pollMicros;
        this.baseline = new long[partitions];
        for (int i = 0; i < partitions; i++) {
            baseline[i] = emulator.rowCount(BenchTables.DATABASE, "h" + i);
        }
        this.thread = new Thread(this::loop, "bench-freshness-probe");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        long[] seen = new long[partitions];
        System.arraycopy(baseline, 0, seen, 0, partitions);
        while (running) {
            for (int i = 0; i < partitions; i++) {
                long visible = emulator.rowCount(BenchTables.DATABASE, "h" + i);
                if (visible > seen[i]) {
                    long now = System.nanoTime();
                    long[] emitted = TxnSource.EMITTED_AT[i];
                    for (long k = seen[i] - baseline[i]; k < visible - baseline[i] && k < emitted.length; k++) {
                        latencyNanos[count++] = now - emitted[(int) k];
                    }
                    seen[i] = visible;
                }
            }
            LockSupport.parkNanos(pollMicros * 1000);
        }
    }

    /** Stops the probe; call after the last commit is visible. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }

    /** Latencies of all visible transactions, ms, sorted. */
    double[] sortedLatenciesMs() {
        double[] ms = new double[count];
        for (int i = 0; i < count; i++) {
            ms[i] = latencyNanos[i] / 1e6;
        }
        Arrays.sort(ms);
        return ms;
    }

    /** The {@code q}-quantile (0..1) of sorted values, nearest rank. */
    static double quantile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }
}
