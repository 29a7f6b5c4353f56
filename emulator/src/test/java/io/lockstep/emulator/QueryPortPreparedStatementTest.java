package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side prepared statements with MySQL Connector/J 9 ({@code useServerPrepStmts=true}): COM_STMT_PREPARE,
 * COM_STMT_EXECUTE with typed parameters and binary result rows, COM_STMT_CLOSE without a reply, then plain
 * statements on the same connection read their own replies. Follows StarRocks' FE
 * {@code fe/fe-core/src/main/java/com/starrocks/qe/ConnectProcessor.java} (handleStmtPrepare / handleExecute /
 * COM_STMT_CLOSE answered with nothing) and MySQL's binary protocol
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase_ps.html).
 */
class QueryPortPreparedStatementTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().user("loader", "pw-1"));

    @BeforeAll
    static void table() throws Exception {
        Properties props = new Properties();
        props.setProperty("user", "loader");
        props.setProperty("password", "pw-1");
        try (Connection c = DriverManager.getConnection(SR.emulator().jdbcUrl(), props);
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE ps");
            s.execute("CREATE TABLE ps.t (id BIGINT NOT NULL, name VARCHAR(20), amount DECIMAL(10, 2), "
                    + "d DATE, ts DATETIME, score DOUBLE, ok BOOLEAN) PRIMARY KEY (id) "
                    + "DISTRIBUTED BY HASH(id) BUCKETS 1");
            s.execute("INSERT INTO ps.t VALUES (1, 'one', 1.50, '2024-01-02', '2024-01-02 03:04:05', 0.5, true), "
                    + "(2, 'two', 2.25, '2024-02-03', '2024-02-03 10:20:30.123456', 1.5, false), "
                    + "(3, NULL, NULL, NULL, NULL, NULL, NULL)");
        }
    }

    static Connection connect(boolean serverPrepared) throws Exception {
        Properties props = new Properties();
        props.setProperty("user", "loader");
        props.setProperty("password", "pw-1");
        props.setProperty("useServerPrepStmts", Boolean.toString(serverPrepared));
        props.setProperty("cachePrepStmts", "false");
        props.setProperty("socketTimeout", "10000");
        return DriverManager.getConnection(SR.emulator().jdbcUrl() + "/ps", props);
    }

    @Test
    void preparedSelectsWithTypedParametersReturnBinaryRowsAndTheConnectionStaysInStep() throws Exception {
        try (Connection c = connect(true)) {
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT id, name, amount, d, ts, score, ok FROM t WHERE id = ? AND name = ? AND amount > ?")) {
                p.setLong(1, 2);
                p.setString(2, "two");
                p.setBigDecimal(3, new BigDecimal("1.00"));
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(2);
                    assertThat(rs.getString(2)).isEqualTo("two");
                    assertThat(rs.getBigDecimal(3)).isEqualByComparingTo("2.25");
                    assertThat(rs.getObject(4, LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 3));
                    assertThat(rs.getObject(5, LocalDateTime.class))
                            .isEqualTo(LocalDateTime.of(2024, 2, 3, 10, 20, 30, 123_456_000));
                    assertThat(rs.getDouble(6)).isEqualTo(1.5);
                    assertThat(rs.getBoolean(7)).isFalse();
                    assertThat(rs.next()).isFalse();
                }
                // the same statement again with other values: parameters re-bound, no new prepare
                p.setLong(1, 1);
                p.setString(2, "one");
                p.setBigDecimal(3, BigDecimal.ZERO);
                assertThat(ids(p)).containsExactly(1L);
            }
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT id FROM t WHERE d = ? OR ts = ? OR score = ? OR id = ? ORDER BY id")) {
                p.setObject(1, LocalDate.of(2024, 1, 2));
                p.setTimestamp(2, Timestamp.valueOf("2024-02-03 10:20:30.123456"));
                p.setDouble(3, 99.0);
                p.setInt(4, 3);
                assertThat(ids(p)).containsExactly(1L, 2L, 3L);
            }
            try (PreparedStatement p = c.prepareStatement("SELECT id, name FROM t WHERE name IS NULL OR name = ?")) {
                p.setNull(1, java.sql.Types.VARCHAR);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getLong(1)).isEqualTo(3);
                    assertThat(rs.getString(2)).isNull();
                    assertThat(rs.next()).isFalse();
                }
            }
            // the statements above were closed (COM_STMT_CLOSE, never answered): plain statements read their own replies
            try (Statement s = c.createStatement()) {
                assertThat(rows(s, "SELECT name FROM t WHERE id = 1")).containsExactly("one");
                assertThat(rows(s, "SELECT COUNT(*) FROM t")).containsExactly("3");
                assertThat(rows(s, "SELECT name FROM t WHERE id = 2")).containsExactly("two");
            }
        }
    }

    @Test
    void aQuoteInAStringParameterStaysInsideTheValue() throws Exception {
        try (Connection c = connect(true); PreparedStatement p = c.prepareStatement(
                "SELECT COUNT(*) FROM t WHERE name = ?")) {
            p.setString(1, "x' OR '1'='1");
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isZero();
            }
            p.setString(1, "back\\slash'");
            try (ResultSet rs = p.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    @Test
    void preparedInsertAndUpdateReportAffectedRows() throws Exception {
        try (Connection c = connect(true)) {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t (id, name) VALUES (?, ?)")) {
                p.setLong(1, 10);
                p.setString(2, "ten");
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE t SET name = ? WHERE id = ?")) {
                p.setString(1, "TEN");
                p.setLong(2, 10);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            try (Statement s = c.createStatement()) {
                assertThat(rows(s, "SELECT name FROM t WHERE id = 10")).containsExactly("TEN");
                s.execute("DELETE FROM t WHERE id = 10");
            }
        }
    }

    private static List<Long> ids(PreparedStatement p) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private static List<String> rows(Statement s, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }
}
