package io.lockstep.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One fresh-JVM run of the order workload ({@link CostChild}), as the parent recorded it: what the child printed
 * plus what the emulator in the parent served (HTTP requests).
 *
 * @param client        {@link FlinkEndToEnd#DISCARDING}, {@link FlinkEndToEnd#AT_LEAST_ONCE} or
 *                      {@link FlinkEndToEnd#EXACTLY_ONCE}
 * @param parallelism   the job's parallelism
 * @param round         counts from 0
 * @param rows          rows the source emitted
 * @param bytes         bytes of row text the source emitted
 * @param txns          source transactions emitted
 * @param seconds       first emission to the job's end, s
 * @param loads         the sink's load requests (0 for the discarding sink)
 * @param cpuNs         the child's process CPU at the job's end (JVM start and MiniCluster included), ns
 * @param steadyCpuNs   the child's process CPU between 20 % and 80 % of the rows, ns; -1 if the marks were missed
 * @param steadyRows    rows emitted between those marks
 * @param steadySeconds seconds between those marks
 * @param jitMs         the child's JIT compilation time at the job's end (all compiler threads), ms
 * @param requests      HTTP requests the emulator served during the run
 * @param emulatorCpuNs the parent's (the emulator's) process CPU during the run, ns: it shares the machine's cores
 *                      with the child
 * @param loadAverage   the 1/5/15-min load average when the run ended
 */
record ForkedCostRun(String client, int parallelism, int round, long rows, long bytes, long txns, double seconds,
                     long loads, long cpuNs, long steadyCpuNs, long steadyRows, double steadySeconds, long jitMs, long requests,
                     long emulatorCpuNs, String loadAverage) {
    static final List<String> KEYS = List.of("rows", "bytes", "txns", "seconds", "loads", "cpuNs", "steadyCpuNs",
            "steadyRows", "steadySeconds", "jitMs");

    double rowsPerSecond() {
        return rows / seconds;
    }

    /** Rows per second between the 20 % and 80 % marks; NaN if the marks were missed. */
    double steadyRowsPerSecond() {
        return steadyCpuNs < 0 || steadySeconds <= 0 ? Double.NaN : steadyRows / steadySeconds;
    }

    double cpuSeconds() {
        return cpuNs / 1e9;
    }

    double requestsPerThousandTxns() {
        return txns == 0 ? Double.NaN : requests * 1000.0 / txns;
    }

    /** The child's command-line name of a client ({@code discarding}, {@code at-least-once}, {@code exactly-once}). */
    static String argument(String client) {
        return client.equals(FlinkEndToEnd.DISCARDING) ? "discarding" : client;
    }

    /** The inverse of {@link #argument}; an unknown name throws {@link IllegalArgumentException} naming it. */
    static String clientName(String argument) {
        return switch (argument) {
            case "discarding" -> FlinkEndToEnd.DISCARDING;
            case FlinkEndToEnd.AT_LEAST_ONCE, FlinkEndToEnd.EXACTLY_ONCE -> argument;
            default -> throw new IllegalArgumentException("unknown client '" + argument
                    + "' (discarding, at-least-once, exactly-once)");
        };
    }

    /**
     * The figures of a child's {@code COST-RESULT key=value ...} line (without the prefix); every key of
     * {@link #KEYS} must be there.
     *
     * @throws IllegalArgumentException naming {@code run} and the missing or malformed field
     */
    static ForkedCostRun parse(String run, String line, String client, int parallelism, int round, long requests,
                               long emulatorCpuNs, String loadAverage) {
        Map<String, String> fields = new HashMap<>();
        for (String field : line.trim().split("\\s+")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                fields.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        for (String key : KEYS) {
            if (!fields.containsKey(key)) {
                throw new IllegalArgumentException(run + ": the child's result line has no '" + key + "': " + line);
            }
        }
        try {
            return new ForkedCostRun(client, parallelism, round, Long.parseLong(fields.get("rows")),
                    Long.parseLong(fields.get("bytes")), Long.parseLong(fields.get("txns")),
                    Double.parseDouble(fields.get("seconds")), Long.parseLong(fields.get("loads")),
                    Long.parseLong(fields.get("cpuNs")), Long.parseLong(fields.get("steadyCpuNs")),
                    Long.parseLong(fields.get("steadyRows")), Double.parseDouble(fields.get("steadySeconds")),
                    Long.parseLong(fields.get("jitMs")), requests, emulatorCpuNs, loadAverage);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(run + ": a malformed figure in the child's result line (" + e.getMessage()
                    + "): " + line, e);
        }
    }
}
