package io.lockstep.bench;

import java.util.Locale;

/**
 * The figures of one throughput measurement.
 *
 * @param name        what ran, e.g. "engine 8 tables 2 KB"
 * @param rows        rows loaded and committed
 * @param bytes       bytes of JSON rows (without array framing)
 * @param seconds     wall time from the first row to the last commit, s
 * @param sourceTxns  source transactions written (0 when the measurement has none)
 * @param requests    transaction-interface requests sent by the client (loads + begins + commits/prepares), without
 *                    the FE to BE redirect hops
 * @param loads       load requests
 * @param cpu         CPU used over the measurement
 */
record Figures(String name, long rows, long bytes, double seconds, long sourceTxns, long requests, long loads,
               ProcessCpu.Sample cpu) {

    double rowsPerSecond() {
        return rows / seconds;
    }

    double megabytesPerSecond() {
        return bytes / 1e6 / seconds;
    }

    /** Requests per 1,000 source transactions, or NaN without source transactions. */
    double requestsPerThousandTxns() {
        return sourceTxns == 0 ? Double.NaN : requests * 1000.0 / sourceTxns;
    }

    /** Process CPU seconds per GB of rows. */
    double cpuSecondsPerGb() {
        return cpu.processNs() / 1e9 / (bytes / 1e9);
    }

    /** CPU seconds per GB outside the emulator's server threads. */
    double clientCpuSecondsPerGb() {
        return cpu.clientNs() / 1e9 / (bytes / 1e9);
    }

    /** Average load body, bytes. */
    long averageLoadBytes() {
        return loads == 0 ? 0 : bytes / loads;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s: %d rows, %.1f MB in %.2f s => %.0f rows/s, %.1f MB/s, "
                        + "%.1f requests/1000 txns, CPU %.1f s/GB (client %.1f s/GB), GC %d ms, JIT %d ms", name, rows,
                bytes / 1e6, seconds, rowsPerSecond(), megabytesPerSecond(), requestsPerThousandTxns(),
                cpuSecondsPerGb(), clientCpuSecondsPerGb(), cpu.gcMs(), cpu.jitMs());
    }
}
