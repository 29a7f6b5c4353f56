package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.flink.sink.v2.SinkV2Jobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SQL sink's table ends equal to the query's result, for the changelogs in which Flink's planner sends an
 * UPDATE_BEFORE without the UPDATE_AFTER of its key (docs/sql.md, Changelog): the truth is the same SELECT run through
 * Flink's own {@code collect()} and its changelog applied row by row; the table is read back from the emulator. Runs
 * on Flink 1.20 (this module) and 2.2 (lockstep-flink-2.2 compiles the same source).
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
class ChangelogSemanticsIT {
    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE cs;"
                    + "CREATE TABLE cs.singles (k VARCHAR(10) NOT NULL, cnt BIGINT) PRIMARY KEY (k);"
                    + "CREATE TABLE cs.open_totals (id INT NOT NULL, total INT) PRIMARY KEY (id);"
                    + "CREATE TABLE cs.top_words (rn BIGINT NOT NULL, w VARCHAR(10), cnt BIGINT) PRIMARY KEY (rn);"));

    /** Words a..f, then a, b, c once more: counts a=b=c=2, d=e=f=1. */
    private static final String WORDS = "CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES ('a'), ('b'), ('c'), "
            + "('d'), ('e'), ('f'), ('a'), ('b'), ('c')) AS t(k)";
    private static final String SINGLES = "SELECT k, cnt FROM (SELECT k, COUNT(*) AS cnt FROM src GROUP BY k) "
            + "WHERE cnt = 1";

    private String starRocks(String table) {
        return " WITH ('connector' = 'starrocks', 'load-url' = '" + sr.emulator().feUrl().replace("http://", "")
                + "', 'database-name' = 'cs', 'table-name' = '" + table + "', 'username' = 'root', "
                + "'password' = '', 'sink.semantic' = 'at-least-once', 'sink.label-prefix' = 'cs" + table.length()
                + "', 'sink.buffer-flush.interval-ms' = '300', 'sink.retry.interval-ms' = '100')";
    }

    private static StreamTableEnvironment tableEnv() {
        return StreamTableEnvironment.create(SinkV2Jobs.env(200, 0));
    }

    /**
     * The final result of {@code select} by Flink's own {@code collect()}: its changelog applied in order, keyed by
     * the first {@code keyColumns} columns; every value as text.
     */
    private static Map<String, List<String>> collected(StreamTableEnvironment tEnv, String select, int keyColumns)
            throws Exception {
        Map<String, List<String>> result = new TreeMap<>();
        try (CloseableIterator<Row> rows = tEnv.executeSql(select).collect()) {
            while (rows.hasNext()) {
                Row row = rows.next();
                List<String> values = new ArrayList<>();
                for (int i = 0; i < row.getArity(); i++) {
                    values.add(String.valueOf(row.getField(i)));
                }
                String key = String.join("|", values.subList(0, keyColumns));
                switch (row.getKind()) {
                    case INSERT, UPDATE_AFTER -> result.put(key, values);
                    case UPDATE_BEFORE, DELETE -> result.remove(key);
                    default -> throw new IllegalStateException("row kind " + row.getKind());
                }
            }
        }
        return result;
    }

    private static Map<String, List<String>> loaded(List<List<Object>> tableRows, int keyColumns) {
        Map<String, List<String>> result = new TreeMap<>();
        for (List<Object> row : tableRows) {
            List<String> values = new ArrayList<>();
            row.forEach(v -> values.add(String.valueOf(v)));
            result.put(String.join("|", values.subList(0, keyColumns)), values);
        }
        return result;
    }

    @Test
    void aFilterOnAnAggregateDeletesTheKeysItRetracts() throws Exception {
        StreamTableEnvironment tEnv = tableEnv();
        tEnv.executeSql(WORDS);
        tEnv.executeSql("CREATE TABLE singles (k STRING, cnt BIGINT, PRIMARY KEY (k) NOT ENFORCED)"
                + starRocks("singles"));

        tEnv.executeSql("INSERT INTO singles " + SINGLES).await();

        Map<String, List<String>> expected = collected(tEnv, SINGLES, 1);
        assertThat(expected).as("Flink's own result").containsOnlyKeys("d", "e", "f");
        assertThat(loaded(sr.emulator().query("SELECT k, cnt FROM cs.singles").rows(), 1)).isEqualTo(expected);
    }

    @Test
    void aJoinOfARetractedRowDeletesTheJoinedRow() throws Exception {
        StreamTableEnvironment tEnv = tableEnv();
        // order 1 closes: the filter passes its UPDATE_BEFORE (1, open) only, and the join sends the retraction of
        // the joined row as an UPDATE_BEFORE (a join keeps its input's row kind) with no UPDATE_AFTER
        tEnv.executeSql("CREATE TEMPORARY VIEW orders AS SELECT id, MIN(status) AS status FROM (VALUES "
                + "(1, 'open'), (2, 'open'), (3, 'open'), (1, 'closed')) AS t(id, status) GROUP BY id");
        tEnv.executeSql("CREATE TEMPORARY VIEW payments AS SELECT order_id, SUM(amount) AS total FROM (VALUES "
                + "(1, 5), (2, 3), (1, 7), (3, 4)) AS t(order_id, amount) GROUP BY order_id");
        tEnv.executeSql("CREATE TABLE open_totals (id INT, total INT, PRIMARY KEY (id) NOT ENFORCED)"
                + starRocks("open_totals"));
        String join = "SELECT o.id, p.total FROM (SELECT id FROM orders WHERE status = 'open') o "
                + "JOIN payments p ON o.id = p.order_id";

        tEnv.executeSql("INSERT INTO open_totals " + join).await();

        Map<String, List<String>> expected = collected(tEnv, join, 1);
        assertThat(expected).as("Flink's own result").containsOnlyKeys("2", "3");
        assertThat(loaded(sr.emulator().query("SELECT id, total FROM cs.open_totals").rows(), 1))
                .isEqualTo(expected);
    }

    @Test
    void aFilterOverATopNDeletesTheRowsItRetracts() throws Exception {
        StreamTableEnvironment tEnv = tableEnv();
        tEnv.executeSql("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES ('a'), ('b'), ('c'), ('d'), ('a')) "
                + "AS t(k)");
        tEnv.executeSql("CREATE TABLE top_words (rn BIGINT, w STRING, cnt BIGINT, PRIMARY KEY (rn) NOT ENFORCED)"
                + starRocks("top_words"));
        // the two top ranks by count, each while its word was seen once: when a's count moves to 2 it takes rank 1
        // from b (the rank sends UPDATE_BEFORE (1, b, 1), UPDATE_AFTER (1, a, 2)) and the filter drops the
        // UPDATE_AFTER, so rank 1 must go
        String topN = "SELECT rn, k, cnt FROM (SELECT k, cnt, ROW_NUMBER() OVER (ORDER BY cnt DESC, k) AS rn FROM ("
                + "SELECT k, COUNT(*) AS cnt FROM src GROUP BY k)) WHERE rn <= 2 AND cnt = 1";

        tEnv.executeSql("INSERT INTO top_words " + topN).await();

        Map<String, List<String>> expected = collected(tEnv, topN, 1);
        assertThat(expected).as("Flink's own result").containsOnlyKeys("2");
        assertThat(loaded(sr.emulator().query("SELECT rn, w, cnt FROM cs.top_words").rows(), 1)).isEqualTo(expected);
    }

    @Test
    void theDorisDeleteSignGivesTheSameResult() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().ddl("CREATE DATABASE d; CREATE TABLE d.singles (k "
                + "VARCHAR(10) NOT NULL, cnt BIGINT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1").build().start()) {
            StreamTableEnvironment tEnv = tableEnv();
            tEnv.executeSql(WORDS);
            tEnv.executeSql("CREATE TABLE singles (k STRING, cnt BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ("
                    + "'connector' = 'doris', 'fenodes' = '" + doris.feHostPort() + "', 'table.identifier' = "
                    + "'d.singles', 'username' = 'root', 'password' = '', 'sink.enable-2pc' = 'true', "
                    + "'sink.label-prefix' = 'csdoris', 'sink.retry.interval-ms' = '100')");

            tEnv.executeSql("INSERT INTO singles " + SINGLES).await();

            Map<String, List<String>> expected = collected(tEnv, SINGLES, 1);
            assertThat(expected).as("Flink's own result").containsOnlyKeys("d", "e", "f");
            assertThat(loaded(doris.query("SELECT k, cnt FROM d.singles").rows(), 1)).isEqualTo(expected);
        }
    }

    @Test
    void theFoldRunsChainedToTheQuerysLastOperatorSoAPairArrivesBackToBack() {
        StreamExecutionEnvironment env = SinkV2Jobs.env(200, 0);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql(WORDS);
        tEnv.executeSql("CREATE TABLE singles (k STRING, cnt BIGINT, PRIMARY KEY (k) NOT ENFORCED)"
                + starRocks("singles"));
        StreamStatementSet statements = tEnv.createStatementSet();
        statements.addInsertSql("INSERT INTO singles " + SINGLES);
        statements.attachAsDataStream();

        List<String> tasks = new ArrayList<>();
        env.getStreamGraph().getJobGraph().getVertices().forEach(v -> tasks.add(v.getName()));

        assertThat(tasks).as("tasks of the job").anySatisfy(task -> assertThat(task)
                .contains("GroupAggregate").endsWith("-> rows of cs.singles"));
    }
}
