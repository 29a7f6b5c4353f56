package io.lockstep.bench;

/**
 * One run of the load-format section ({@link LoadFormatBenchmark}).
 *
 * @param variant         the format and compression
 * @param repeat          the round, from 0
 * @param rows            rows written and committed (the emulator received every one)
 * @param inputBytes      bytes of the rows as JSON objects, as the sink is given them (no framing)
 * @param wireBytes       bytes of the load bodies the emulator received (compressed bodies as sent)
 * @param clientBodyBytes bytes of the load bodies the client reports it sent in successful loads
 * @param loads           load requests
 * @param seconds         wall time from the first row to the last commit, s
 * @param loadingCpuNs    CPU of the writer thread and the engine's threads ({@link LoadingThreadsCpu}), ns
 * @param clientCpuNs     process CPU outside the emulator's server threads ({@link ProcessCpu}: GC and JIT included)
 * @param loadAverage     the machine's load average after the run
 */
record LoadFormatRun(LoadFormatBenchmark.Variant variant, int repeat, long rows, long inputBytes, long wireBytes,
                     long clientBodyBytes, long loads, double seconds, long loadingCpuNs, long clientCpuNs,
                     String loadAverage) {
    private static final double GB = 1e9;

    /** Wire bytes over input bytes. */
    double wireRatio() {
        return (double) wireBytes / inputBytes;
    }

    double wireBytesPerRow() {
        return (double) wireBytes / rows;
    }

    double rowsPerSecond() {
        return rows / seconds;
    }

    /** Input (JSON row) MB/s. */
    double inputMegabytesPerSecond() {
        return inputBytes / 1e6 / seconds;
    }

    /** CPU of the loading threads per GB of input rows, s. */
    double loadingCpuSecondsPerGb() {
        return loadingCpuNs / 1e9 / (inputBytes / GB);
    }

    /** Process CPU outside the emulator per GB of input rows, s. */
    double clientCpuSecondsPerGb() {
        return clientCpuNs / 1e9 / (inputBytes / GB);
    }
}
