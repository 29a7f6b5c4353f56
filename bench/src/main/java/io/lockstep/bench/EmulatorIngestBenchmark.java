package io.lockstep.bench;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures how fast the embedded emulator ingests JSON rows through the transaction stream load interface:
 * one transaction of {@code --total-mb} MB sent as {@code --chunk-mb} MB loads (begin, load × n, prepare,
 * commit) over real HTTP with the FE → BE redirect, once per storage mode ({@code none}: parse and count;
 * {@code h2}: rows published into H2).
 *
 * <p>The bodies are generated before the clock starts, so the figures are the server's (plus the loopback HTTP
 * client's) cost. Prints one line per storage with MB/s and rows/s, and verifies the stored row count.
 */
@Command(name = "emulator-ingest", mixinStandardHelpOptions = true,
        description = "JSON rows through the emulator's transaction interface into the none and h2 stores.")
public final class EmulatorIngestBenchmark implements Callable<Integer> {
    private static final String DDL = """
            CREATE DATABASE bench;
            CREATE TABLE bench.events (
              id BIGINT NOT NULL,
              customer_id BIGINT,
              sku VARCHAR(64),
              quantity INT,
              price DECIMAL(12, 2),
              note VARCHAR(256),
              created_at DATETIME
            ) PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 4;
            """;
    private static final Map<String, String> JSON_LOAD = Map.of(
            "format", "json", "strip_outer_array", "true", "ignore_json_size", "true");

    @Option(names = "--total-mb", description = "Megabytes of JSON per run (default: ${DEFAULT-VALUE}).")
    int totalMb = 100;

    @Option(names = "--chunk-mb", description = "Megabytes per load request (default: ${DEFAULT-VALUE}).")
    int chunkMb = 4;

    @Option(names = "--storage", split = ",",
            description = "Storage modes to measure, comma separated (default: none,h2).")
    List<String> storages = List.of("none", "h2");

    @Option(names = "--warmup-mb", description = "Megabytes loaded once before measuring (default: ${DEFAULT-VALUE}).")
    int warmupMb = 20;

    @Override
    public Integer call() throws Exception {
        System.out.printf(Locale.ROOT, "generating %d MB of JSON rows in %d MB loads...%n", totalMb, chunkMb);
        List<Chunk> warmup = generate(warmupMb, chunkMb, 1_000_000_000L);
        List<Chunk> chunks = generate(totalMb, chunkMb, 0);
        long bytes = chunks.stream().mapToLong(c -> c.body.length).sum();
        long rows = chunks.stream().mapToLong(c -> c.rows).sum();
        System.out.printf(Locale.ROOT, "%d rows, %.1f MB, avg row %d bytes%n", rows, bytes / 1e6, bytes / rows);
        for (String storage : storages) {
            try (StarRocksEmulator emulator = StarRocksEmulator.builder().storage(storage).ddl(DDL).build().start();
                 TransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                         .loadUrls(emulator.feUrl().replaceFirst("^https?://", "")).username("root").password("")
                         .build(), LoadMetrics.noop())) {
                runTransaction(client, "warmup_" + storage, warmup);
                long start = System.nanoTime();
                long loadEnd = runTransaction(client, "bench_" + storage, chunks);
                long end = System.nanoTime();
                long stored = emulator.rowCount("bench", "events");
                double seconds = (end - start) / 1e9;
                System.out.printf(Locale.ROOT,
                        "storage=%-4s rows=%d MB=%.1f total=%.2fs (loads %.2fs, prepare+commit %.2fs) "
                                + "=> %.1f MB/s, %.0f rows/s; stored rows=%d%n",
                        storage, rows, bytes / 1e6, seconds, (loadEnd - start) / 1e9, (end - loadEnd) / 1e9,
                        bytes / 1e6 / seconds, rows / seconds, stored);
                long expected = rows + warmup.stream().mapToLong(c -> c.rows).sum();
                if (stored != expected) {
                    System.err.printf("row count mismatch for %s: expected %d, stored %d%n", storage, expected, stored);
                    return 1;
                }
            }
        }
        return 0;
    }

    /** Runs begin, every load, prepare and commit; returns the nanoTime at which the last load finished. */
    private static long runTransaction(TransactionClient client, String label, List<Chunk> chunks) throws Exception {
        TransactionRef txn = TransactionRef.singleTable("bench", "events", label);
        client.begin(txn, 600);
        for (Chunk chunk : chunks) {
            client.load(txn, "events", chunk.body, JSON_LOAD);
        }
        long loadEnd = System.nanoTime();
        client.prepare(txn);
        client.commit(txn);
        return loadEnd;
    }

    private static List<Chunk> generate(int totalMb, int chunkMb, long firstId) {
        long totalBytes = totalMb * 1_000_000L;
        long chunkBytes = chunkMb * 1_000_000L;
        List<Chunk> chunks = new ArrayList<>();
        long id = firstId;
        long produced = 0;
        StringBuilder sb = new StringBuilder((int) chunkBytes + 1024);
        while (produced < totalBytes) {
            sb.setLength(0);
            sb.append('[');
            int rows = 0;
            while (sb.length() < chunkBytes && produced + sb.length() < totalBytes) {
                if (rows > 0) {
                    sb.append(',');
                }
                appendRow(sb, id++);
                rows++;
            }
            sb.append(']');
            byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
            produced += body.length;
            chunks.add(new Chunk(body, rows));
        }
        return chunks;
    }

    private static void appendRow(StringBuilder sb, long id) {
        sb.append("{\"id\":").append(id)
                .append(",\"customer_id\":").append(id % 10_007)
                .append(",\"sku\":\"SKU-").append(id % 5_000).append("-blue-large\"")
                .append(",\"quantity\":").append(1 + id % 9)
                .append(",\"price\":").append(id % 100_000 / 100).append('.').append(String.format(Locale.ROOT, "%02d", id % 100))
                .append(",\"note\":\"gift wrap requested; deliver to the side door after six pm\"")
                .append(",\"created_at\":\"2026-11-30 12:").append(String.format(Locale.ROOT, "%02d:%02d", id / 60 % 60, id % 60))
                .append("\"}");
    }

    private record Chunk(byte[] body, long rows) {
    }
}
