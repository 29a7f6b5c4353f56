package io.lockstep.bench;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.format.BodyCompression;
import io.lockstep.core.format.JsonLoadFormat;
import io.lockstep.core.format.LoadFormat;
import io.lockstep.core.format.LoadFormats;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.StarRocksEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Bytes on the wire and sink CPU per GB of input rows for each load format ({@code json}, {@code csv}) with each body
 * compression (none, {@code lz4_frame}, {@code gzip}), StarRocks' headers (JSON: {@code compression: LZ4_FRAME|GZIP};
 * CSV: {@code format: lz4|gzip}, {@link io.lockstep.core.format.CompressedLoadFormat}). Every run writes the same
 * pre-built wide CDC rows ({@link WideCdcRows}) into the multi-table engine ({@link MultiTableLoadEngine}, core, no
 * Flink: one writer thread, source transactions of 1-4 rows over {@value EngineScenario#PARTITIONS} source partitions,
 * commit interval 1 s) until a fixed number of rows is written, then flushes; the emulator (in this JVM, HTTP on loopback with the FE -> BE
 * redirect, {@code none} store) decompresses, parses and type-checks every body, and {@link WireBytesParser} counts
 * the body bytes it received. A run whose rows the emulator did not all receive fails, naming it.
 */
final class LoadFormatBenchmark {
    /** Commit interval of every run, ms. */
    static final long COMMIT_INTERVAL_MS = 1000;
    /** Rows in the pool the runs write round-robin. */
    static final int POOL_ROWS = 8192;

    /** A load format with a body compression, null = none. */
    record Variant(String format, BodyCompression compression) {
        /** e.g. {@code json}, {@code csv + lz4_frame}. */
        String label() {
            return compression == null ? format : format + " + " + compression.name().toLowerCase(Locale.ROOT);
        }

        /** The engine's format: {@link LoadFormats#forName} with StarRocks' {@code compression} header. */
        LoadFormat loadFormat() {
            return LoadFormats.forName(format, "bench load format",
                    compression == null ? Map.of() : Map.of("compression", compression.starRocksName()));
        }
    }

    /** JSON and CSV, each with no compression, LZ4 frame and gzip. */
    static final List<Variant> VARIANTS = List.of(new Variant("json", null),
            new Variant("json", BodyCompression.LZ4_FRAME), new Variant("json", BodyCompression.GZIP),
            new Variant("csv", null), new Variant("csv", BodyCompression.LZ4_FRAME),
            new Variant("csv", BodyCompression.GZIP));

    private LoadFormatBenchmark() {
    }

    /**
     * The section: one emulator; an unrecorded warm-up run of every variant ({@code warmUpRows} rows each), then
     * {@code repeats} rounds of every variant ({@code rowsPerRun} rows each), their order rotating from round to
     * round.
     *
     * @return the recorded runs in the order run
     */
    static List<LoadFormatRun> measure(long rowsPerRun, long warmUpRows, int repeats, Consumer<String> log)
            throws Exception {
        WireBytesParser wire = new WireBytesParser();
        WideCdcRows rows = new WideCdcRows(POOL_ROWS, 42);
        log.accept(String.format(Locale.ROOT, "  rows: %s.%s, %d B of JSON on average", BenchTables.DATABASE,
                WideCdcRows.TABLE, rows.averageBytes()));
        List<LoadFormatRun> runs = new ArrayList<>();
        try (StarRocksEmulator emulator = StarRocksEmulator.builder().storage("none").parser(wire)
                .ddl(WideCdcRows.ddl()).build().start()) {
            for (Variant variant : VARIANTS) {
                log.accept("  warm-up " + describe(run(variant, -1, emulator, wire, rows, warmUpRows)));
            }
            for (int repeat = 0; repeat < repeats; repeat++) {
                for (int i = 0; i < VARIANTS.size(); i++) {
                    Variant variant = VARIANTS.get((i + repeat) % VARIANTS.size());
                    LoadFormatRun run = run(variant, repeat, emulator, wire, rows, rowsPerRun);
                    log.accept("  repeat " + repeat + ": " + describe(run));
                    runs.add(run);
                }
            }
        }
        return runs;
    }

    /**
     * One run: writes whole source transactions until {@code rowsToWrite} rows are written (up to 3 more), then
     * flushes.
     *
     * @param emulator a started emulator with {@link WideCdcRows#ddl()} whose parser is {@code wire}
     * @throws IllegalStateException naming the run if the emulator did not receive every row written
     */
    static LoadFormatRun run(Variant variant, int repeat, StarRocksEmulator emulator, WireBytesParser wire,
            WideCdcRows pool, long rowsToWrite) throws Exception {
        String name = variant.label() + (repeat < 0 ? " (warm-up)" : " repeat " + repeat);
        LoadFormat format = variant.loadFormat();
        LoadEngineConfig.Builder config = LoadEngineConfig.builder().labelPrefix("bench")
                .database(BenchTables.DATABASE).commitIntervalMs(COMMIT_INTERVAL_MS).loadFormat(format);
        format.starRocksHeaders().forEach(config::loadProperty);
        if (format.name().equals(JsonLoadFormat.NAME)) {
            config.loadProperty("ignore_json_size", "true");
        }
        InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
        long storedBefore = emulator.rowCount(BenchTables.DATABASE, WideCdcRows.TABLE);
        long wireBefore = wire.bodyBytes();
        long rows = 0;
        long bytes = 0;
        long start;
        long end;
        long loadingNs;
        ProcessCpu.Sample cpu;
        try (TransactionClient client = new StarRocksTransactionClient(EngineScenario.clientConfig(emulator.feUrl()),
                metrics);
             MultiTableLoadEngine engine = MultiTableLoadEngine.start(config.build(), client, metrics)) {
            ProcessCpu.Sample cpuStart = ProcessCpu.sample();
            LoadingThreadsCpu loading = LoadingThreadsCpu.start();
            start = System.nanoTime();
            long txns = 0;
            while (rows < rowsToWrite) {
                int partition = (int) (txns % EngineScenario.PARTITIONS);
                int size = 1 + (int) (txns % 4);
                for (int j = 0; j < size; j++) {
                    byte[] row = pool.get(rows);
                    engine.write(partition, BenchTables.DATABASE, WideCdcRows.TABLE, row);
                    rows++;
                    bytes += row.length;
                }
                engine.txnEnd(partition);
                txns++;
            }
            engine.flush();
            end = System.nanoTime();
            loadingNs = loading.elapsedNs();
            cpu = ProcessCpu.sample().minus(cpuStart);
        }
        long stored = emulator.rowCount(BenchTables.DATABASE, WideCdcRows.TABLE) - storedBefore;
        if (stored != rows) {
            throw new IllegalStateException(name + ": wrote " + rows + " rows, the emulator received " + stored);
        }
        return new LoadFormatRun(variant, repeat, rows, bytes, wire.bodyBytes() - wireBefore,
                metrics.tableCount(MetricNames.LOADED_BYTES, BenchTables.DATABASE, WideCdcRows.TABLE),
                metrics.tableCount(MetricNames.LOADS, BenchTables.DATABASE, WideCdcRows.TABLE), (end - start) / 1e9,
                loadingNs, cpu.clientNs(), MachineInfo.loadAverage());
    }

    static String describe(LoadFormatRun run) {
        return String.format(Locale.ROOT, "%s: %,d rows, %.1f MB JSON in %.2f s => %,.0f rows/s; wire %.1f MB "
                        + "(%.3f of input, %.0f B/row) in %d loads; loading threads %.1f s/GB, client CPU %.1f s/GB "
                        + "(load %s)", run.variant().label(), run.rows(), run.inputBytes() / 1e6, run.seconds(),
                run.rowsPerSecond(), run.wireBytes() / 1e6, run.wireRatio(), run.wireBytesPerRow(), run.loads(),
                run.loadingCpuSecondsPerGb(), run.clientCpuSecondsPerGb(), run.loadAverage());
    }
}
