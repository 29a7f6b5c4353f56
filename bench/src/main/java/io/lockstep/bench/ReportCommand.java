package io.lockstep.bench;

import io.lockstep.emulator.StarRocksEmulator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The whole benchmark run behind {@code ./bench/run}: JMH, ceiling and engine, Flink end to end (throughput and
 * freshness), exactly-once, memory (forked JVM); writes {@code <out>/<date>.md} and its PNG plots. Each measurement
 * is short (5-20 s) so the run stays under 10 minutes on 2 cores. A failed measurement is reported in the file, and
 * the others still run.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Runs every measurement and writes the markdown report with plots.")
public final class ReportCommand implements Callable<Integer> {
    private static final int[] ROW_SIZES = {200, 2048};
    /** The engine's default I/O threads: loads in flight at once per engine. */
    private static final int IO_THREADS = 2;
    /**
     * The memory runs' heap: the goal's bound (2 x buffer-size of 128 MiB + 64 MiB) plus 64 MiB, so that the collector
     * has room to work and the live set, not GC headroom, decides.
     */
    static final int MEMORY_HEAP_MB = 2 * 128 + 64 + 64;

    @Option(names = "--out", description = "Directory of the report (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench/results");

    @Option(names = "--scale", description = "Multiplies every duration (default: ${DEFAULT-VALUE}; 0.3 = smoke run).")
    double scale = 1.0;

    @Option(names = "--skip", split = ",", description = "Sections to skip: jmh, engine, e2e, freshness, eo, "
            + "eo-multi, cost, cost-fork, layout, formats, tables, memory.")
    List<String> skip = new ArrayList<>();

    @Option(names = "--txns", description = "Source transactions per run of the cost section (order workload), "
            + "before --scale (default: ${DEFAULT-VALUE}; the issue's full run: 1000000).")
    long txns = 200_000;

    @Option(names = "--repeats", description = "Repeats of every run of the cost section, rounds of the cost-fork "
            + "section, repeats of the layout, formats and tables sections; the report shows the median and the "
            + "spread (default: 2 for cost, 5 for cost-fork, 3 for the others).")
    Integer repeats;

    @Option(names = "--layout-txns", description = "Source transactions of the layout section's workload (each "
            + "layout is written once and read by every run), before --scale (default: ${DEFAULT-VALUE}).")
    long layoutTxns = 40_000;

    @Mixin
    FormatAndTableSections formatAndTables = new FormatAndTableSections();

    @Option(names = "--no-profile", description = "Skip the JFR hot spots (recorded by default) of the engine and "
            + "end-to-end runs and the extra profiled child runs of the cost-fork section at p = 1 and 4.")
    boolean noProfile;

