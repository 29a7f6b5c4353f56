package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.flink.sink.v2.SinkV2Jobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SQL sink ({@code 'connector' = 'starrocks'}) end to end on a MiniCluster against the emulator: every supported
 * type arrives value by value, a retracting GROUP BY ends in the right rows of a PRIMARY KEY table, exactly-once
 * survives a task failure without duplicates, and a misspelt option is refused with a suggestion. The same source
 * runs on Flink 1.20 and 2.x.
 */
class TableSinkIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE sq;"
                    + "CREATE TABLE sq.all_types (id BIGINT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, "
                    + "bi BIGINT, f FLOAT, d DOUBLE, dc DECIMAL(20,4), s STRING, c CHAR(3), dt DATE, ts DATETIME, "
                    + "ts6 DATETIME, arr JSON, m JSON, r JSON, bin STRING) PRIMARY KEY (id);"
                    + "CREATE TABLE sq.cnt (cnt BIGINT NOT NULL, n BIGINT) PRIMARY KEY (cnt);"
                    + "CREATE TABLE sq.cnt_partial (cnt BIGINT NOT NULL, n BIGINT, note VARCHAR(8)) PRIMARY KEY (cnt);"
                    + "CREATE TABLE sq.events (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id);"));

    private String with(String table, String semantic, String prefix) {
        return with(table, semantic, prefix, "");
    }

    /** @param more further options, each {@code , 'key' = 'value'} */
    private String with(String table, String semantic, String prefix, String more) {
        return " WITH ('connector' = 'starrocks', 'load-url' = '" + sr.emulator().feUrl().replace("http://", "")
                + "', 'database-name' = 'sq', 'table-name' = '" + table + "', 'username' = 'root', "
                + "'password' = '', 'sink.semantic' = '" + semantic + "', 'sink.label-prefix' = '" + prefix + "', "
                + "'sink.buffer-flush.interval-ms' = '300', 'sink.retry.interval-ms' = '100'" + more + ")";
    }

    private static List<String> row(List<Object> values) {
        List<String> text = new ArrayList<>();
        values.forEach(v -> text.add(String.valueOf(v)));
        return text;
    }

    /** JSON bodies (the SQL default), and CSV records in LZ4 frames (docs/sinks.md#load-formats, #compression). */
    @ParameterizedTest(name = "[{index}] options{0}")
    @ValueSource(strings = {"", ", 'sink.properties.format' = 'csv', 'sink.properties.compression' = 'lz4_frame'"})
    void everySupportedTypeArrivesValueByValue(String format) throws Exception {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(SinkV2Jobs.env(200, 0));
        tEnv.executeSql("CREATE TABLE sr_sink (id BIGINT, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, "
                + "f FLOAT, d DOUBLE, dc DECIMAL(20, 4), s STRING, c CHAR(3), dt DATE, ts TIMESTAMP(3), "
                + "ts6 TIMESTAMP(6), arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<a INT, b STRING>, bin BYTES, "
                + "PRIMARY KEY (id) NOT ENFORCED)" + with("all_types", "at-least-once", "sqltypes", format));

        tEnv.executeSql("INSERT INTO sr_sink SELECT * FROM (VALUES "
                + "(CAST(1 AS BIGINT), TRUE, CAST(-7 AS TINYINT), CAST(300 AS SMALLINT), 70000, "
                + "CAST(9000000000 AS BIGINT), CAST(1.5 AS FLOAT), CAST(2.25 AS DOUBLE), "
                + "CAST(12345.6789 AS DECIMAL(20, 4)), 'h\u00e9llo \"q\"', CAST('abc' AS CHAR(3)), DATE '2024-02-29', "
                + "CAST('2024-02-29 12:34:56.789' AS TIMESTAMP(3)), "
                + "CAST('2024-02-29 12:34:56.123456' AS TIMESTAMP(6)), ARRAY[1, 2, 3], MAP['k1', 1, 'k2', 2], "
                + "ROW(5, 'x'), X'0102FF'), "
                + "(CAST(2 AS BIGINT), CAST(NULL AS BOOLEAN), CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), "
                + "CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE), "
                + "CAST(NULL AS DECIMAL(20, 4)), CAST(NULL AS STRING), CAST(NULL AS CHAR(3)), CAST(NULL AS DATE), "
                + "CAST(NULL AS TIMESTAMP(3)), CAST(NULL AS TIMESTAMP(6)), CAST(NULL AS ARRAY<INT>), "
                + "CAST(NULL AS MAP<STRING, INT>), CAST(NULL AS ROW<a INT, b STRING>), CAST(NULL AS BYTES))"
                + ") AS t(id, b, ti, si, i, bi, f, d, dc, s, c, dt, ts, ts6, arr, m, r, bin)").await();

        List<List<Object>> rows = sr.emulator().query("SELECT id, b, ti, si, i, bi, f, d, dc, s, c, dt, ts, ts6, "
                + "arr, m, r, bin FROM sq.all_types ORDER BY id").rows();
        assertThat(rows).hasSize(2);
        List<Object> full = rows.get(0);
        assertThat(row(full.subList(0, 14))).containsExactly("1", "true", "-7", "300", "70000", "9000000000", "1.5",
                "2.25", "12345.6789", "h\u00e9llo \"q\"", "abc", "2024-02-29", "2024-02-29T12:34:56.789",
                "2024-02-29T12:34:56.123456");
        assertThat(JSON.readTree(String.valueOf(full.get(14)))).isEqualTo(JSON.readTree("[1,2,3]"));
        assertThat(JSON.readTree(String.valueOf(full.get(15)))).isEqualTo(JSON.readTree("{\"k1\":1,\"k2\":2}"));
        assertThat(JSON.readTree(String.valueOf(full.get(16)))).isEqualTo(JSON.readTree("{\"a\":5,\"b\":\"x\"}"));
        assertThat(java.util.Base64.getDecoder().decode(String.valueOf(full.get(17))))
                .containsExactly(1, 2, 0xFF);
        assertThat(rows.get(1).get(0)).isEqualTo(2L);
        assertThat(rows.get(1).subList(1, 18)).as("NULLs stay NULL").containsOnlyNulls();
    }

    @Test
    void aRetractingGroupByEndsInTheRightRowsOfAPrimaryKeyTable() throws Exception {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(SinkV2Jobs.env(200, 0));
        tEnv.executeSql("CREATE TABLE cnt_sink (cnt BIGINT, n BIGINT, PRIMARY KEY (cnt) NOT ENFORCED)"
                + with("cnt", "at-least-once", "sqlcnt"));
        tEnv.executeSql("CREATE TEMPORARY VIEW words AS SELECT * FROM (VALUES ('a'), ('a'), ('b'), ('b'), ('b'), "
                + "('d'), ('d'), ('d')) AS t(w)");

        // per word: a=2, b=3, d=3; the count-1 bucket is emptied three times, last by d's second row, so it must
        // end deleted (a dropped DELETE would leave 1 -> 1 behind)
        tEnv.executeSql("INSERT INTO cnt_sink SELECT cnt, COUNT(*) FROM (SELECT w, COUNT(*) AS cnt FROM words "
                + "GROUP BY w) GROUP BY cnt").await();

        Map<Long, Long> counts = new TreeMap<>();
        sr.emulator().query("SELECT cnt, n FROM sq.cnt").rows()
                .forEach(r -> counts.put(((Number) r.get(0)).longValue(), ((Number) r.get(1)).longValue()));
        assertThat(counts).isEqualTo(Map.of(2L, 1L, 3L, 2L));
    }

    /**
     * A partial update configured as for the official connector ({@code columns} naming the table's columns only):
     * the sink adds {@code __op} to the declared columns, so the deletes of a retracting query still delete.
     */
    @Test
    void aPartialUpdateDeclaringOnlyTheTableColumnsStillDeletes() throws Exception {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(SinkV2Jobs.env(200, 0));
        tEnv.executeSql("CREATE TABLE cnt_partial_sink (cnt BIGINT, n BIGINT, PRIMARY KEY (cnt) NOT ENFORCED)"
                + with("cnt_partial", "at-least-once", "sqlpartial", ", 'sink.properties.partial_update' = 'true', "
                        + "'sink.properties.columns' = 'cnt, n'"));
        tEnv.executeSql("CREATE TEMPORARY VIEW words AS SELECT * FROM (VALUES ('a'), ('a'), ('b'), ('b'), ('b'), "
                + "('d'), ('d'), ('d')) AS t(w)");

        tEnv.executeSql("INSERT INTO cnt_partial_sink SELECT cnt, COUNT(*) FROM (SELECT w, COUNT(*) AS cnt FROM words "
                + "GROUP BY w) GROUP BY cnt").await();

        Map<Long, Long> counts = new TreeMap<>();
        sr.emulator().query("SELECT cnt, n FROM sq.cnt_partial").rows()
                .forEach(r -> counts.put(((Number) r.get(0)).longValue(), ((Number) r.get(1)).longValue()));
        assertThat(counts).isEqualTo(Map.of(2L, 1L, 3L, 2L));
    }

    @Test
    void theDorisConnectorDeletesThroughTheDeleteSignOfAUniqueKeyTable() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().ddl("CREATE DATABASE d; CREATE TABLE d.cnt (cnt BIGINT "
                + "NOT NULL, n BIGINT) UNIQUE KEY(cnt) DISTRIBUTED BY HASH(cnt) BUCKETS 1").build().start()) {
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(SinkV2Jobs.env(200, 0));
            tEnv.executeSql("CREATE TABLE cnt_sink (cnt BIGINT, n BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ("
                    + "'connector' = 'doris', 'fenodes' = '" + doris.feHostPort() + "', 'table.identifier' = 'd.cnt', "
                    + "'username' = 'root', 'password' = '', 'sink.enable-2pc' = 'true', "
                    + "'sink.label-prefix' = 'sqldoris', 'sink.retry.interval-ms' = '100')");
            tEnv.executeSql("CREATE TEMPORARY VIEW words AS SELECT * FROM (VALUES ('a'), ('a'), ('b'), ('b'), "
                    + "('b'), ('d'), ('d'), ('d')) AS t(w)");

            tEnv.executeSql("INSERT INTO cnt_sink SELECT cnt, COUNT(*) FROM (SELECT w, COUNT(*) AS cnt FROM words "
                    + "GROUP BY w) GROUP BY cnt").await();

            Map<Long, Long> counts = new TreeMap<>();
            doris.query("SELECT cnt, n FROM d.cnt").rows()
                    .forEach(r -> counts.put(((Number) r.get(0)).longValue(), ((Number) r.get(1)).longValue()));
            assertThat(counts).as("the count-1 row ends deleted").isEqualTo(Map.of(2L, 1L, 3L, 2L));
        }
    }

    @Test
    void aTableWithoutPrimaryKeyRefusesAnUpdatingQuery() {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(SinkV2Jobs.env(200, 0));
        tEnv.executeSql("CREATE TABLE append_sink (cnt BIGINT, n BIGINT)" + with("cnt", "at-least-once", "sqlapp"));
        tEnv.executeSql("CREATE TEMPORARY VIEW words AS SELECT * FROM (VALUES ('a'), ('a')) AS t(w)");

        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO append_sink SELECT COUNT(*), COUNT(*) FROM words"))
                .hasMessageContaining("doesn't support consuming update");
    }

    @Test
    void aMisspeltOptionIsRefusedWithASuggestion() {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(SinkV2Jobs.env(200, 0));
        tEnv.executeSql("CREATE TABLE typo_sink (id BIGINT) WITH ('connector' = 'starrocks', 'load-url' = "
                + "'127.0.0.1:1', 'database-name' = 'sq', 'table-name' = 'events', 'username' = 'root', "
                + "'sink.paralelism' = '2')");

        assertThatThrownBy(() -> tEnv.executeSql("INSERT INTO typo_sink VALUES (CAST(1 AS BIGINT))"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("Unknown table option 'sink.paralelism'; did you mean 'sink.parallelism'?"));
    }

    /** Long n → Row(id = n, note = "n" + n); fails the task once mid-stream (see {@link SinkV2Jobs#failNow}). */
    static final class FailingRows implements MapFunction<Long, Row>, CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final String key;
        private final long failAt;

        FailingRows(String key, long failAt) {
            this.key = key;
            this.failAt = failAt;
        }

        @Override
        public Row map(Long n) {
            if (SinkV2Jobs.failNow(key, n, failAt)) {
                throw new IllegalStateException("injected task failure at row " + n);
            }
            return Row.of(n, "n" + n);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            SinkV2Jobs.checkpointCompleted(key);
        }
    }

    @Test
    void exactlyOnceSqlLoadsEveryRowOnceAcrossATaskFailure() throws Exception {
        String key = "sql-eo";
        SinkV2Jobs.reset(key);
        StreamExecutionEnvironment env = SinkV2Jobs.env(200, 3);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        DataStream<Row> rows = SinkV2Jobs.numbers(env, 200, 20).map(new FailingRows(key, 110))
                .returns(Types.ROW_NAMED(new String[] {"id", "note"}, Types.LONG, Types.STRING)).setParallelism(1);
        tEnv.createTemporaryView("src", tEnv.fromDataStream(rows));
        tEnv.executeSql("CREATE TABLE eo_sink (id BIGINT, note STRING)" + with("events", "exactly-once", "sqleo"));

        tEnv.executeSql("INSERT INTO eo_sink SELECT id, note FROM src").await();

        assertThat(SinkV2Jobs.FAILURES.get(key).get()).as("the failure was injected").isEqualTo(1);
        Map<Long, Long> counts = new TreeMap<>();
        sr.emulator().query("SELECT id, COUNT(*) FROM sq.events GROUP BY id").rows()
                .forEach(r -> counts.put(((Number) r.get(0)).longValue(), ((Number) r.get(1)).longValue()));
        Map<Long, Long> expected = new TreeMap<>();
        for (long id = 0; id < 200; id++) {
            expected.put(id, 1L);
        }
        assertThat(counts).isEqualTo(expected);
    }
}
