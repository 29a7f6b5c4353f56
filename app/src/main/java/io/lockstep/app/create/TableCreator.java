package io.lockstep.app.create;

import io.lockstep.app.route.TargetTable;
import io.lockstep.app.schema.TargetJdbc;
import io.lockstep.core.progress.ProgressTable;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the target's database and tables through its MySQL-protocol port ({@code jdbc-url}, MySQL Connector/J),
 * never dropping or altering what is there (docs/table-creation.md):
 * <ul>
 *   <li>{@link #ensureDatabase}: {@code CREATE DATABASE IF NOT EXISTS};
 *   <li>{@link #ensureTable}: {@code SHOW TABLES FROM db}; a table that is there is compared by column names
 *       ({@code SHOW COLUMNS FROM}, column {@code Field}; StarRocks column names are case-insensitive) and left as it
 *       is, with one WARN line when its columns differ; else the {@link CreateTableStatement} (IF NOT EXISTS), a
 *       wait until {@code SHOW TABLES} lists the table, and one INFO line naming source and target (or, when another
 *       client created the table in between with other columns, the WARN line);
 *   <li>{@link #ensureProgressTable}: the progress table's own {@link ProgressTable#createTableSql()}.
 * </ul>
 * Every call opens and closes its own connection, so a replay after a failure in between creates only the rest.
 * Never logs the password. Stateless apart from its settings; thread-safe.
 */
public final class TableCreator implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(TableCreator.class);
    private static final long POLL_MS = 100;

    /** What {@link #ensureTable} found or did. */
    public enum Outcome {
        /** The table was created. */
        CREATED,
        /** The table was there with the columns creation would give it (a restart, a replay). */
        ALREADY_SAME,
        /** The table was there with other columns; left as it is (one WARN line said which). */
        EXISTS_DIFFERENT
    }

    private final TargetJdbc target;
    private final long visibleTimeoutMs;

    /**
     * @param jdbcUrl the target's {@code jdbc:mysql://host:port[/db]}
     * @param user the user (needs CREATE DATABASE and CREATE TABLE, or the database and tables must exist)
     * @param password its password, may be empty
     * @param visibleTimeoutMs longest wait in ms for a created table to show in {@code SHOW TABLES}
     */
    public TableCreator(String jdbcUrl, String user, String password, long visibleTimeoutMs) {
        this.target = new TargetJdbc(jdbcUrl, user, password);
        this.visibleTimeoutMs = visibleTimeoutMs;
    }

    /**
     * @param database the target database
     * @throws SQLException naming the statement the server refused
     */
    public void ensureDatabase(String database) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            execute(statement, "CREATE DATABASE IF NOT EXISTS " + CreateTableStatement.quoted(database));
        }
    }

    /**
     * @param target the table to have
     * @param source the source table it holds
     * @param options buckets, properties, overrides
     * @return what was found or done
     * @throws TableRefusedException before anything is sent, when the source table cannot be created exactly
     * @throws SQLException naming the statement the server refused, or the table not showing in time
     * @throws InterruptedException if interrupted while waiting for the table to show
     */
    public Outcome ensureTable(TargetTable target, SourceTable source, TableCreationOptions options)
            throws SQLException, InterruptedException {
        CreateTableStatement create = CreateTableStatement.of(source, target, options);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            if (tables(statement, target.database()).contains(target.table())) {
                return compare(statement, create);
            }
            String sql = create.sql();
            execute(statement, sql);
            awaitTable(statement, target, sql);
            if (!sameColumns(statement, create)) {
                // IF NOT EXISTS found a table another client created in between
                return compare(statement, create);
            }
            LOG.info("created table {} for source table {} ({} columns, primary key {})", target,
                    source.qualifiedName(), create.columns().size(), create.keyColumns());
            return Outcome.CREATED;
        }
    }

    /**
     * @param table the progress table of multi-table exactly-once
     * @return {@link Outcome#CREATED}, or {@link Outcome#ALREADY_SAME} when it was there (its columns are checked
     *     when the sink opens it, {@link ProgressTable#checkColumns})
     * @throws SQLException naming the statement the server refused, or the table not showing in time
     * @throws InterruptedException if interrupted while waiting for the table to show
     */
    public Outcome ensureProgressTable(ProgressTable table) throws SQLException, InterruptedException {
        TargetTable target = new TargetTable(table.database(), table.table());
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            if (tables(statement, table.database()).contains(table.table())) {
                return Outcome.ALREADY_SAME;
            }
            String sql = table.createTableSql().strip();
            execute(statement, sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql);
            awaitTable(statement, target, sql);
            LOG.info("created progress table {}", target);
            return Outcome.CREATED;
        }
    }

    private static boolean sameColumns(Statement statement, CreateTableStatement create) throws SQLException {
        return columns(statement, create.target()).equals(wanted(create));
    }

    private static Set<String> wanted(CreateTableStatement create) {
        return create.columns().stream().map(c -> c.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private Outcome compare(Statement statement, CreateTableStatement create) throws SQLException {
        TargetTable target = create.target();
        Set<String> existing = columns(statement, target);
        Set<String> wanted = wanted(create);
        if (existing.equals(wanted)) {
            LOG.debug("table {} for source table {} is there with the same columns", target,
                    create.source().qualifiedName());
            return Outcome.ALREADY_SAME;
        }
        List<String> missing = wanted.stream().filter(c -> !existing.contains(c)).toList();
        List<String> extra = existing.stream().filter(c -> !wanted.contains(c)).toList();
        LOG.warn("table {} exists with other columns than source table {} has (missing {}, extra {}); left as it is,"
                + " loading follows its columns", target, create.source().qualifiedName(), missing, extra);
        return Outcome.EXISTS_DIFFERENT;
    }

    private Connection connect() throws SQLException {
        return target.connect();
    }

    private static void execute(Statement statement, String sql) throws SQLException {
        LOG.debug("table creation: {}", sql);
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new SQLException(sql.replace('\n', ' ') + " failed: " + e.getMessage(), e.getSQLState(),
                    e.getErrorCode(), e);
        }
    }

    /** @return the tables of {@code database}, as named (table names are case-sensitive in StarRocks) */
    private static Set<String> tables(Statement statement, String database) throws SQLException {
        Set<String> tables = new LinkedHashSet<>();
        String sql = "SHOW TABLES FROM " + CreateTableStatement.quoted(database);
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
        } catch (SQLException e) {
            throw new SQLException(sql + " failed: " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
        return tables;
    }

    private static Set<String> columns(Statement statement, TargetTable table) throws SQLException {
        Set<String> columns = new LinkedHashSet<>();
        String sql = "SHOW COLUMNS FROM " + CreateTableStatement.quoted(table.database()) + "."
                + CreateTableStatement.quoted(table.table());
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                columns.add(rows.getString(1).toLowerCase(Locale.ROOT));
            }
        } catch (SQLException e) {
            throw new SQLException(sql + " failed: " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
        return columns;
    }

    private void awaitTable(Statement statement, TargetTable table, String sql)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + visibleTimeoutMs * 1_000_000L;
        while (!tables(statement, table.database()).contains(table.table())) {
            if (System.nanoTime() > deadline) {
                throw new SQLException("table " + table + " did not show in SHOW TABLES within " + visibleTimeoutMs
                        + " ms after " + sql.replace('\n', ' '));
            }
            Thread.sleep(POLL_MS);
        }
    }
}
