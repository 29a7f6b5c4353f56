package io.lockstep.bench;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.StarRocksEmulator;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures the multi-table engine end to end: source transactions of one ~1 KB JSON row in each of two tables,
 * spread over {@code --partitions} source partitions, written by one task thread into a
 * {@link MultiTableLoadEngine} (commit interval {@code --commit-interval-ms}) that streams them over real HTTP
 * into the emulator's {@code none} store.
 *
 * <p>Prints rows/s and MB/s over the whole run (the final flush included, so everything counted is
 * committed), and the transaction-interface requests per 1,000 source transactions: loads + begins + commits
 * as the client sends them (each also takes one FE → BE 307 hop on the wire, not counted).
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        description = "2 tables x ~1 KB JSON rows through the multi-table engine into the emulator's none store.")
public final class EngineThroughputBenchmark implements Callable<Integer> {
    private static final String DDL = """
            CREATE DATABASE bench;
            CREATE TABLE bench.orders (id BIGINT NOT NULL, partition_no INT, payload VARCHAR(2048))
              PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 4;
            CREATE TABLE bench.order_items (id BIGINT NOT NULL, partition_no INT, payload VARCHAR(2048))
              PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 4;
            """;

    @Option(names = "--transactions", description = "Source transactions to write (default: ${DEFAULT-VALUE}).")
    int transactions = 100_000;

    @Option(names = "--partitions", description = "Source partitions (default: ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--row-bytes", description = "Approximate JSON row size in bytes (default: ${DEFAULT-VALUE}).")
    int rowBytes = 1024;

    @Option(names = "--commit-interval-ms", description = "Commit interval (default: ${DEFAULT-VALUE}).")
    long commitIntervalMs = 1000;

    @Override
    public Integer call() throws Exception {
        String filler = "x".repeat(Math.max(0, rowBytes - 60));
        InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
        try (StarRocksEmulator emulator = StarRocksEmulator.builder().storage("none").ddl(DDL).build().start();
             TransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                     .loadUrls(emulator.feUrl().replaceFirst("^https?://", "")).username("root").password("")
                     .build(), metrics)) {
            LoadEngineConfig config = LoadEngineConfig.builder().labelPrefix("bench").database("bench")
                    .commitIntervalMs(commitIntervalMs).build();
            long bytes = 0;
            long start;
            long end;
            try (MultiTableLoadEngine engine = MultiTableLoadEngine.start(config, client, metrics)) {
                start = System.nanoTime();
                long lastReport = start;
                for (long txn = 0; txn < transactions; txn++) {
                    int partition = (int) (txn % partitions);
                    byte[] order = row(txn, partition, filler);
                    byte[] item = row(txn, partition, filler);
                    engine.write(partition, "bench", "orders", order);
                    engine.write(partition, "bench", "order_items", item);
                    engine.txnEnd(partition);
                    bytes += order.length + item.length;
                    long now = System.nanoTime();
                    if (now - lastReport > 5_000_000_000L) {
                        System.out.printf(Locale.ROOT, "  %d source transactions written, %d commits%n",
                                txn + 1, metrics.count(MetricNames.COMMITS));
                        lastReport = now;
                    }
                }
                engine.flush();
                end = System.nanoTime();
            }
            long rows = 2L * transactions;
            long stored = emulator.rowCount("bench", "orders") + emulator.rowCount("bench", "order_items");
            long loads = metrics.tableCount(MetricNames.LOADS, "bench", "orders")
                    + metrics.tableCount(MetricNames.LOADS, "bench", "order_items");
            long commits = metrics.count(MetricNames.COMMITS);
            double seconds = (end - start) / 1e9;
            double requestsPerThousand = (loads + 2.0 * commits) * 1000.0 / transactions;
            System.out.printf(Locale.ROOT,
                    "engine: %d source txns, %d rows, %.1f MB in %.2fs => %.0f rows/s, %.1f MB/s; "
                            + "%d loads, %d commits => %.1f requests per 1,000 source txns; stored rows=%d%n",
                    transactions, rows, bytes / 1e6, seconds, rows / seconds, bytes / 1e6 / seconds,
                    loads, commits, requestsPerThousand, stored);
            if (stored != rows) {
                System.err.printf("row count mismatch: expected %d, stored %d%n", rows, stored);
                return 1;
            }
        }
        return 0;
    }

    private static byte[] row(long id, int partition, String filler) {
        return ("{\"id\":" + id + ",\"partition_no\":" + partition + ",\"payload\":\"" + filler + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
