package io.lockstep.app.schema;

import io.lockstep.app.route.TargetTable;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link SchemaChangeBarrier} to the target through its MySQL-protocol port ({@code jdbc-url}, MySQL
 * Connector/J): for each column, read the table's real columns ({@code SHOW COLUMNS FROM `db`.`t`}, column
 * {@code Field}) and skip what is already so (the column is there, or already gone), else
 * {@code ALTER TABLE `db`.`t` ADD COLUMN `c` TYPE} / {@code DROP COLUMN `c`} (StarRocks docs "ALTER TABLE"), then
 * wait until {@code SHOW COLUMNS} shows it: a StarRocks schema change may run asynchronously (fast schema evolution
 * makes ADD/DROP COLUMN a metadata change; otherwise it is a job that waits for earlier transactions), and one table
 * takes one schema change at a time. Statements go one by one, so a replay after a failure in between applies only
 * the rest.
 *
 * <p>Called on the sink's task thread; every call opens and closes its own connection. Never logs the password.
 */
public final class SchemaApplier implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SchemaApplier.class);
    private static final long POLL_MS = 200;

    private final TargetJdbc target;
    private final long visibleTimeoutMs;

    /**
     * @param jdbcUrl {@code jdbc:mysql://host:port[/db]}
     * @param user the user (needs ALTER on the tables)
     * @param password its password, may be empty
     * @param visibleTimeoutMs longest wait in ms for one change to show in {@code SHOW COLUMNS}
     */
    public SchemaApplier(String jdbcUrl, String user, String password, long visibleTimeoutMs) {
        this.target = new TargetJdbc(jdbcUrl, user, password);
        this.visibleTimeoutMs = visibleTimeoutMs;
    }

    /**
     * @param barrier what to change
     * @return the statements issued (empty when the table already had the change: a replay)
     * @throws SQLException naming the table and the statement the server refused, or the change not showing within
     *     the timeout
     * @throws InterruptedException if interrupted while waiting for a change to show
     */
    public List<String> apply(SchemaChangeBarrier barrier) throws SQLException, InterruptedException {
        TargetTable table = barrier.target();
        String name = HttpSqlColumnReader.quoted(table.database()) + "." + HttpSqlColumnReader.quoted(table.table());
        List<String> issued = new ArrayList<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String add : barrier.columnsToAdd()) {
                String column = add.split("\\s+", 2)[0];
                String type = add.substring(column.length()).strip();
                if (columns(statement, name).contains(column.toLowerCase(Locale.ROOT))) {
                    LOG.info("Column {} of {}.{} is already there; not adding it again ({})", column,
                            table.database(), table.table(), barrier.getCause());
                    continue;
                }
                String sql = "ALTER TABLE " + name + " ADD COLUMN " + HttpSqlColumnReader.quoted(column) + " " + type;
                execute(statement, sql, table);
                awaitColumn(statement, name, column, true, sql);
                applied(table, "ADD COLUMN " + column + " " + type, barrier);
                issued.add(sql);
            }
            for (String column : barrier.columnsToDrop()) {
                if (!columns(statement, name).contains(column.toLowerCase(Locale.ROOT))) {
                    LOG.info("Column {} of {}.{} is already gone; not dropping it again ({})", column,
                            table.database(), table.table(), barrier.getCause());
                    continue;
                }
                String sql = "ALTER TABLE " + name + " DROP COLUMN " + HttpSqlColumnReader.quoted(column);
                execute(statement, sql, table);
                awaitColumn(statement, name, column, false, sql);
                applied(table, "DROP COLUMN " + column, barrier);
                issued.add(sql);
            }
        }
        return issued;
    }

    private Connection connect() throws SQLException {
        return target.connect();
    }

    /**
     * The one line per applied change, at INFO (the runnable jar shows this logger's INFO lines on the console, see
     * its {@code simplelogger.properties}): {@code schema change applied to bank.accounts: ADD COLUMN email
     * VARCHAR(512) (topic 'cdc' partition 0 offset 4: ALTER TABLE accounts ADD COLUMN email VARCHAR(128))}.
     */
    private static void applied(TargetTable table, String change, SchemaChangeBarrier barrier) {
        LOG.info("schema change applied to {}.{}: {}{}", table.database(), table.table(), change,
                barrier.getCause().isEmpty() ? "" : " (" + barrier.getCause() + ")");
    }

    private static void execute(Statement statement, String sql, TargetTable table) throws SQLException {
        LOG.debug("Schema change of {}.{}: {}", table.database(), table.table(), sql);
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new SQLException(sql + " failed: " + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
    }

    private static Set<String> columns(Statement statement, String name) throws SQLException {
        Set<String> columns = new LinkedHashSet<>();
        try (ResultSet rows = statement.executeQuery("SHOW COLUMNS FROM " + name)) {
            while (rows.next()) {
                columns.add(rows.getString(1).toLowerCase(Locale.ROOT));
            }
        }
        return columns;
    }

    private void awaitColumn(Statement statement, String name, String column, boolean present, String sql)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + visibleTimeoutMs * 1_000_000L;
        while (columns(statement, name).contains(column.toLowerCase(Locale.ROOT)) != present) {
            if (System.nanoTime() > deadline) {
                throw new SQLException(sql + " did not show in SHOW COLUMNS within " + visibleTimeoutMs
                        + " ms (see SHOW ALTER TABLE COLUMN)");
            }
            Thread.sleep(POLL_MS);
        }
    }
}
