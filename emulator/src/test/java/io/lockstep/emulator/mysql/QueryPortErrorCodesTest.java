package io.lockstep.emulator.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.StarRocksEmulator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The error table of docs/protocol.md ("Query port: errors"), one test per row, read off the wire: the error code,
 * SQLSTATE and message StarRocks' FE sends, from StarRocks {@code fe/fe-core/src/main/java/com/starrocks/common/
 * ErrorCode.java} (ERR_BAD_DB_ERROR 5501/3F000, ERR_BAD_TABLE_ERROR 5502/42602, ERR_BAD_FIELD_ERROR 5509/42S22,
 * ERR_UNKNOWN_SYSTEM_VARIABLE 1193/HY000, ERR_NO_DB_ERROR 1046/3D000, ERR_TABLE_EXISTS_ERROR 1050/42S01,
 * ERR_DB_CREATE_EXISTS 1007/HY000, ERR_VARIABLE_IS_READONLY 1621, ERR_WRONG_TYPE_FOR_VAR 1232, ERR_UNKNOWN_TIME_ZONE
 * 1298, ERR_INSERT_COLUMN_COUNT_MISMATCH 5604/42601, ERR_AUTHENTICATION_FAIL 1045/28000) and the parser/analyzer
 * messages ({@code sql/parser/ParsingException}: 1064 "Getting syntax error ..."; {@code sql/analyzer/
 * SemanticException}: 1064 "Getting analyzing error ...", "No matching function with signature: f(types)."). Then
 * a scan of many failing statements: no reply may carry a text of the H2 engine.
 */
class QueryPortErrorCodesTest {
    private static StarRocksEmulator sr;

    @BeforeAll
    static void start() throws Exception {
        sr = StarRocksEmulator.builder().user("loader", "pw-1")
                .ddl("CREATE DATABASE shop; "
                        + "CREATE TABLE shop.orders (id BIGINT NOT NULL, status VARCHAR(8), amount DECIMAL(10, 2)) "
                        + "PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1; "
                        + "CREATE TABLE shop.events (id INT NOT NULL, v STRING) DUPLICATE KEY (id) "
                        + "DISTRIBUTED BY HASH(id) BUCKETS 1")
                .build().start();
    }

    @AfterAll
    static void stop() {
        sr.close();
    }

    static Stream<Arguments> errorTable() {
        return Stream.of(
                row("unknown database (USE)", "shop", "USE nodb", 5501, "3F000", "Unknown database 'nodb'"),
                row("unknown database (query)", "shop", "SELECT * FROM nodb.t", 5501, "3F000",
                        "Unknown database 'nodb'"),
                row("unknown table", "shop", "SELECT * FROM missing", 5502, "42602", "Unknown table 'shop.missing'"),
                row("table names are case-sensitive", "shop", "SELECT * FROM shop.ORDERS", 5502, "42602",
                        "Unknown table 'shop.ORDERS'"),
                row("unknown information_schema table", "shop", "SELECT * FROM information_schema.nosuch", 5502,
                        "42602", "Unknown table 'information_schema.nosuch'"),
                row("unknown column", "shop", "SELECT nosuch FROM orders", 5509, "42S22",
                        "Unknown column 'nosuch' in 'field list'"),
                row("syntax error", "shop", "SELECT FROM WHERE", 1064, "HY000", "Getting syntax error"),
                row("statement the port does not run", "shop", "GRANT ALL ON *.* TO x", 1064, "HY000",
                        "Getting syntax error"),
                row("no matching function", "shop", "SELECT nosuchfn(1, 'a')", 1064, "HY000",
                        "Getting analyzing error. Detail message: No matching function with signature: "
                                + "nosuchfn(tinyint(4), varchar)."),
                row("unknown variable (read)", "shop", "SELECT @@nosuch", 1193, "HY000",
                        "Unknown system variable 'nosuch'"),
                row("unknown variable (SET)", "shop", "SET nosuchvar = 1", 1193, "HY000",
                        "Unknown system variable 'nosuchvar'"),
                row("read-only variable", "shop", "SET version = 'x'", 1621, "HY000",
                        "Variable 'version' is a read only variable"),
                row("wrong type for a variable", "shop", "SET query_timeout = 'abc'", 1232, "42000",
                        "Incorrect argument type to variable 'query_timeout'"),
                row("unknown time zone", "shop", "SET time_zone = 'Mars/Base'", 1298, "HY000",
                        "Unknown or incorrect time zone: 'Mars/Base'"),
                row("no database selected", null, "SELECT * FROM orders", 1046, "3D000", "No database selected"),
                row("table exists", "shop", "CREATE TABLE orders (id INT NOT NULL) PRIMARY KEY (id)", 1050, "42S01",
                        "Table 'orders' already exists"),
                row("database exists", "shop", "CREATE DATABASE shop", 1007, "HY000",
                        "Can't create database 'shop'; database exists"),
                row("update of a non-PRIMARY KEY table", "shop", "UPDATE events SET v = 'x' WHERE id = 1", 1064,
                        "HY000", "Getting analyzing error. Detail message: does not support update"),
                row("update of a key column", "shop", "UPDATE orders SET id = 2 WHERE id = 1", 1064, "HY000",
                        "Getting analyzing error. Detail message: primary key column cannot be updated: id"),
                row("insert column count mismatch", "shop", "INSERT INTO orders (id) VALUES (1, 'x')", 5604,
                        "42601", "Inserted target column count: 1 doesn't match select/value column count: 2"),
                row("insert NULL into NOT NULL", "shop", "INSERT INTO orders (status) VALUES ('x')", 5610, "22000",
                        "Insert has filtered data : row 1: column 'id' is NOT NULL and gets NULL"));
    }

