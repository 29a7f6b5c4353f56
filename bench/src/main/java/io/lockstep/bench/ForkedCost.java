package io.lockstep.bench;

import io.lockstep.emulator.StarRocksEmulator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The {@code cost-fork} section's runs: the order workload with a fresh JVM per run ({@link CostChild}), the
 * emulator ({@code none} store, progress table kept) in this JVM. Per round, at p = 1, 2, 4: the discarding sink,
 * the multi-table sink at-least-once and exactly-once across tables, their order rotating per round. A child that
 * exits non-zero, prints no result line, or whose rows the emulator did not store exactly (none for the discarding
 * sink) fails the whole section with an {@link IllegalStateException} naming the run.
 *
 * <p>With profiling on, after the measured rounds one more child per mode at p = 1 and p = 4 runs under a JFR
 * recording ({@link HotSpots}); those runs are checked the same way but are not part of the figures (a recording
 * costs CPU of its own).
 */
final class ForkedCost {
    private static final String[] CLIENTS = {FlinkEndToEnd.DISCARDING, FlinkEndToEnd.AT_LEAST_ONCE,
            FlinkEndToEnd.EXACTLY_ONCE};
    private static final long CHILD_TIMEOUT_MINUTES = 10;

    private ForkedCost() {
    }

    /**
     * Runs {@code rounds} rounds of {@code txns} source transactions per run.
     *
     * @return every run, in the order run
     */
    static List<ForkedCostRun> run(long txns, int rounds) throws Exception {
        return run(txns, rounds, new ArrayList<>());
    }

    /**
     * Runs {@code rounds} rounds of {@code txns} source transactions per run, then, if {@code profiles} is not null,
     * the profiled runs, adding their summaries to it.
     *
     * @return every measured run, in the order run
     */
    static List<ForkedCostRun> run(long txns, int rounds, List<HotSpots.Summary> profiles) throws Exception {
        List<ForkedCostRun> runs = new ArrayList<>();
        List<String> tables = List.of(OrderTxnSource.ORDERS, OrderTxnSource.ORDER_ITEMS);
        try (StarRocksEmulator emulator = CountingParser.emulatorKeepingProgress(
                BenchTables.duplicateKeyDdl(tables) + BenchTables.progressTableDdl())) {
            int job = 0;
            for (int round = 0; round < rounds; round++) {
                for (int p : ForkedCostFigures.PARALLELISMS) {
                    for (int i = 0; i < CLIENTS.length; i++) {
                        String client = CLIENTS[(i + round) % CLIENTS.length];
                        String name = String.format(Locale.ROOT, "cost-fork round %d, %s p%d", round, client, p);
                        ForkedCostRun run = runChild(name, emulator, tables, client, p, round, txns,
                                "bench-cost-fork-" + job++, null, null);
                        System.out.printf(Locale.ROOT, "  %s: %,.0f rows/s (steady %,.0f), child CPU %.2f s (steady "
                                        + "%.2f s over %,d rows, JIT %.1f s), emulator CPU %.2f s, %.2f requests / "
                                        + "1,000 txns, %d loads (load %s)%n", name, run.rowsPerSecond(),
                                run.steadyRowsPerSecond(), run.cpuSeconds(), run.steadyCpuNs() / 1e9,
                                run.steadyRows(), run.jitMs() / 1e3, run.emulatorCpuNs() / 1e9,
                                run.requestsPerThousandTxns(), run.loads(), run.loadAverage());
                        runs.add(run);
                    }
                }
            }
            if (profiles != null) {
                for (String client : new String[] {FlinkEndToEnd.AT_LEAST_ONCE, FlinkEndToEnd.EXACTLY_ONCE}) {
                    for (int p : new int[] {1, 4}) {
                        String phase = "cost-fork-" + ForkedCostRun.argument(client) + "-p" + p;
                        List<String> lines = new ArrayList<>();
                        runChild("profiled " + phase, emulator, tables, client, p, -1, txns,
                                "bench-cost-fork-" + job++, phase, lines);
                        HotSpots.Summary summary = HotSpots.Summary.parse(phase, lines);
                        System.out.printf(Locale.ROOT, "  profiled %s: %d samples, %s%n", phase, summary.samples(),
                                summary.file());
                        profiles.add(summary);
                    }
                }
            }
        }
        return runs;
    }

    private static ForkedCostRun runChild(String name, StarRocksEmulator emulator, List<String> tables, String client,
                                          int parallelism, int round, long txns, String jobId,
                                          String profilePhase, List<String> hotSpotLines) throws Exception {
        long storedBefore = EngineScenario.storedRows(emulator, tables);
        long requestsBefore = emulator.httpRequests();
        long emulatorCpuBefore = CostChild.processCpuNs();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CostChild.class.getName(),
                ForkedCostRun.argument(client), Integer.toString(parallelism), Long.toString(txns), emulator.feUrl(),
                jobId));
        if (profilePhase != null) {
            command.add(profilePhase);
        }
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String result = null;
        List<String> tail = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.startsWith(CostChild.PREFIX)) {
                    result = line.substring(CostChild.PREFIX.length());
                } else if (hotSpotLines != null && line.startsWith(CostChild.HOTSPOT_PREFIX)) {
                    hotSpotLines.add(line.substring(CostChild.HOTSPOT_PREFIX.length()));
                } else if (!line.isBlank()) {
                    tail.add(line);
                    if (tail.size() > 20) {
                        tail.remove(0);
                    }
                }
            }
        }
        if (!child.waitFor(CHILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            child.destroyForcibly();
            throw new IllegalStateException(name + ": the child JVM did not end within " + CHILD_TIMEOUT_MINUTES
                    + " min");
        }
        if (child.exitValue() != 0 || result == null) {
            throw new IllegalStateException(name + ": the child JVM exited " + child.exitValue()
                    + (result == null ? " without a result line" : "") + "; its last output:\n  "
                    + String.join("\n  ", tail));
        }
        ForkedCostRun run = ForkedCostRun.parse(name, result, client, parallelism, round,
                emulator.httpRequests() - requestsBefore, CostChild.processCpuNs() - emulatorCpuBefore,
                MachineInfo.loadAverage());
        long stored = EngineScenario.storedRows(emulator, tables) - storedBefore;
        long expected = client.equals(FlinkEndToEnd.DISCARDING) ? 0 : run.rows();
        long sourceRows = txns / OrderTxnSource.PARTITIONS * OrderTxnSource.PARTITIONS * (OrderTxnSource.ITEMS + 1);
        if (stored != expected || run.rows() != sourceRows) {
            throw new IllegalStateException(name + ": the source emitted " + run.rows() + " rows (expected "
                    + sourceRows + "), the emulator stored " + stored + " (expected " + expected + ")");
        }
        return run;
    }
}
