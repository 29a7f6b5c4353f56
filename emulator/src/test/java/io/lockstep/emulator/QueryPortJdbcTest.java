package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The MySQL-protocol query port with MySQL Connector/J 9: DDL over SQL, a load over HTTP, the rows read back, schema
 * statements, SHOW PROC and the error codes StarRocks answers.
 */
class QueryPortJdbcTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().user("loader", "pw-1"));

    static SrHttp http;

    @BeforeAll
    static void client() {
        http = new SrHttp(SR.emulator().feUrl()).as("loader", "pw-1");
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    static Connection connect(String database) throws SQLException {
        return connect(database, "pw-1");
    }

    static Connection connect(String database, String password) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "loader");
        props.setProperty("password", password);
        props.setProperty("connectTimeout", "10000");
        props.setProperty("socketTimeout", "30000");
        return DriverManager.getConnection(SR.emulator().jdbcUrl() + "/" + database, props);
    }

    static List<List<String>> rows(Statement statement, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    @Test
    void createsATableLoadsItOverHttpAndReadsTheRowsBack() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            assertThat(rows(s, "select current_version()")).containsExactly(List.of("4.0.2-lockstep"));
            assertThat(c.getMetaData().getDatabaseProductVersion()).isEqualTo("8.0.33");
            s.execute("CREATE DATABASE qp");
            s.execute("USE qp");
            s.execute("CREATE TABLE orders (order_id BIGINT NOT NULL, status VARCHAR(32), amount DECIMAL(10, 2))"
                    + " PRIMARY KEY (order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1");
            assertThat(rows(s, "SHOW TABLES")).containsExactly(List.of("orders"));
        }
        SrHttp.Resp load = http.send("PUT", "/api/qp/orders/_stream_load",
                h("label", "qp-1", "format", "json", "strip_outer_array", "true", "Expect", "100-continue"),
                "[{\"order_id\":1,\"status\":\"new\",\"amount\":\"9.50\"},{\"order_id\":2,\"status\":null,"
                        + "\"amount\":\"12.00\"}]", true);
        assertThat(load.body()).contains("\"Status\" : \"Success\"");

        try (Connection c = connect("qp"); Statement s = c.createStatement()) {
            assertThat(rows(s, "SELECT order_id, status, amount FROM orders ORDER BY order_id"))
                    .containsExactly(List.of("1", "new", "9.50"), java.util.Arrays.asList("2", null, "12.00"));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(amount) FROM `qp`.`orders`")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(2);
                assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("21.50");
            }
            assertThat(rows(s, "SELECT DATABASE(), @@version_comment"))
                    .containsExactly(List.of("qp", "StarRocks version 4.0.2-lockstep"));
        }
    }

    @Test
    void describesAltersTruncatesAndDropsTables() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS ddl");
            s.execute("CREATE TABLE ddl.t (id INT NOT NULL, v STRING) DUPLICATE KEY (id)");
            assertThat(rows(s, "SHOW DATABASES")).contains(List.of("ddl"));
            assertThat(rows(s, "DESC ddl.t")).containsExactly(
                    java.util.Arrays.asList("id", "int(11)", "NO", "true", null, ""),
                    java.util.Arrays.asList("v", "varchar(65533)", "YES", "false", null, ""));
            String create = rows(s, "SHOW CREATE TABLE ddl.t").get(0).get(1);
            assertThat(create).startsWith("CREATE TABLE `t` (").contains("DUPLICATE KEY(`id`)");
            s.execute("CREATE DATABASE again");
            s.execute("USE again");
            s.execute(create);
            assertThat(SR.emulator().catalog().table("again", "t")).isPresent();

            SrHttp.Resp load = http.send("PUT", "/api/ddl/t/_stream_load", h("label", "ddl-1", "format", "json",
                    "Expect", "100-continue"), "{\"id\":1,\"v\":\"a\"}", true);
            assertThat(load.body()).contains("\"Status\" : \"Success\"");
            s.execute("ALTER TABLE ddl.t ADD COLUMN note VARCHAR(20) DEFAULT 'none'");
            assertThat(rows(s, "SELECT id, v, note FROM ddl.t")).containsExactly(List.of("1", "a", "none"));
            s.execute("ALTER TABLE ddl.t DROP COLUMN v");
            assertThat(rows(s, "SELECT * FROM ddl.t")).containsExactly(List.of("1", "none"));
            assertThatThrownBy(() -> s.execute("ALTER TABLE ddl.t DROP COLUMN id"))
                    .hasMessageContaining("Can not drop key column 'id'");
            s.execute("TRUNCATE TABLE ddl.t");
            assertThat(rows(s, "SELECT COUNT(*) FROM ddl.t")).containsExactly(List.of("0"));
            s.execute("DROP TABLE ddl.t");
            assertThat(rows(s, "SHOW TABLES FROM ddl")).isEmpty();
            s.execute("DROP DATABASE again");
            assertThat(rows(s, "SHOW DATABASES")).doesNotContain(List.of("again"));
        }
    }

    @Test
    void showProcListsRunningAndFinishedTransactions() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE proc");
            s.execute("CREATE TABLE proc.t (id INT NOT NULL) PRIMARY KEY (id)");
            String dbId = rows(s, "SHOW PROC '/transactions'").stream().filter(r -> r.get(1).equals("proc"))
                    .findFirst().orElseThrow().get(0);
            assertThat(http.txn("begin", h("label", "proc-open", "db", "proc", "transaction_type", "multi"))
                    .srStatus()).isEqualTo("OK");
            assertThat(http.txn("begin", h("label", "proc-gone", "db", "proc", "table", "t")).srStatus())
                    .isEqualTo("OK");
            assertThat(http.txn("rollback", h("label", "proc-gone", "db", "proc", "table", "t")).srStatus())
                    .isEqualTo("OK");

            assertThat(rows(s, "SHOW PROC '/transactions/" + dbId + "'"))
                    .containsExactly(List.of("running", "1"), List.of("finished", "1"));
            List<List<String>> running = rows(s, "SHOW PROC '/transactions/" + dbId + "/running'");
            assertThat(running).hasSize(1);
            assertThat(running.get(0).subList(1, 5))
                    .containsExactly("proc-open", "FE: 127.0.0.1", "PREPARE", "MULTI_STATEMENT_STREAMING");
            List<List<String>> finished = rows(s, "SHOW PROC '/transactions/" + dbId + "/finished'");
            assertThat(finished.get(0).subList(1, 5))
                    .containsExactly("proc-gone", "BE: 127.0.0.1", "ABORTED", "BACKEND_STREAMING");
            assertSqlError(() -> s.executeQuery("SHOW PROC '/jobs'"), 1064, "42000");
        }
    }

    @Test
    void errorsCarryStarRocksCodes() throws Exception {
        assertThatThrownBy(() -> connect("", "wrong"))
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1045);
                    assertThat(e.getMessage()).contains("Access denied for user 'loader' (using password: YES)");
                });
        assertThatThrownBy(() -> connect("nodb"))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1049));
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            assertSqlError(() -> s.execute("CREATE TABLE t (id INT) DUPLICATE KEY (id)"), 1046, "3D000");
            assertSqlError(() -> s.executeQuery("DESC nodb.t"), 1049, "42000");
            s.execute("CREATE DATABASE IF NOT EXISTS errs");
            assertSqlError(() -> s.execute("CREATE DATABASE errs"), 1007, "HY000");
            assertSqlError(() -> s.executeQuery("DESC errs.missing"), 1051, "42S02");
            assertSqlError(() -> s.executeQuery("SELECT @@no_such_variable"), 1193, "HY000");
            assertSqlError(() -> s.execute("INSERT INTO errs.t VALUES (1)"), 1064, "42000");
            assertSqlError(() -> s.executeQuery("SELECT * FROM errs.missing"), 1064, "42000");
            assertThat(rows(s, "SELECT 1 + 1")).containsExactly(List.of("2"));
        }
    }

    private static void assertSqlError(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, int code,
                                       String state) {
        assertThatThrownBy(call).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(code);
            assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo(state);
        });
    }

    @Test
    void dorisModeSpeaksMysqlWithDorisVersions() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder()
                .ddl("CREATE DATABASE d; CREATE TABLE d.t (id INT NOT NULL, v STRING) UNIQUE KEY(id) "
                        + "DISTRIBUTED BY HASH(id) BUCKETS 1")
                .build().start()) {
            Properties props = new Properties();
            props.setProperty("user", "root");
            props.setProperty("password", "");
            try (Connection c = DriverManager.getConnection(doris.jdbcUrl() + "/d", props);
                 Statement s = c.createStatement()) {
                assertThat(rows(s, "select version(), @@version_comment"))
                        .containsExactly(List.of("5.7.99", "Doris version doris-2.1.8-lockstep"));
                assertThat(rows(s, "SHOW TABLES")).containsExactly(List.of("t"));
                assertThat(rows(s, "SELECT COUNT(*) FROM t")).containsExactly(List.of("0"));
            }
        }
    }
}
