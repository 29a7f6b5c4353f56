package io.lockstep.bench;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.StarRocksEmulator;
import java.util.List;

/**
 * The multi-table engine alone (core, no Flink): one thread writes source transactions of 1 to 4 rows (row
 * {@code j} of transaction {@code k} goes to table {@code (k + j) mod tables}, so a transaction spans up to
 * min(4, tables) tables) over {@code partitions} source partitions into a {@link MultiTableLoadEngine}, which loads
 * them over HTTP into the emulator. Writes for {@code durationMs}, then takes a flush, so every counted row is
 * committed when the clock stops.
 */
final class EngineScenario {
    /** Source partitions the writer spreads transactions over. */
    static final int PARTITIONS = 4;

    private EngineScenario() {
    }

    /**
     * @param emulator   a started emulator holding {@code tables} (see {@link BenchTables#ddl})
     * @param tables     table names
     * @param pool       the rows to write
     * @param durationMs how long to write, ms
     * @return the figures; {@link Figures#averageLoadBytes()} is the body size the ceiling should use
     * @throws IllegalStateException if the emulator did not receive every row
     */
    static Figures run(String name, StarRocksEmulator emulator, List<String> tables, RowPool pool, long durationMs,
                       long commitIntervalMs) throws Exception {
        InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
        long before = storedRows(emulator, tables);
        long rows = 0;
        long bytes = 0;
        long txns = 0;
        long start;
        long end;
        ProcessCpu.Sample cpu;
        try (TransactionClient client = new StarRocksTransactionClient(clientConfig(emulator.feUrl()), metrics);
             MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("bench")
                     .database(BenchTables.DATABASE).commitIntervalMs(commitIntervalMs)
                     .loadProperty("ignore_json_size", "true").build(), client, metrics)) {
            ProcessCpu.Sample cpuStart = ProcessCpu.sample();
            start = System.nanoTime();
            long deadline = start + durationMs * 1_000_000L;
            int tableCount = tables.size();
            while ((txns & 63) != 0 || System.nanoTime() < deadline) {
                int partition = (int) (txns % PARTITIONS);
                int size = 1 + (int) (txns % 4);
                for (int j = 0; j < size; j++) {
                    byte[] row = pool.get(rows);
                    engine.write(partition, BenchTables.DATABASE, tables.get((int) ((txns + j) % tableCount)), row);
                    rows++;
                    bytes += row.length;
                }
                engine.txnEnd(partition);
                txns++;
            }
            engine.flush();
            end = System.nanoTime();
            cpu = ProcessCpu.sample().minus(cpuStart);
        }
        long stored = storedRows(emulator, tables) - before;
        if (stored != rows) {
            throw new IllegalStateException(name + ": wrote " + rows + " rows, the emulator stored " + stored);
        }
        long loads = 0;
        for (String table : tables) {
            loads += metrics.tableCount(MetricNames.LOADS, BenchTables.DATABASE, table);
        }
        long commits = metrics.count(MetricNames.COMMITS);
        long rollbacks = metrics.count(MetricNames.ROLLBACKS);
        // every commit or rollback ended one begin; the last begin is the open transaction closed at the end
        long requests = loads + 2 * (commits + rollbacks) + 1;
        return new Figures(name, rows, bytes, (end - start) / 1e9, txns, requests, loads, cpu);
    }

    static TransactionClientConfig clientConfig(String feUrl) {
        return TransactionClientConfig.builder().loadUrls(feUrl.replaceFirst("^https?://", "")).username("root")
                .password("").build();
    }

    static long storedRows(StarRocksEmulator emulator, List<String> tables) {
        long n = 0;
        for (String table : tables) {
            n += emulator.rowCount(BenchTables.DATABASE, table);
        }
        return n;
    }
}
