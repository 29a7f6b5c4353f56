package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.emulator.SrHttp.Resp;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The StarRocks HTTP SQL API (StarRocks ≥ 3.2), pinned to its public description: StarRocks docs
 * {@code docs/en/sql-reference/http_sql_api.md} (request line, Basic auth, body {@code {"query": ...}},
 * newline-delimited JSON reply: {@code connectionId}, {@code meta}, {@code data} per row, {@code statistics}; failures
 * as {@code {"status":"FAILED","msg":...}}) and the FE source {@code
 * fe/fe-core/src/main/java/com/starrocks/http/rest/ExecuteSqlAction.java} (status codes: 400 for a bad body, several
 * statements or a statement it does not run, 400 for a catalog other than {@code default_catalog}, 403 when the
 * database cannot be set, 500 when the query fails; content type {@code application/x-ndjson; charset=utf-8}). SHOW,
 * DESC, EXPLAIN and information-schema queries answer what the query port answers, in the shapes of the FE's
 * {@code http/JsonSerializer.java} (one SHOW object with {@code meta}, {@code data} rows as objects, {@code statistics})
 * and {@code http/HttpResultSender.java} ({@code {"explain": ..}}).
 */
class HttpSqlApiConformanceTest {
    private static final String SQL = "/api/v1/catalogs/default_catalog/databases/shop/sql";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(TestSchema.DDL));

    static SrHttp http;

    @BeforeAll
    static void client() {
        http = new SrHttp(SR.emulator().feUrl());
        http.txn("begin", Map.of("label", "sql-1", "db", "shop", "table", "orders"));
        http.txn("load", Map.of("label", "sql-1", "db", "shop", "table", "orders", "format", "json",
                "strip_outer_array", "true"), "[{\"order_id\":1,\"status\":\"new\",\"total\":10.5},"
                + "{\"order_id\":2,\"status\":null,\"total\":20}]");
        http.txn("commit", Map.of("label", "sql-1", "db", "shop", "table", "orders"));
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    private static Resp sql(String path, String body) {
        return http.send("POST", path, Map.of("Content-Type", "application/json"), body, false);
    }

    private static List<JsonNode> lines(Resp r) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            if (!line.isBlank()) {
                lines.add(JSON.readTree(line));
            }
        }
        return lines;
    }

    @Test
    void aSelectAnswersNewlineDelimitedJsonInTheDocumentedOrder() throws Exception {
        Resp r = sql(SQL, "{\"query\": \"SELECT order_id, status, total FROM orders ORDER BY order_id;\"}");

        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().get("content-type")).startsWith("application/x-ndjson");
        assertThat(r.headers()).containsKey("x-starrocks-query-id");
        assertThat(r.body()).as("one JSON object per line").doesNotContain("\n\n").endsWith("\n");
        List<JsonNode> lines = lines(r);
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0).fieldNames()).toIterable().containsExactly("connectionId");
        assertThat(lines.get(0).get("connectionId").isIntegralNumber()).isTrue();
        assertThat(lines.get(1).get("meta").toString()).isEqualTo("[{\"name\":\"order_id\",\"type\":\"bigint(20)\"},"
                + "{\"name\":\"status\",\"type\":\"varchar\"},{\"name\":\"total\",\"type\":\"decimal64(12, 2)\"}]");
        assertThat(lines.get(2).toString()).isEqualTo("{\"data\":[1,\"new\",\"10.50\"]}");
        assertThat(lines.get(3).toString()).isEqualTo("{\"data\":[2,null,\"20.00\"]}");
        assertThat(lines.get(4).get("statistics").get("returnRows").asInt()).isEqualTo(2);
        assertThat(lines.get(4).get("statistics").has("scanRows")).isTrue();
        assertThat(lines.get(4).get("statistics").has("scanBytes")).isTrue();
    }

    @Test
    void qualifiedNamesWorkWithoutADatabaseInThePath() throws Exception {
        Resp r = sql("/api/v1/catalogs/default_catalog/sql", "{\"query\": \"SELECT COUNT(*) AS n FROM shop.orders WHERE order_id < 100\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(lines(r).get(2).toString()).isEqualTo("{\"data\":[2]}");
    }

    @Test
    void failuresBeforeAnyDataCarryTheirStatusCodeAndAFailedBody() throws Exception {
        assertFailed(sql(SQL, "{\"query\": \"DELETE FROM orders\"}"), 400, "only support SELECT");
        assertFailed(sql(SQL, "{\"query\": \"SELECT 1; SELECT 2\"}"), 400, "does not support execute multiple query");
        assertFailed(sql(SQL, "{\"query\": \"  \"}"), 400, "query can not be empty");
        assertFailed(sql(SQL, "not json"), 400, "malformed json");
        assertFailed(sql("/api/v1/catalogs/hive/databases/shop/sql", "{\"query\": \"SELECT 1\"}"), 400,
                "only support default_catalog right now");
        assertFailed(sql("/api/v1/catalogs/default_catalog/databases/nodb/sql", "{\"query\": \"SELECT 1\"}"), 403,
                "set catalog or db failed");
        assertFailed(sql(SQL, "{\"query\": \"SELECT * FROM no_such_table\"}"), 500, "no_such_table");
    }

    @Test
    void basicAuthIsRequired() throws Exception {
        try (SrHttp anonymous = new SrHttp(SR.emulator().feUrl()).withoutAuth()) {
            Resp r = anonymous.send("POST", SQL, Map.of(), "{\"query\": \"SELECT 1\"}", false);
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.headers().get("www-authenticate")).isEqualTo("Basic realm=\"\"");
        }
    }

    @Test
    void aLaggingFollowerAnswersWhatTheSameQueryAnsweredBefore() throws Exception {
        String count = "{\"query\": \"SELECT COUNT(*) FROM orders WHERE order_id >= 100\"}";
        assertThat(lines(sql(SQL, count)).get(2).toString()).isEqualTo("{\"data\":[0]}");
        http.txn("begin", Map.of("label", "sql-2", "db", "shop", "table", "orders"));
        http.txn("load", Map.of("label", "sql-2", "db", "shop", "table", "orders", "format", "json",
                "strip_outer_array", "true"), "[{\"order_id\":100,\"status\":\"new\",\"total\":1}]");
        http.txn("commit", Map.of("label", "sql-2", "db", "shop", "table", "orders"));

        SR.emulator().sql().answerStale(1);
        assertThat(lines(sql(SQL, count)).get(2).toString()).as("stale").isEqualTo("{\"data\":[0]}");
        assertThat(lines(sql(SQL, count)).get(2).toString()).as("caught up").isEqualTo("{\"data\":[1]}");
    }

    @Test
    void showColumnsAndInformationSchemaAnswerWhatTheQueryPortAnswers() throws Exception {
        String columns = "SHOW FULL COLUMNS FROM shop.orders";
        String schema = "SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_KEY, NUMERIC_SCALE FROM "
                + "information_schema.columns WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'orders' "
                + "ORDER BY ORDINAL_POSITION";
        List<List<String>> portColumns;
        List<List<String>> portSchema;
        List<String> portLabels;
        try (Connection c = InformationSchemaConformanceTestSupport.connect(SR, "shop");
                Statement s = c.createStatement()) {
            ShowStatementsConformanceTest.Result shown = ShowStatementsConformanceTest.run(s, columns);
            portLabels = shown.columns();
            portColumns = shown.rows();
            portSchema = ShowStatementsConformanceTest.run(s, schema).rows();
        }

        Resp show = sql(SQL, "{\"query\": \"" + columns + ";\"}");
        assertThat(show.status()).as(show.body()).isEqualTo(200);
        assertThat(show.headers().get("content-type")).startsWith("application/x-ndjson");
        JsonNode reply = JSON.readTree(show.body());
        assertThat(reply.fieldNames()).toIterable().containsExactly("meta", "data", "statistics");
        List<String> labels = new ArrayList<>();
        reply.get("meta").forEach(m -> labels.add(m.get("name").asText()));
        assertThat(labels).isEqualTo(portLabels);
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode row : reply.get("data")) {
            List<String> values = new ArrayList<>();
            labels.forEach(label -> values.add(row.get(label).isNull() ? null : row.get(label).asText()));
            rows.add(values);
        }
        assertThat(rows).isEqualTo(portColumns);
        assertThat(rows.get(0).subList(0, 5)).containsExactly("order_id", "bigint(20)", "", "NO", "YES");
        assertThat(reply.get("statistics").get("returnRows").asInt()).isEqualTo(3);

        List<JsonNode> selected = lines(sql(SQL, "{\"query\": \"" + schema + "\"}"));
        List<List<String>> schemaRows = new ArrayList<>();
        for (JsonNode line : selected.subList(2, selected.size() - 1)) {
            List<String> values = new ArrayList<>();
            line.get("data").forEach(v -> values.add(v.isNull() ? null : v.asText()));
            schemaRows.add(values);
        }
        assertThat(schemaRows).as("information_schema, not the storage engine's").isEqualTo(portSchema)
                .contains(List.of("total", "decimal(12,2)", "YES", "", "2"));
    }

    @Test
    void explainAnswersThePlanAsOneObject() throws Exception {
        Resp r = sql(SQL, "{\"query\": \"EXPLAIN SELECT order_id FROM orders\"}");

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().fieldNames()).toIterable().containsExactly("explain");
        assertThat(r.json().get("explain").asText()).startsWith("PLAN FRAGMENT 0").contains("order_id");
        assertFailed(sql(SQL, "{\"query\": \"SHOW COLUMNS FROM no_such_table\"}"), 500, "no_such_table");
    }

    private static void assertFailed(Resp r, int status, String msgPart) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(r.json().get("msg").asText()).contains(msgPart);
    }
}
