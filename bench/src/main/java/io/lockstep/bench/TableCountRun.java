package io.lockstep.bench;

/**
 * One run of the table-count section ({@link TableCountBenchmark}).
 *
 * @param configuredTables tables with their own load properties in the engine's configuration
 * @param activeTables     tables the source transactions write to (the first {@code activeTables} configured ones)
 * @param repeat           the round, from 0
 * @param rows             rows written and committed (the emulator received every one)
 * @param sourceTxns       source transactions written
 * @param seconds          wall time from the first row to the last commit, s, less the heap reading's pause
 * @param loads            load requests the client sent
 * @param commits          shared transactions committed
 * @param requests         transaction-interface requests the client sent (loads + begins + commits + rollbacks)
 * @param httpRequests     HTTP requests the emulator served (a redirected request counts at the FE and the BE)
 * @param tablesLoaded     tables that received at least one load
 * @param commitP50Ms      median commit call latency, ms (the engine's {@code commitLatencyMs} histogram)
 * @param commitP99Ms      99th percentile of the same, ms
 * @param loadingHeapBytes heap the engine held once every source transaction was written (the rows of the open
 *                         shared transaction still buffered): used heap after full collections then, less the same
 *                         once the engine is closed and unreferenced
 * @param bufferedBytes    the engine's {@code bufferedBytes} gauge (its memory budget's bytes in use) at that moment
 * @param idleHeapBytes    the same heap figure for the open engine after the flush (everything committed)
 * @param loadAverage      the machine's load average after the run
 */
record TableCountRun(int configuredTables, int activeTables, int repeat, long rows, long sourceTxns, double seconds,
                     long loads, long commits, long requests, long httpRequests, int tablesLoaded, double commitP50Ms,
                     double commitP99Ms, long loadingHeapBytes, long bufferedBytes, long idleHeapBytes,
                     String loadAverage) {

    /** e.g. {@code 100 tables}, {@code 1,000 tables, rows for 10}. */
    String label() {
        return label(configuredTables, activeTables);
    }

    /** The label of a case with {@code configured} tables of which {@code active} receive rows. */
    static String label(int configured, int active) {
        return configured == active ? String.format(java.util.Locale.ROOT, "%,d tables", active)
                : String.format(java.util.Locale.ROOT, "%,d tables, rows for %,d", configured, active);
    }

    double rowsPerSecond() {
        return rows / seconds;
    }

    /** Client requests per committed shared transaction. */
    double requestsPerCommit() {
        return commits == 0 ? Double.NaN : (double) requests / commits;
    }

    /** Heap while loading per table that received rows, bytes. */
    double loadingHeapBytesPerActiveTable() {
        return (double) loadingHeapBytes / activeTables;
    }
}