    private final RunResults results = new RunResults();

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        results.startedAt = Instant.now().toString();
        results.loadAtStart = MachineInfo.loadAverage();
        Files.createDirectories(out);
        String date = LocalDate.now(ZoneOffset.UTC).toString();
        section("jmh", () -> results.jmh.addAll(JmhSuite.run()));
        section("engine", this::engine);
        section("e2e", this::endToEnd);
        section("freshness", this::freshness);
        section("eo", this::exactlyOnce);
        section("eo-multi", this::multiTableModes);
        section("cost", this::cost);
        section("cost-fork", this::costFork);
        section("layout", this::topicLayouts);
        section("formats", () -> formatAndTables.loadFormats(results, scale, repeats));
        section("tables", () -> formatAndTables.tableCounts(results, scale, repeats));
        section("memory", this::memory);
        results.loadAtEnd = MachineInfo.loadAverage();
        results.totalSeconds = (System.nanoTime() - start) / 1e9;
        Path report = new ReportWriter(results, out, date).write();
        System.out.println("report: " + report + " (" + Math.round(results.totalSeconds) + " s)");
        return 0;
    }

    private interface Section {
        void run() throws Exception;
    }

    private void section(String name, Section body) {
        if (skip.contains(name)) {
            return;
        }
        System.out.printf(Locale.ROOT, "== %s (load %s)%n", name, MachineInfo.loadAverage());
        try {
            body.run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            results.problems.add(name + ": " + e);
        }
    }

    private long ms(long base) {
        return Math.max(1000, Math.round(base * scale));
    }

    private HotSpots profiler(String phase) throws java.io.IOException {
        return noProfile ? null : new HotSpots(phase, Path.of("bench/target/jfr"));
    }

    private void closeProfiler(HotSpots hotSpots) throws java.io.IOException {
        if (hotSpots != null) {
            hotSpots.close();
            results.hotSpots.add(hotSpots.summary());
        }
    }

    /** (1) and (2): engine alone at 2 and 8 tables x 200 B and 2 KB, each next to its ceiling. */
    private void engine() throws Exception {
        HotSpots hotSpots = profiler("engine");
        try {
            for (int tables : new int[] {2, 8}) {
                for (int rowBytes : ROW_SIZES) {
                    List<String> names = BenchTables.names(tables);
                    RowPool pool = new RowPool(4096, rowBytes);
                    try (StarRocksEmulator emulator = CountingParser.emulator(BenchTables.ddl(names))) {
                        String label = String.format(Locale.ROOT, "%d tables, %d B rows", tables, rowBytes);
                        // a warm-up, so the measured scenario is not the one paying for the JIT: with 1.5 s the
                        // engine runs still compiled for 3 s of CPU (counted as client CPU) against the ceiling's 1 s
                        EngineScenario.run("warm-up", emulator, names, pool, ms(4000), 1000);
                        Figures engine = EngineScenario.run("engine " + label, emulator, names, pool, ms(8000), 1000);
                        System.out.println("  " + engine);
                        int concurrency = Math.min(tables, IO_THREADS);
                        Figures ceiling = CeilingBenchmark.run("ceiling " + label, emulator, names, pool,
                                engine.averageLoadBytes(), concurrency, ms(5000), 1000);
                        System.out.println("  " + ceiling);
                        results.engine.add(new RunResults.EnginePair(1, tables, rowBytes, engine, ceiling,
                                concurrency));
                    }
                }
            }
        } finally {
            closeProfiler(hotSpots);
        }
    }

    /** (3) throughput: Flink MiniCluster at parallelism 1 and 2, both row sizes, commit interval 1 s. */
    private void endToEnd() throws Exception {
        HotSpots hotSpots = profiler("end-to-end");
        try (StarRocksEmulator emulator = emulator()) {
            // Unrecorded warm-up at both parallelisms: without it the first measured run JIT-compiled for ~5 s of its
            // 10 s (counted as client CPU), the sink's path, Flink's and the emulator's alike.
            FlinkEndToEnd.multiTable("warm-up", emulator, 1, 200, 1000, 0, ms(4000), false);
            FlinkEndToEnd.multiTable("warm-up", emulator, 2, 2048, 1000, 0, ms(4000), false);
            for (int parallelism : new int[] {1, 2}) {
                for (int rowBytes : ROW_SIZES) {
                    String label = String.format(Locale.ROOT, "Flink p%d, %d B rows", parallelism, rowBytes);
                    Figures e2e = FlinkEndToEnd.multiTable(label, emulator, parallelism, rowBytes, 1000, 0,
                            ms(10_000), false);
                    System.out.println("  " + e2e);
                    int concurrency = IO_THREADS * parallelism;
                    RowPool pool = new RowPool(4096, rowBytes);
                    Figures ceiling = CeilingBenchmark.run("ceiling " + label, emulator,
                            FlinkEndToEnd.TABLES.subList(0, 7), pool, e2e.averageLoadBytes(), concurrency, ms(5000),
                            1000);
                    System.out.println("  " + ceiling);
                    results.endToEnd.add(new RunResults.EnginePair(parallelism, 7, rowBytes, e2e, ceiling,
                            concurrency));
                }
            }
        } finally {
            closeProfiler(hotSpots);
        }
    }

    /**
     * (3) freshness: a paced source (2,000 transactions/s), commit interval 1 s and 5 s, parallelism 1 and 2, after an
     * unrecorded warm-up at p1, 1 s.
     */
    private void freshness() throws Exception {
        long rate = 2000;
        long pollMicros = 1000;
        try (StarRocksEmulator emulator = emulator()) {
            // Unrecorded warm-up, paced like the measured runs: without it the first measured run (p1, 1 s) is the
            // JVM's first Flink job whenever the end-to-end section is skipped, and its first commits ran late while
            // the JIT compiled (p99 1,199 ms; the same run again in the same JVM: 1,066 ms).
            FlinkEndToEnd.multiTable("warm-up", emulator, 1, 200, 1000, rate, ms(4000), false);
            for (int parallelism : new int[] {1, 2}) {
                for (long interval : new long[] {1000, 5000}) {
                    String label = String.format(Locale.ROOT, "freshness p%d, interval %d ms", parallelism, interval);
                    long duration = interval == 1000 ? ms(12_000) : ms(20_000);
                    FreshnessProbe probe = new FreshnessProbe(emulator, TxnSource.PARTITIONS_MAX, pollMicros);
                    Figures figures;
                    try {
                        figures = FlinkEndToEnd.multiTable(label, emulator, parallelism, 200, interval, rate,
                                duration, true);
                    } finally {
                        probe.close();
                    }
                    RunResults.Freshness f = new RunResults.Freshness(parallelism, interval, rate, figures,
                            probe.sortedLatenciesMs(), pollMicros);
                    System.out.printf(Locale.ROOT, "  %s: %d txns, p50 %.0f ms, p99 %.0f ms, max %.0f ms (budget %d)%n",
                            label, f.sortedMs().length, f.p(0.5), f.p(0.99), f.max(), f.budgetMs());
                    results.freshness.add(f);
                }
            }
        }
    }

    /** (5) exactly-once single-table at checkpoint intervals 1 s and 10 s. */
    private void exactlyOnce() throws Exception {
        try (StarRocksEmulator emulator = emulator()) {
            for (long checkpointMs : new long[] {1000, 10_000}) {
                long duration = checkpointMs == 1000 ? ms(10_000) : ms(22_000);
                Figures f = FlinkEndToEnd.exactlyOnce("exactly-once, checkpoint " + checkpointMs + " ms", emulator,
                        200, checkpointMs, duration);
                System.out.println("  " + f);
                results.exactlyOnce.add(new RunResults.ExactlyOnce(checkpointMs, f, FlinkEndToEnd.emitSeconds()));
            }
        }
    }

    /**
     * (6) the multi-table sink at-least-once and exactly-once across tables, one after the other in this run,
     * parallelism 2, commit interval 1 s, 200 B rows: throughput unpaced, then freshness with the paced source
     * (2,000 transactions/s), after an unrecorded warm-up run. Each mode gets a fresh emulator with the progress table and the H2 store (the
     * sink reads the progress table back through the SQL API; the {@code none} store of the other sections keeps
     * nothing to read), so both modes pay for storing rows alike; the data tables are DUPLICATE KEY, so the
     * stored row count still matches what the source emitted.
     */
    private void multiTableModes() throws Exception {
        long interval = 1000;
        long rate = 2000;
        long pollMicros = 1000;
        // Warm-up of both modes, not recorded: the first measured run pays for the JIT of everything it runs (the
        // H2 store's publish path included) and for class loading; with a 3 s warm-up of one mode, whichever mode ran
        // first measured about half the rows/s and twice the CPU per GB of the other, in either order.
        try (StarRocksEmulator emulator = StarRocksEmulator.builder().storage("h2")
                .ddl(BenchTables.duplicateKeyDdl(FlinkEndToEnd.TABLES) + BenchTables.progressTableDdl()).build()
                .start()) {
            FlinkEndToEnd.multiTable("warm-up", emulator, 2, 200, interval, 0, ms(6000), false, null);
            FlinkEndToEnd.multiTable("warm-up", emulator, 2, 200, interval, 0, ms(6000), false, "bench-warm-up");
        }
        for (String mode : new String[] {"at-least-once", "exactly-once"}) {
            String jobId = mode.equals("exactly-once") ? "bench-eo-multi" : null;
            try (StarRocksEmulator emulator = StarRocksEmulator.builder().storage("h2")
                    .ddl(BenchTables.duplicateKeyDdl(FlinkEndToEnd.TABLES) + BenchTables.progressTableDdl()).build().start()) {
                HotSpots hotSpots = profiler("eo-multi-" + mode);
                Figures throughput;
                try {
                    throughput = FlinkEndToEnd.multiTable(mode + " throughput p2", emulator, 2, 200, interval, 0,
                            ms(10_000), false, jobId);
                } finally {
                    closeProfiler(hotSpots);
                }
                System.out.println("  " + throughput);
                String label = mode + " freshness p2, interval " + interval + " ms";
                FreshnessProbe probe = new FreshnessProbe(emulator, TxnSource.PARTITIONS_MAX, pollMicros);
                Figures figures;
                try {
                    figures = FlinkEndToEnd.multiTable(label, emulator, 2, 200, interval, rate, ms(12_000), true,
                            jobId == null ? null : jobId + "-freshness");
                } finally {
                    probe.close();
                }
                RunResults.Freshness f = new RunResults.Freshness(2, interval, rate, figures,
                        probe.sortedLatenciesMs(), pollMicros);
                System.out.printf(Locale.ROOT, "  %s: %.0f rows/s, %.2f MB/s; freshness %d txns, p50 %.0f ms, "
                        + "p99 %.0f ms, max %.0f ms (budget %d + 100)%n", mode, throughput.rowsPerSecond(),
                        throughput.megabytesPerSecond(), f.sortedMs().length, f.p(0.5), f.p(0.99), f.max(),
                        f.budgetMs());
                results.modes.add(new RunResults.Mode(mode, throughput, f));
            }
        }
    }

    /**
     * (7) the order workload (1 order + 3 order_items rows of ~194 B per source transaction, 2 source partitions,
     * commit interval 1 s) at p = 1, 2, 4 into the multi-table sink at-least-once and exactly-once across tables and
     * into Flink's DiscardingSink, {@code repeats} times; within a repeat the three clients run back to back at each
     * parallelism, their order rotating from repeat to repeat so that none always runs first. One emulator with the
     * {@code none} store (progress table kept) serves every run; an unrecorded warm-up of every client comes first.
     */
    private void cost() throws Exception {
        int repeats = this.repeats == null ? 2 : this.repeats;
        long perRun = Math.max(OrderTxnSource.PARTITIONS, Math.round(txns * scale));
        results.costTxns = perRun;
        results.costRepeats = repeats;
        String[] clients = {FlinkEndToEnd.DISCARDING, FlinkEndToEnd.AT_LEAST_ONCE, FlinkEndToEnd.EXACTLY_ONCE};
        HotSpots hotSpots = profiler("cost");
        try (StarRocksEmulator emulator = CountingParser.emulatorKeepingProgress(BenchTables.duplicateKeyDdl(
                List.of(OrderTxnSource.ORDERS, OrderTxnSource.ORDER_ITEMS)) + BenchTables.progressTableDdl())) {
            int job = 0;
            for (String client : clients) {
                FlinkEndToEnd.orders(client, emulator, 2, Math.max(2, perRun / 4), "bench-cost-" + job++);
            }
            for (int repeat = 0; repeat < repeats; repeat++) {
                for (int parallelism : new int[] {1, 2, 4}) {
                    for (int i = 0; i < clients.length; i++) {
                        String client = clients[(i + repeat) % clients.length];
                        Figures f = FlinkEndToEnd.orders(client, emulator, parallelism, perRun, "bench-cost-" + job++);
                        System.out.printf(Locale.ROOT, "  repeat %d: %s; HTTP %.2f / 1,000 txns, loads %.2f / 1,000, "
                                + "client CPU %.2f s, JIT %d ms (load %s)%n", repeat, f, f.requestsPerThousandTxns(),
                                f.loads() * 1000.0 / f.sourceTxns(), f.cpu().clientNs() / 1e9, f.cpu().jitMs(),
                                MachineInfo.loadAverage());
                        results.costs.add(new RunResults.CostRun(client, parallelism, repeat, f));
                    }
                }
            }
        } finally {
            closeProfiler(hotSpots);
        }
    }

    /**
     * (7b) the order workload with a fresh JVM per run, as the side-by-side comparison with the official connector
     * was made: see {@link ForkedCost} and {@link ForkedCostFigures}.
     */
    private void costFork() throws Exception {
        results.costForkTxns = Math.max(OrderTxnSource.PARTITIONS, Math.round(txns * scale));
        results.costForkRounds = repeats == null ? 5 : repeats;
        results.costFork.addAll(ForkedCost.run(results.costForkTxns, results.costForkRounds,
                noProfile ? null : results.hotSpots));
    }

    /**
     * (8) {@code lockstep run} reading one topic against a topic per table with the transaction topic, at p = 1, 2,
     * 4: see {@link TopicLayoutBenchmark} and {@link TopicLayoutFigures}.
     */
    private void topicLayouts() throws Exception {
        results.layoutTxns = Math.max(1, Math.round(layoutTxns * scale));
        results.layoutRepeats = repeats == null ? 3 : repeats;
        results.layouts.addAll(TopicLayoutBenchmark.measure(results.layoutTxns, results.layoutRepeats,
                new int[] {1, 2, 4}, System.out::println));
    }

    /** (4) memory: a forked JVM per mode, against an emulator in this one. */
    private void memory() throws Exception {
        try (StarRocksEmulator emulator = CountingParser.emulator(BenchTables.ddl(BenchTables.names(2)))) {
            for (String mode : new String[] {"one-txn", "many-txns"}) {
                List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx" + MEMORY_HEAP_MB + "m", "-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"),
                        BenchMain.class.getName(), "memory", "--load-url", emulator.feUrl(), "--mode", mode,
                        "--total-mb", "1024", "--buffer-mb", "128");
                Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
                Map<String, String> fields = new LinkedHashMap<>();
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = lines.readLine()) != null; ) {
                        if (line.startsWith("RESULT ")) {
                            parseResult(line.substring(7), fields);
                        } else if (!line.isBlank()) {
                            System.out.println("  [memory " + mode + "] " + line);
                        }
                    }
                }
                if (!child.waitFor(5, TimeUnit.MINUTES) || child.exitValue() != 0 || fields.isEmpty()) {
                    child.destroyForcibly();
                    throw new IllegalStateException("memory run " + mode + " failed (exit "
                            + (child.isAlive() ? "timeout" : child.exitValue()) + ")");
                }
                System.out.println("  memory " + mode + ": " + fields);
                results.memory.put(mode, fields);
            }
        }
    }

    /** {@code key=value ... outcome=<rest of line>} (the outcome is last and may hold spaces). */
    static void parseResult(String text, Map<String, String> into) {
        int outcome = text.indexOf("outcome=");
        String head = outcome < 0 ? text : text.substring(0, outcome);
        for (String field : head.trim().split("\\s+")) {
            int eq = field.indexOf('=');
            if (eq > 0) {
                into.put(field.substring(0, eq), field.substring(eq + 1));
            }
        }
        if (outcome >= 0) {
            into.put("outcome", text.substring(outcome + "outcome=".length()));
        }
    }

    private static StarRocksEmulator emulator() throws Exception {
        return CountingParser.emulator(BenchTables.ddl(FlinkEndToEnd.TABLES));
    }
}
