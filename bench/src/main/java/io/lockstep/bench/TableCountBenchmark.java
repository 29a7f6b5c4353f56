package io.lockstep.bench;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.StarRocksEmulator;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * How the multi-table engine ({@link MultiTableLoadEngine}, the path of {@code lockstep run} and of the multi-table
 * sink, without Flink) scales with the number of tables: one writer thread, source transactions that each write one
 * ~200 B row into each of 1-3 distinct tables drawn at random (seeded) from the active ones, over
 * {@value EngineScenario#PARTITIONS} source partitions, commit interval 1 s, unpaced for a fixed time (the writer
 * blocks when the engine's buffer is full, so after the first second the engine's loading and committing set the
 * pace), then a flush. Cases:
 * 10, 100 and 1,000 tables, and 1,000 configured tables (each with its own load properties, as per-table
 * {@code sink.properties} give them) of which 10 receive rows, to show that a table without rows costs no request and
 * no memory. The emulator in this JVM ({@code none} store) holds all {@value #MAX_TABLES} tables in every case.
 *
 * <p>A run fails, naming it, if the emulator did not receive every row, or a table that received no rows was loaded.
 */
final class TableCountBenchmark {
    /** Tables in the emulator. */
    static final int MAX_TABLES = 1000;
    /** Commit interval of every run, ms. */
    static final long COMMIT_INTERVAL_MS = 1000;
    /** Row size, bytes of JSON. */
    static final int ROW_BYTES = 200;
    /** Tables one source transaction writes at most. */
    static final int MAX_TABLES_PER_TXN = 3;

    /** A case: tables configured, and how many of them receive rows. */
    record Case(int configured, int active) {
    }

    /** 10, 100, 1,000 tables; 1,000 configured with rows for 10. */
    static final List<Case> CASES = List.of(new Case(10, 10), new Case(100, 100), new Case(1000, 1000),
            new Case(1000, 10));

    private TableCountBenchmark() {
    }

    /** A started emulator ({@code none} store, {@link CountingParser}) with tables {@code t0 .. t999}. */
    static StarRocksEmulator emulator() throws Exception {
        return CountingParser.emulator(BenchTables.ddl(BenchTables.names(MAX_TABLES)));
    }

    /**
     * The section: an unrecorded warm-up of every case ({@code warmUpMs} each), then {@code repeats} rounds of every
     * case ({@code durationMs} each), their order rotating from round to round.
     *
     * @return the recorded runs in the order run
     */
    static List<TableCountRun> measure(long durationMs, long warmUpMs, int repeats, Consumer<String> log)
            throws Exception {
        List<TableCountRun> runs = new ArrayList<>();
        RowPool pool = new RowPool(4096, ROW_BYTES);
        try (StarRocksEmulator emulator = emulator()) {
            for (Case c : CASES) {
                log.accept("  warm-up " + describe(run(c, -1, emulator, pool, warmUpMs)));
            }
            for (int repeat = 0; repeat < repeats; repeat++) {
                for (int i = 0; i < CASES.size(); i++) {
                    TableCountRun run = run(CASES.get((i + repeat) % CASES.size()), repeat, emulator, pool,
                            durationMs);
                    log.accept("  repeat " + repeat + ": " + describe(run));
                    runs.add(run);
                }
            }
        }
        return runs;
    }

    /**
     * One run of {@code c}: writes source transactions for {@code durationMs} (then up to 63 more, so that every
     * partition ends its last one); reads the heap and the buffer's gauge
     * (with the last second's rows still buffered in the open shared transaction), flushes, reads the heap of the
     * idle engine, closes and reads the heap without it.
     *
     * @param emulator a started {@link #emulator()}
     * @throws IllegalStateException naming the run if the emulator did not receive every row written, or a table
     *                               without rows was loaded
     */
    static TableCountRun run(Case c, int repeat, StarRocksEmulator emulator, RowPool pool, long durationMs)
            throws Exception {
        String name = TableCountRun.label(c.configured(), c.active()) + (repeat < 0 ? " (warm-up)"
                : " repeat " + repeat);
        List<String> tables = BenchTables.names(MAX_TABLES);
        LoadEngineConfig.Builder config = LoadEngineConfig.builder().labelPrefix("bench")
                .database(BenchTables.DATABASE).commitIntervalMs(COMMIT_INTERVAL_MS)
                .loadProperty("ignore_json_size", "true");
        for (String table : tables.subList(0, c.configured())) {
            config.tableLoadProperties(BenchTables.DATABASE, table, Map.of("max_filter_ratio", "0"));
        }
        InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
        long storedBefore = EngineScenario.storedRows(emulator, tables);
        long httpBefore = emulator.httpRequests();
        SplittableRandom random = new SplittableRandom(7 + c.configured() + 31L * c.active());
        long rows = 0;
        long txns = 0;
        long start;
        long end;
        long loadingHeap;
        long buffered;
        long pausedNs;
        long idleHeap;
        TransactionClient client = new StarRocksTransactionClient(EngineScenario.clientConfig(emulator.feUrl()),
                metrics);
        MultiTableLoadEngine engine = null;
        try {
            engine = MultiTableLoadEngine.start(config.build(), client, metrics);
            int[] picked = new int[MAX_TABLES_PER_TXN];
            start = System.nanoTime();
            long deadline = start + durationMs * 1_000_000L;
            while ((txns & 63) != 0 || System.nanoTime() < deadline) {
                int partition = (int) (txns % EngineScenario.PARTITIONS);
                int count = Math.min(c.active(), 1 + random.nextInt(MAX_TABLES_PER_TXN));
                for (int j = 0; j < count; j++) {
                    picked[j] = distinctTable(random, c.active(), picked, j);
                    engine.write(partition, BenchTables.DATABASE, tables.get(picked[j]), pool.get(rows));
                    rows++;
                }
                engine.txnEnd(partition);
                txns++;
            }
            long pauseStart = System.nanoTime();
            loadingHeap = usedHeapAfterGc();
            buffered = metrics.gaugeValue(MetricNames.BUFFERED_BYTES);
            pausedNs = System.nanoTime() - pauseStart;
            engine.flush();
            end = System.nanoTime();
            idleHeap = usedHeapAfterGc();
        } finally {
            if (engine != null) {
                engine.close();
            }
            client.close();
        }
        engine = null;
        client = null;
        long closedHeap = usedHeapAfterGc();
        long stored = EngineScenario.storedRows(emulator, tables) - storedBefore;
        if (stored != rows) {
            throw new IllegalStateException(name + ": wrote " + rows + " rows, the emulator received " + stored);
        }
        long loads = 0;
        int tablesLoaded = 0;
        for (int t = 0; t < MAX_TABLES; t++) {
            long tableLoads = metrics.tableCount(MetricNames.LOADS, BenchTables.DATABASE, tables.get(t));
            if (tableLoads > 0 && t >= c.active()) {
                throw new IllegalStateException(name + ": table " + tables.get(t) + " received no rows but "
                        + tableLoads + " loads");
            }
            loads += tableLoads;
            tablesLoaded += tableLoads > 0 ? 1 : 0;
        }
        long commits = metrics.count(MetricNames.COMMITS);
        long rollbacks = metrics.count(MetricNames.ROLLBACKS);
        // every commit or rollback ended one begin; the last begin is the open transaction closed at the end
        long requests = loads + 2 * (commits + rollbacks) + 1;
        List<Long> latencies = metrics.histogramValues(MetricNames.COMMIT_LATENCY_MS).stream().sorted().toList();
        return new TableCountRun(c.configured(), c.active(), repeat, rows, txns, (end - start - pausedNs) / 1e9,
                loads, commits, requests, emulator.httpRequests() - httpBefore, tablesLoaded,
                percentile(latencies, 0.5), percentile(latencies, 0.99), loadingHeap - closedHeap, buffered,
                idleHeap - closedHeap, MachineInfo.loadAverage());
    }

    /** A table index below {@code active} that none of {@code picked[0 .. j-1]} holds. */
    private static int distinctTable(SplittableRandom random, int active, int[] picked, int j) {
        while (true) {
            int t = random.nextInt(active);
            boolean taken = false;
            for (int k = 0; k < j; k++) {
                taken |= picked[k] == t;
            }
            if (!taken) {
                return t;
            }
        }
    }

    /** Nearest-rank percentile of sorted values; NaN without values. */
    static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** Used heap after two full collections (G1 collects fully on {@code System.gc()} by default), bytes. */
    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static String describe(TableCountRun run) {
        return String.format(Locale.ROOT, "%s: %,d rows, %,d source txns in %.2f s => %,.0f rows/s; %,d commits, "
                        + "%.1f requests/commit (HTTP %,d), %d tables loaded, commit p50 %.0f ms p99 %.0f ms, "
                        + "heap while loading %.2f MiB (buffer %.2f MiB; %.1f KiB per table with rows), "
                        + "idle %.2f MiB (load %s)", run.label(), run.rows(), run.sourceTxns(), run.seconds(),
                run.rowsPerSecond(), run.commits(), run.requestsPerCommit(), run.httpRequests(), run.tablesLoaded(),
                run.commitP50Ms(), run.commitP99Ms(), run.loadingHeapBytes() / 1048576.0,
                run.bufferedBytes() / 1048576.0, run.loadingHeapBytesPerActiveTable() / 1024,
                run.idleHeapBytes() / 1048576.0, run.loadAverage());
    }
}
