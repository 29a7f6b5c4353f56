package io.lockstep.core.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.label.RunId;
import io.lockstep.core.restart.ProgressOpening;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.time.Ticker;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.storage.QueryResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture of the multi-table exactly-once mode against the emulator: the shop schema (a PRIMARY KEY
 * {@code orders} table and a DUPLICATE KEY {@code order_log}, where any replayed source transaction shows as a
 * duplicate), the progress table, and one "run" of a sink subtask (client, settle and read, engine, position gate).
 * Source transaction {@code n} writes order {@code n} and one log row on source partition {@code n % 2} of source
 * {@code orders-topic} at position {@code n}.
 */
final class EoShop {
    static final String SOURCE = "orders-topic";
    static final String JOB = "job-1";
    static final ProgressTable PROGRESS = new ProgressTable("shop", ProgressTable.DEFAULT_NAME);
    static final String DDL = """
            CREATE DATABASE shop;
            CREATE TABLE shop.orders (
              order_id BIGINT NOT NULL,
              version INT
            ) PRIMARY KEY (order_id)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1;
            CREATE TABLE shop.order_log (
              order_id BIGINT NOT NULL,
              note VARCHAR(32)
            ) DUPLICATE KEY (order_id)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1;
            """ + PROGRESS.createTableSql();

    private EoShop() {
    }

    /** One run of a sink subtask. */
    static final class Run implements AutoCloseable {
        final StarRocksTransactionClient client;
        final StarRocksSqlClient sql;
        final MultiTableLoadEngine engine;
        final PositionGate gate;
        final String runId;
        final ProgressOpening.Result opened;

        private Run(StarRocksTransactionClient client, StarRocksSqlClient sql, MultiTableLoadEngine engine,
                    PositionGate gate, String runId, ProgressOpening.Result opened) {
            this.client = client;
            this.sql = sql;
            this.engine = engine;
            this.gate = gate;
            this.runId = runId;
            this.opened = opened;
        }

        /** Writes source transactions {@code from..to-1}; dropped ones never reach the engine. */
        void write(int from, int to) throws InterruptedException {
            for (int n = from; n < to; n++) {
                int partition = n % 2;
                if (gate.admit(SOURCE, partition, n, false, () -> "orders") == PositionGate.Decision.DROP) {
                    gate.admit(SOURCE, partition, n, true, () -> "order_log");
                    continue;
                }
                engine.write(partition, "shop", "orders", json("{\"order_id\":" + n + ",\"version\":1}"));
                gate.admit(SOURCE, partition, n, true, () -> "order_log");
                engine.write(partition, "shop", "order_log", json("{\"order_id\":" + n + ",\"note\":\"" + runId
                        + "\"}"));
                engine.txnEnd(partition, new SourcePartition(SOURCE, partition), n, null);
            }
        }

        /**
         * A process kill: the HTTP client goes away first, so nothing this run holds open can be rolled back, then
         * the engine's threads stop.
         */
        void kill() {
            client.close();
            sql.close();
            engine.close();
        }

        @Override
        public void close() {
            engine.close();
            client.close();
            sql.close();
        }
    }

    static TransactionClientConfig clientConfig(StarRocksEmulator sr) {
        return TransactionClientConfig.builder().loadUrls(sr.feUrl()).username("root").password("").maxRetries(5)
                .retryBackoff(1, 5).build();
    }

    /**
     * Opens a run: settle and read through {@link ProgressOpening}, then an engine with progress settings.
     *
     * @param attemptKey 10 characters of [0-9a-z]; a new one = a new attempt (siblings share one)
     */
    static Run open(StarRocksEmulator sr, String attemptKey, int subtask, long commitIntervalMs, long graceMs,
                    Ticker ticker, InMemoryLoadMetrics metrics) throws Exception {
        String runId = RunId.ofAttempt(attemptKey);
        StarRocksTransactionClient client = new StarRocksTransactionClient(clientConfig(sr), metrics);
        StarRocksSqlClient sql = new StarRocksSqlClient(clientConfig(sr), metrics);
        ProgressOpening.Result opened;
        try {
            opened = new ProgressOpening(client, new ProgressStore(sql, PROGRESS),
                    new ProgressOpening.Params(JOB, "eo", subtask, runId, 600, ProgressTable.LOAD_PROPERTIES, graceMs,
                            10_000, 2_000), ticker, metrics).open();
        } catch (Exception e) {
            client.close();
            sql.close();
            throw e;
        }
        MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().minLoadRowBytes(0).labelPrefix("eo")
                .subtaskIndex(subtask).runId(runId).commitIntervalMs(commitIntervalMs).scanningFrequencyMs(5)
                .progress(new ProgressSettings(JOB, PROGRESS).forShape(opened.positions().tableShape())).build(), client,
                metrics);
        return new Run(client, sql, engine, new PositionGate(opened.positions(), metrics), runId, opened);
    }

    /** Asserts orders {@code 0..count-1} exactly once in both tables: no loss, no duplicate log row. */
    static void assertExactlyOnce(StarRocksEmulator sr, int count) {
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            expected.add(String.valueOf(n));
        }
        assertThat(column(sr.query("SELECT order_id FROM shop.orders ORDER BY order_id")))
                .as("orders (PRIMARY KEY)").isEqualTo(expected);
        assertThat(column(sr.query("SELECT order_id FROM shop.order_log ORDER BY order_id")))
                .as("order_log (DUPLICATE KEY): a replayed source transaction would show twice").isEqualTo(expected);
    }

    /** The committed position of a partition as the progress table shows it now. */
    static long committed(StarRocksEmulator sr, int partition) {
        QueryResult r = sr.query("SELECT position FROM shop.lockstep_progress WHERE job_id = '" + JOB
                + "' AND source = '" + SOURCE + "' AND source_partition = " + partition);
        return r.rows().isEmpty() ? -1 : ((Number) r.rows().get(0).get(0)).longValue();
    }

    private static List<String> column(QueryResult r) {
        List<String> values = new ArrayList<>();
        for (List<Object> row : r.rows()) {
            values.add(String.valueOf(row.get(0)));
        }
        return values;
    }

    static byte[] json(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
