package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.emulator.SrHttp.Resp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The StarRocks HTTP SQL API (StarRocks ≥ 3.2), SELECT only, pinned to its public description: StarRocks docs
 * {@code docs/en/sql-reference/http_sql_api.md} (request line, Basic auth, body {@code {"query": ...}},
 * newline-delimited JSON reply: {@code connectionId}, {@code meta}, {@code data} per row, {@code statistics}; failures
 * as {@code {"status":"FAILED","msg":...}}) and the FE source {@code
 * fe/fe-core/src/main/java/com/starrocks/http/rest/ExecuteSqlAction.java} (status codes: 400 for a bad body, several
 * statements or a statement it does not run, 400 for a catalog other than {@code default_catalog}, 403 when the
 * database cannot be set, 500 when the query fails; content type {@code application/x-ndjson; charset=utf-8}).
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

    private static void assertFailed(Resp r, int status, String msgPart) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(r.json().get("msg").asText()).contains(msgPart);
    }
}
