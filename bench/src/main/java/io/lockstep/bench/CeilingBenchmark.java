package io.lockstep.bench;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The ceiling: the emulator's raw ingest of pre-serialized JSON bodies over loopback HTTP, through the same
 * transaction client but without the engine: one multi-table transaction per commit interval (begin, loads, commit),
 * {@code concurrency} threads each loading its own tables back to back (one load in flight per table, as the engine
 * does), bodies of the size the engine sent. The bodies are built before the clock starts.
 */
final class CeilingBenchmark {
    private static final Map<String, String> JSON = Map.of("format", "json", "strip_outer_array", "true",
            "ignore_json_size", "true");

    private CeilingBenchmark() {
    }

    /**
     * @param bodyBytes   target body size (the engine's average load), bytes
     * @param concurrency loads in flight at once (the engine's: min(tables, ioThreads))
     * @throws IllegalStateException if the emulator did not count every row
     */
    static Figures run(String name, StarRocksEmulator emulator, List<String> tables, RowPool pool, long bodyBytes,
                       int concurrency, long durationMs, long commitIntervalMs) throws Exception {
        List<Body> bodies = bodies(pool, Math.max(bodyBytes, pool.averageBytes()), 8);
        long before = EngineScenario.storedRows(emulator, tables);
        ExecutorService threads = Executors.newFixedThreadPool(concurrency);
        long rows = 0;
        long bytes = 0;
        long loads = 0;
        long requests = 0;
        long start;
        long end;
        ProcessCpu.Sample cpu;
        try (TransactionClient client = new StarRocksTransactionClient(
                EngineScenario.clientConfig(emulator.feUrl()), LoadMetrics.noop())) {
            ProcessCpu.Sample cpuStart = ProcessCpu.sample();
            start = System.nanoTime();
            long deadline = start + durationMs * 1_000_000L;
            for (int cycle = 0; System.nanoTime() < deadline; cycle++) {
                TransactionRef txn = TransactionRef.multiTable(BenchTables.DATABASE, "ceiling_" + start + "_" + cycle);
                client.begin(txn, 600);
                long cycleEnd = Math.min(deadline, System.nanoTime() + commitIntervalMs * 1_000_000L);
                List<Future<long[]>> sent = new ArrayList<>();
                for (int t = 0; t < concurrency; t++) {
                    int first = t;
                    sent.add(threads.submit(() -> loadUntil(client, txn, tables, first, concurrency, bodies,
                            cycleEnd)));
                }
                for (Future<long[]> f : sent) {
                    long[] done = f.get();
                    loads += done[0];
                    rows += done[1];
                    bytes += done[2];
                }
                client.commit(txn);
                requests += 2;
            }
            end = System.nanoTime();
            cpu = ProcessCpu.sample().minus(cpuStart);
        } finally {
            threads.shutdownNow();
        }
        long stored = EngineScenario.storedRows(emulator, tables) - before;
        if (stored != rows) {
            throw new IllegalStateException(name + ": sent " + rows + " rows, the emulator stored " + stored);
        }
        return new Figures(name, rows, bytes, (end - start) / 1e9, 0, requests + loads, loads, cpu);
    }

    /** One thread: loads bodies into tables first, first + step, ... in turn until {@code endNanos}. */
    private static long[] loadUntil(TransactionClient client, TransactionRef txn, List<String> tables, int first,
                                    int step, List<Body> bodies, long endNanos) throws Exception {
        long loads = 0;
        long rows = 0;
        long bytes = 0;
        int table = first;
        int body = first;
        do {
            if (table < tables.size()) {
                Body b = bodies.get(body++ % bodies.size());
                client.load(txn, tables.get(table), b.json(), JSON);
                loads++;
                rows += b.rows();
                bytes += b.rowBytes();
            }
            table += step;
            if (table >= tables.size()) {
                table = first;
            }
        } while (System.nanoTime() < endNanos);
        return new long[] {loads, rows, bytes};
    }

    private static List<Body> bodies(RowPool pool, long bodyBytes, int count) {
        List<Body> bodies = new ArrayList<>(count);
        long n = 0;
        for (int i = 0; i < count; i++) {
            StringBuilder json = new StringBuilder((int) bodyBytes + 4096).append('[');
            long rowBytes = 0;
            int rows = 0;
            while (rowBytes < bodyBytes) {
                if (rows > 0) {
                    json.append(',');
                }
                byte[] row = pool.get(n++);
                json.append(new String(row, StandardCharsets.UTF_8));
                rowBytes += row.length;
                rows++;
            }
            json.append(']');
            bodies.add(new Body(json.toString().getBytes(StandardCharsets.UTF_8), rows, rowBytes));
        }
        return bodies;
    }

    private record Body(byte[] json, int rows, long rowBytes) {
    }
}
