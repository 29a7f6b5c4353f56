package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The query port's SQL dialect as StarRocks': session variables (FE {@code qe/SessionVariable.java},
 * {@code qe/VariableMgr.java}, {@code qe/SetExecutor.java}), functions and casts (FE {@code catalog/FunctionSet.java},
 * {@code sql/analyzer/ExpressionAnalyzer.java}), identifier case (FE {@code catalog/Column.java}: column names match
 * case-insensitively; {@code server/LocalMetastore.java}: databases and tables by exact name).
 */
class QueryPortDialectTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().user("loader", "pw-1"));

    @BeforeAll
    static void tables() throws Exception {
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE dia");
            s.execute("CREATE TABLE dia.Orders (Id BIGINT NOT NULL, `Status` VARCHAR(16), amount DECIMAL(10, 2), "
                    + "created DATETIME) PRIMARY KEY (Id) DISTRIBUTED BY HASH(Id) BUCKETS 1");
            s.execute("INSERT INTO dia.Orders VALUES (1, 'new', 9.50, '2024-01-02 03:04:05'), "
                    + "(2, NULL, 12.00, '2024-02-29 23:59:59')");
        }
    }

    static Connection connect(String database) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "loader");
        props.setProperty("password", "pw-1");
        props.setProperty("socketTimeout", "10000");
        return DriverManager.getConnection(SR.emulator().jdbcUrl() + "/" + database, props);
    }

    static List<String> row(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                row.add(rs.getString(i));
            }
            assertThat(rs.next()).as(sql + " has one row").isFalse();
            return row;
        }
    }

    @Test
    void setVariablesAreReadBackInTheSameSessionOnly() throws Exception {
        try (Connection c = connect("dia"); Statement s = c.createStatement()) {
            s.execute("SET time_zone = '+08:00'");
            s.execute("SET SESSION query_timeout = 60, @@net_write_timeout = 120");
            s.execute("SET @@session.sql_mode = 'STRICT_TRANS_TABLES'");
            s.execute("SET NAMES utf8mb4 COLLATE utf8mb4_general_ci");
            s.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
            s.execute("SET exec_mem_limit = 4294967296, enable_profile = true");
            s.execute("SET @my_var = 'hello'");
            assertThat(row(s, "SELECT @@time_zone, @@query_timeout, @@net_write_timeout, @@sql_mode"))
                    .containsExactly("+08:00", "60", "120", "STRICT_TRANS_TABLES");
            assertThat(row(s, "SELECT @@character_set_client, @@character_set_results, @@tx_isolation, "
                    + "@@transaction_isolation")).containsExactly("utf8mb4", "utf8mb4", "READ-COMMITTED",
                    "READ-COMMITTED");
            assertThat(row(s, "SELECT @@exec_mem_limit, @@enable_profile, @my_var, @unset_var"))
                    .containsExactly("4294967296", "1", "hello", null);
            try (ResultSet rs = s.executeQuery("SHOW VARIABLES LIKE 'time_zone'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(2)).isEqualTo("+08:00");
            }
            // now() is in the session's zone: 8 hours ahead of UTC
            assertThat(row(s, "SELECT timestampdiff(HOUR, utc_timestamp(), now())")).containsExactly("8");
            s.execute("SET time_zone = 'Europe/Berlin'");
            assertThat(row(s, "SELECT unix_timestamp('2024-07-01 00:00:00'), unix_timestamp('2024-01-01 00:00:00'), "
                    + "from_unixtime(1719784800), from_unixtime(1704063600)")).as("summer +02:00, winter +01:00")
                    .containsExactly("1719784800", "1704063600", "2024-07-01 00:00:00", "2024-01-01 00:00:00");
            s.execute("SET time_zone = DEFAULT");
            assertThat(row(s, "SELECT @@time_zone")).containsExactly("UTC");
            // a failing SET changes nothing, not even its valid parts
            assertThatThrownBy(() -> s.execute("SET query_timeout = 5, nosuchvar = 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1193));
            assertThat(row(s, "SELECT @@query_timeout")).containsExactly("60");
            try (Connection other = connect("dia"); Statement o = other.createStatement()) {
                assertThat(row(o, "SELECT @@query_timeout, @@time_zone")).as("another session has the defaults")
                        .containsExactly("300", "UTC");
            }
        }
    }

    @Test
    void everydayFunctionsAndCastsRunAsInStarRocks() throws Exception {
        try (Connection c = connect("dia"); Statement s = c.createStatement()) {
            assertThat(row(s, "SELECT if(Id = 1, 'one', 'other'), ifnull(status, 'none'), coalesce(NULL, status, "
                    + "'x'), CASE WHEN amount > 10 THEN 'big' ELSE 'small' END FROM Orders WHERE Id = 2"))
                    .containsExactly("other", "none", "x", "big");
            assertThat(row(s, "SELECT date_format(created, '%Y-%m-%d %H:%i:%s'), date_format(created, '%Y/%c/%e'), "
                    + "str_to_date('2024-03-04 05:06:07', '%Y-%m-%d %H:%i:%s'), str_to_date('04.03.2024', "
                    + "'%d.%m.%Y') FROM Orders WHERE Id = 1"))
                    .containsExactly("2024-01-02 03:04:05", "2024/1/2", "2024-03-04 05:06:07", "2024-03-04");
            assertThat(row(s, "SELECT date_add(created, INTERVAL 1 DAY), date_sub(created, INTERVAL 2 HOUR), "
                    + "datediff('2024-03-01', created), days_add(created, 3) FROM Orders WHERE Id = 2"))
                    .containsExactly("2024-03-01 23:59:59", "2024-02-29 21:59:59", "1", "2024-03-03 23:59:59");
            assertThat(row(s, "SELECT unix_timestamp('2024-01-01 00:00:00'), from_unixtime(1704067200), "
                    + "from_unixtime(0, '%Y-%m-%d')")).containsExactly("1704067200", "2024-01-01 00:00:00",
                    "1970-01-01");
            assertThat(row(s, "SELECT concat('a', Status, 'b'), concat('a', NULL), substr('hello', 2, 3), "
                    + "length('héllo'), char_length('héllo'), lower('ABC'), upper('abc'), trim('  x  '), "
                    + "replace('abc', 'b', 'x') FROM Orders WHERE Id = 1"))
                    .containsExactly("anewb", null, "ell", "6", "5", "abc", "ABC", "x", "axc");
            assertThat(row(s, "SELECT CAST(amount AS STRING), CAST('42' AS INT), CAST('9' AS BIGINT), "
                    + "CAST('170141183460469231731687303715884105727' AS LARGEINT), CAST('1.5' AS DOUBLE), "
                    + "CAST('3.14159' AS DECIMAL(5, 2)), CAST('2024-01-02 03:04:05' AS DATE), "
                    + "CAST('2024-01-02' AS DATETIME), CAST(1 AS BOOLEAN), CAST(12345 AS VARCHAR(10)) "
                    + "FROM Orders WHERE Id = 1"))
                    .containsExactly("9.50", "42", "9", "170141183460469231731687303715884105727", "1.5", "3.14",
                            "2024-01-02", "2024-01-02 00:00:00", "1", "12345");
            assertThat(row(s, "SELECT COUNT(*), SUM(amount), MAX(Id) FROM Orders")).containsExactly("2", "21.50", "2");
            assertThat(row(s, "SELECT date_trunc('month', created), dayofweek('2024-01-07'), weekofyear('2024-01-07'), "
                    + "starts_with(status, 'ne'), regexp_replace('a1b22', '[0-9]+', 'X'), strleft('abc', 2), "
                    + "str2date('2024-05-06', '%Y-%m-%d') FROM Orders WHERE Id = 1"))
                    .containsExactly("2024-01-01 00:00:00", "1", "1", "1", "aXbX", "ab", "2024-05-06");
            assertThatThrownBy(() -> s.executeQuery("SELECT soundex(status) FROM Orders"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1064);
                        assertThat(e.getMessage()).isEqualTo("Getting analyzing error. Detail message: No matching "
                                + "function with signature: soundex(unknown).");
                    });
        }
    }

    @Test
    void slashDividesInDoubleAndDivAsIntegers() throws Exception {
        try (Connection c = connect("dia"); Statement s = c.createStatement()) {
            assertThat(row(s, "select 7/2, 1/3, 7 div 2, 1 + 6 / 4 * 2, -7/2"))
                    .containsExactly("3.5", "0.3333333333333333", "3", "4.0", "-3.5");
            assertThat(row(s, "select sum(Id)/count(*) from Orders")).containsExactly("1.5");
        }
    }

    @Test
    void anUnaliasedExpressionIsLabelledWithTheClientsText() throws Exception {
        String expression = "cast('2026-01-01' as datetime) + interval 1 day";
        try (Connection c = connect("dia"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select " + expression + ", 7/2, 1 one")) {
            assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo(expression);
            assertThat(rs.getMetaData().getColumnLabel(2)).isEqualTo("7/2");
            assertThat(rs.getMetaData().getColumnLabel(3)).isEqualTo("one");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).startsWith("2026-01-02 00:00:00");
        }
    }

    @Test
    void oneRowEndingInTwoNullsIsInserted() throws Exception {
        try (Connection c = connect("dia"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE dia.t4 (k INT NOT NULL, v VARCHAR(8), a INT, b INT) PRIMARY KEY (k) "
                    + "DISTRIBUTED BY HASH(k) BUCKETS 1");
            s.execute("INSERT INTO dia.t4 VALUES (1, 'a', NULL, NULL)");
            assertThat(row(s, "select k, v, a, b from t4")).containsExactly("1", "a", null, null);
        }
    }

    @Test
    void dateFunctionsTakeADatetimeString() throws Exception {
        try (Connection c = connect("dia"); Statement s = c.createStatement()) {
            assertThat(row(s, "select date_format('2026-01-02 03:04:05', '%Y/%m/%d'),"
                    + " date_trunc('month', '2026-01-02 03:04:05')"))
                    .containsExactly("2026/01/02", "2026-01-01 00:00:00");
        }
    }

    @Test
    void columnNamesMatchInAnyCaseTableNamesOnlyExactly() throws Exception {
        try (Connection c = connect("dia"); Statement s = c.createStatement()) {
            assertThat(row(s, "SELECT id, ID, `iD`, `STATUS`, status FROM Orders WHERE `ID` = 1 AND Status = 'new'"))
                    .containsExactly("1", "1", "1", "new", "new");
            assertThat(row(s, "SELECT o.ID, O2.status FROM dia.Orders o JOIN Orders AS O2 ON o.Id = O2.iD "
                    + "WHERE o.id = 1")).containsExactly("1", "new");
            assertThat(row(s, "SELECT COUNT(*) AS Total FROM Orders HAVING Total > 1")).containsExactly("2");
            try (ResultSet rs = s.executeQuery("SELECT Id AS MyId, o.STATUS, if(Id = 1, 'a', 'b'), "
                    + "CAST(amount AS STRING) FROM Orders o WHERE Id = 1")) {
                assertThat(rs.getMetaData().getColumnLabel(1)).as("an alias keeps its case").isEqualTo("MyId");
                assertThat(rs.getMetaData().getColumnLabel(2)).as("a column: its name as written").isEqualTo("STATUS");
                assertThat(rs.getMetaData().getColumnLabel(3)).as("an expression: as written, not as the store "
                        + "runs it").isEqualTo("if(Id = 1, 'a', 'b')");
                assertThat(rs.getMetaData().getColumnLabel(4)).isEqualTo("CAST(amount AS STRING)");
            }
            for (String wrongCase : List.of("SELECT * FROM orders", "SELECT * FROM ORDERS", "SELECT * FROM DIA.Orders")) {
                assertThatThrownBy(() -> s.executeQuery(wrongCase)).as(wrongCase)
                        .isInstanceOfSatisfying(SQLException.class,
                                e -> assertThat(e.getErrorCode()).isIn(5501, 5502));
            }
        }
    }

    @Test
    void insertUpdateAndDeleteAreTransactionsOfTheirOwn() throws Exception {
        try (Connection c = connect("dia"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE pk (k INT NOT NULL, v VARCHAR(10), n INT DEFAULT '7') PRIMARY KEY (k) "
                    + "DISTRIBUTED BY HASH(k) BUCKETS 1");
            s.execute("CREATE TABLE dup (k INT NOT NULL, v VARCHAR(10)) DUPLICATE KEY (k) "
                    + "DISTRIBUTED BY HASH(k) BUCKETS 1");
            assertThat(s.executeUpdate("INSERT INTO pk WITH LABEL seed_1 (k, v) VALUES (1, 'a'), (2, 'b'), "
                    + "(3, concat('c', 'c'))")).isEqualTo(3);
            assertThat(s.executeUpdate("INSERT INTO dup SELECT k, v FROM pk WHERE k < 3")).isEqualTo(2);
            assertThat(s.executeUpdate("UPDATE pk SET v = upper(v), n = n + 1 WHERE k >= 2")).isEqualTo(2);
            assertThat(s.executeUpdate("DELETE FROM pk WHERE k = 1")).isEqualTo(1);
            List<List<String>> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT k, v, n FROM pk ORDER BY k")) {
                while (rs.next()) {
                    rows.add(Arrays.asList(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
            assertThat(rows).containsExactly(List.of("2", "B", "8"), List.of("3", "CC", "8"));
            assertThat(row(s, "SELECT COUNT(*) FROM dup")).containsExactly("2");

            // each statement was a VISIBLE transaction, listed as loads are
            String dbId = null;
            try (ResultSet rs = s.executeQuery("SHOW PROC '/transactions'")) {
                while (rs.next()) {
                    if (rs.getString(2).equals("dia")) {
                        dbId = rs.getString(1);
                    }
                }
            }
            List<String> labels = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SHOW PROC '/transactions/" + dbId + "/finished'")) {
                while (rs.next()) {
                    assertThat(rs.getString(4)).as(rs.getString(2)).isEqualTo("VISIBLE");
                    labels.add(rs.getString(2));
                }
            }
            assertThat(labels).contains("seed_1");
            assertThat(labels.stream().filter(l -> l.startsWith("insert_"))).hasSizeGreaterThanOrEqualTo(4);
            assertThatThrownBy(() -> s.execute("INSERT INTO pk WITH LABEL seed_1 (k) VALUES (9)"))
                    .hasMessageContaining("Label [seed_1] has already been used.");
            assertThatThrownBy(() -> s.execute("DELETE FROM dup WHERE k = 1"))
                    .hasMessageContaining("does not support delete");
            assertThatThrownBy(() -> s.execute("UPDATE pk SET v = dup.v FROM dup WHERE pk.k = dup.k"))
                    .hasMessageContaining("(a multi-table UPDATE) is not supported");

            // every statement commits at once: a ROLLBACK that would have to undo one is refused, not ignored
            s.execute("BEGIN");
            s.execute("INSERT INTO pk (k) VALUES (20)");
            assertThatThrownBy(() -> s.execute("ROLLBACK"))
                    .hasMessageContaining("ROLLBACK cannot undo the 1 INSERT/UPDATE/DELETE statement(s)");
            assertThat(row(s, "SELECT COUNT(*) FROM pk WHERE k = 20")).containsExactly("1");
            s.execute("BEGIN");
            s.execute("ROLLBACK");
            c.setAutoCommit(false);
            s.execute("DELETE FROM pk WHERE k = 20");
            assertThatThrownBy(c::rollback).isInstanceOf(SQLException.class);
            c.setAutoCommit(true);
        }
    }
}