    private static Arguments row(String what, String database, String sql, int code, String state, String message) {
        return Arguments.of(what, database, sql, code, state, message);
    }

    @ParameterizedTest(name = "{0}: {3} {4}")
    @MethodSource("errorTable")
    void answersStarRocksErrorCodeAndSqlState(String what, String database, String sql, int code, String state,
                                              String message) throws Exception {
        try (RawQueryPortClient client = new RawQueryPortClient(sr.queryPort(), "loader", "pw-1", database)) {
            RawQueryPortClient.Err err = client.error(sql);
            assertThat(err.code()).as(err.toString()).isEqualTo(code);
            assertThat(err.sqlState()).as(err.toString()).isEqualTo(state);
            assertThat(err.message()).startsWith(message);
        }
    }

    @Test
    void accessDeniedIs1045With28000() {
        assertThatThrownBy(() -> new RawQueryPortClient(sr.queryPort(), "loader", "wrong", null))
                .hasMessageContaining("Err[code=1045, sqlState=28000, message=Access denied for user 'loader' "
                        + "(using password: YES)]");
    }

    /** Doris' FE keeps MySQL's numbers (Doris {@code fe/fe-core/src/main/java/org/apache/doris/common/ErrorCode.java}). */
    @Test
    void dorisModeKeepsMysqlsNumbers() throws Exception {
        try (io.lockstep.emulator.DorisEmulator doris = io.lockstep.emulator.DorisEmulator.builder()
                .ddl("CREATE DATABASE d").build().start();
             RawQueryPortClient client = new RawQueryPortClient(doris.queryPort(), "root", "", "d")) {
            assertThat(client.error("USE nodb")).isEqualTo(new RawQueryPortClient.Err(1049, "42000",
                    "Unknown database 'nodb'"));
            assertThat(client.error("SELECT * FROM missing")).isEqualTo(new RawQueryPortClient.Err(1051, "42S02",
                    "Unknown table 'd.missing'"));
            assertThat(client.error("SELECT @@nosuch").code()).isEqualTo(1193);
            assertThat(client.error("SELECT FROM WHERE").sqlState()).isEqualTo("42000");
        }
    }

    private static final List<String> FAILING = List.of(
            "SELECT * FROM orders WHERE",
            "SELECT * FROM orders WHERE id = = 1",
            "SELECT o.id FROM orders o JOIN orders p ON o.id = p.id WHERE id = 1",
            "SELECT CAST('abc' AS INT)",
            "SELECT 1 / 0",
            "SELECT * FROM orders WHERE id = 'x'",
            "SELECT id + status FROM orders",
            "SELECT substr()",
            "SELECT date_format(now(), status) FROM orders",
            "SELECT * FROM (SELECT 1) AS x(a, b, c)",
            "SELECT * FROM orders ORDER BY 99",
            "SELECT nosuch.id FROM orders",
            "SELECT * FROM orders LIMIT 'x'",
            "INSERT INTO orders VALUES ('x', 'new', 1.0)",
            "INSERT INTO orders VALUES (1, 'far too long a status', 1.0)",
            "INSERT INTO orders (id, amount) VALUES (2, 123456789012.5)",
            "UPDATE orders SET amount = 'x' WHERE id = 1",
            "DELETE FROM orders WHERE nosuch = 1",
            "SELECT * FROM orders UNION SELECT 1",
            "WITH x AS (SELECT 1) SELECT * FROM x, y",
            "SELECT * FROM information_schema.nosuch",
            "SELECT nosuch FROM information_schema.tables");
    private static final Pattern H2_TEXT = Pattern.compile("org\\.h2|\\[\\d{5}-\\d+]|SQL statement|Table \"|"
            + "Column \"|Syntax error in SQL|\\bH2\\b|Data conversion error|Schema \"|Division by zero|"
            + "CHARACTER VARYING|Value too long");

    @Test
    void noErrorReplyCarriesTheTextOfTheStoreEngine() throws Exception {
        try (RawQueryPortClient client = new RawQueryPortClient(sr.queryPort(), "loader", "pw-1", "shop")) {
            client.query("INSERT INTO orders VALUES (1, 'new', 9.50) ");
            assertThat(client.read()[0] & 0xFF).as("a row to fail on").isZero();
            for (String sql : FAILING) {
                RawQueryPortClient.Err err = client.error(sql);
                assertThat(err.message()).as(sql).doesNotContainPattern(H2_TEXT);
                assertThat(err.code()).as(sql).isIn(1064, 1052, 5509, 5604, 5610, 5502);
            }
        }
    }
}
