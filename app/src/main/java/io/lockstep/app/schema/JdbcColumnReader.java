package io.lockstep.app.schema;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads a target table's columns with their types and nullability through the MySQL-protocol port
 * ({@code --jdbc-url}, MySQL Connector/J): {@code DESC `db`.`t`}, whose rows are {@code Field}, {@code Type},
 * {@code Null}, ... on StarRocks (docs "DESC", types as {@code bigint(20)}, {@code varchar(64)}) and Apache Doris
 * (docs "DESCRIBE", {@code Null} as {@code Yes}/{@code No}). With the types, the assembler checks values too
 * ({@link ValueRules}). The preferred reader when {@code --jdbc-url} is given; without it StarRocks is read through
 * {@link HttpSqlColumnReader} and Doris through {@link DorisSchemaColumnReader}. The rows are parsed by
 * {@link DescribedColumn}, as the other readers' are.
 *
 * <p>Errors (MySQL error codes and SQL states, as StarRocks and Doris send them): 1045 / SQL state 28000 and 1142
 * (access denied) are {@link ColumnReadException.Kind#ACCESS_DENIED}; 1146 / 1051 / 42S02 (unknown table) and 1049
 * (unknown database), and StarRocks 3.3+'s renumbered 5502 / 42602 (unknown table) and 5501 / 3F000 (unknown
 * database; fe-core {@code common/ErrorCode.java}) are {@link ColumnReadException.Kind#MISSING_TABLE}; anything else, e.g. SQL state class 08 (connection),
 * is {@link ColumnReadException.Kind#OUTAGE}, also when the connection does not open within 10 s or a reply takes
 * longer than 60 s. Every call opens and closes its own connection. Never logs the password.
 */
public final class JdbcColumnReader implements ColumnReader {

    private static final long serialVersionUID = 1L;
    /** Longest wait in ms for the connection to open. */
    static final long CONNECT_TIMEOUT_MS = 10_000;
    /** Longest wait in ms for a reply on an open connection. */
    static final long SOCKET_TIMEOUT_MS = 60_000;

    private final String jdbcUrl;
    private final String user;
    private final String password;

    /**
     * @param jdbcUrl {@code jdbc:mysql://host:port[/db]}
     * @param user the user (needs SELECT on the tables)
     * @param password its password, may be empty
     */
    public JdbcColumnReader(String jdbcUrl, String user, String password) {
        this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        this.user = Objects.requireNonNull(user, "user");
        this.password = password == null ? "" : password;
    }

    /**
     * Pre-flight: connects and runs {@code SELECT 1}, so that a wrong {@code --jdbc-url} (another port, a server that
     * does not speak the MySQL protocol) is named before the job starts rather than restarting it.
     *
     * @param timeoutMs longest wait for the connection and for each reply, ms
     * @throws ColumnReadException naming the URL and the driver's reason, with the kind of failure
     */
    public void check(long timeoutMs) throws ColumnReadException {
        try (Connection connection = connect(timeoutMs, timeoutMs);
                Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT 1").close();
        } catch (SQLException e) {
            throw new ColumnReadException(kind(e), "cannot use --jdbc-url " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<TargetColumn> columns(String database, String table) throws ColumnReadException {
        String name = HttpSqlColumnReader.quoted(database) + "." + HttpSqlColumnReader.quoted(table);
        try (Connection connection = connect(CONNECT_TIMEOUT_MS, SOCKET_TIMEOUT_MS)) {
            List<TargetColumn> columns = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("DESC " + name)) {
                while (rows.next()) {
                    columns.add(DescribedColumn.of(rows.getString("Field"), rows.getString("Type"),
                            rows.getString("Null")));
                }
            }
            return columns;
        } catch (SQLException e) {
            throw new ColumnReadException(kind(e), "Cannot read the columns of target table " + database + "."
                    + table + " (DESC through " + jdbcUrl + "): " + e.getMessage(), e);
        }
    }

    /** Opens a connection with bounded waits (Connector/J waits without end by default: a hung FE is an outage). */
    private Connection connect(long connectTimeoutMs, long socketTimeoutMs) throws SQLException, ColumnReadException {
        Connection connection = new TargetJdbc(jdbcUrl, user, password).connectOrNull(Map.of(
                "connectTimeout", Long.toString(connectTimeoutMs), "socketTimeout", Long.toString(socketTimeoutMs)));
        if (connection == null) {
            throw new ColumnReadException(ColumnReadException.Kind.ACCESS_DENIED, "--jdbc-url " + jdbcUrl
                    + " is not a jdbc:mysql:// URL", null);
        }
        return connection;
    }

    private static ColumnReadException.Kind kind(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        int code = e.getErrorCode();
        if (state.startsWith("08")) {
            return ColumnReadException.Kind.OUTAGE; // the connection failed or broke
        }
        if (code == 1045 || code == 1142 || code == 1044 || state.equals("28000")) {
            return ColumnReadException.Kind.ACCESS_DENIED;
        }
        if (code == 1146 || code == 1051 || code == 1049 || code == 5502 || code == 5501 || state.equals("42S02")
                || state.equals("42602") || state.equals("3F000")
                || HttpSqlColumnReader.MISSING.matcher(String.valueOf(e.getMessage())).find()) {
            return ColumnReadException.Kind.MISSING_TABLE;
        }
        return ColumnReadException.Kind.OUTAGE;
    }
}
