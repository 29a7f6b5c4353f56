package io.lockstep.app.schema;

import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.SqlResult;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.sink.SinkSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Reads a target table's columns with their types and nullability through the StarRocks HTTP SQL API
 * ({@link StarRocksSqlClient}: the {@code load-url} addresses, the sink's user and password; StarRocks docs,
 * https://docs.starrocks.io/docs/sql-reference/http_sql_api/):
 * {@code SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE FROM information_schema.columns WHERE TABLE_SCHEMA = 'db' AND
 * TABLE_NAME = 't' ORDER BY ORDINAL_POSITION}, parsed by {@link DescribedColumn} as {@code DESC}'s rows are. With the
 * types, the assembler checks values ({@link ValueRules}) without {@code --jdbc-url}. Needs only what the job already
 * needs: the HTTP SQL API (StarRocks 3.2+) and the SELECT privilege on the table, without which
 * {@code information_schema} does not list its columns.
 *
 * <p>{@code information_schema.columns} answers a table it does not know with no rows, not an error; then
 * {@code SELECT * FROM `db`.`t` LIMIT 0} tells a missing table ({@link ColumnReadException.Kind#MISSING_TABLE}) and a
 * refused one apart. Every call opens and closes its own client. Never logs the password.
 */
public final class HttpSqlColumnReader implements ColumnReader {

    private static final long serialVersionUID = 1L;

    /** How StarRocks (and the emulator's SQL store) word a query on a table that does not exist. */
    static final Pattern MISSING = Pattern.compile("(?i)unknown table|does not exist|doesn't exist|not found");

    private final SinkConfig options;

    /** @param options the sink's options (addresses, user, password, timeouts) */
    public HttpSqlColumnReader(SinkConfigSource options) {
        this.options = Objects.requireNonNull(options, "options").sinkConfig();
    }

    /**
     * {@inheritDoc}
     *
     * @throws ColumnReadException {@link ColumnReadException.Kind#ACCESS_DENIED} for HTTP 401/403 and for a table
     *     that exists but whose columns {@code information_schema} does not show the user,
     *     {@link ColumnReadException.Kind#MISSING_TABLE} for a table that does not exist, else
     *     {@link ColumnReadException.Kind#OUTAGE} (the client's retries are spent)
     */
    @Override
    public List<TargetColumn> columns(String database, String table) throws ColumnReadException {
        String name = database + "." + table;
        try (StarRocksSqlClient sql = new StarRocksSqlClient(SinkSettings.from(options).clientConfig(),
                LoadMetrics.noop())) {
            SqlResult result = sql.select(database, "SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE FROM "
                    + "information_schema.columns WHERE TABLE_SCHEMA = " + literal(database) + " AND TABLE_NAME = "
                    + literal(table) + " ORDER BY ORDINAL_POSITION");
            List<TargetColumn> columns = new ArrayList<>();
            for (List<Object> row : result.rows()) {
                columns.add(DescribedColumn.of(row.get(0), row.get(1), row.get(2)));
            }
            if (columns.isEmpty()) {
                // a missing table fails here, naming itself; one that exists is hidden from this user
                sql.select(database, "SELECT * FROM " + quoted(database) + "." + quoted(table) + " LIMIT 0");
                throw new ColumnReadException(ColumnReadException.Kind.ACCESS_DENIED, "Cannot read the columns of "
                        + "target table " + name + ": information_schema.columns lists none of them to user '"
                        + options.getUsername() + "' (check its SELECT privilege on the table)", null);
            }
            return columns;
        } catch (TransactionException e) {
            String message = "Cannot read the columns of target table " + name + ": " + e.getMessage();
            ColumnReadException.Kind kind = e.failureClass() == FailureClass.ACCESS_DENIED
                    ? ColumnReadException.Kind.ACCESS_DENIED
                    : MISSING.matcher(String.valueOf(e.getMessage())).find() ? ColumnReadException.Kind.MISSING_TABLE
                    : ColumnReadException.Kind.OUTAGE;
            throw new ColumnReadException(kind, message, e);
        }
    }

    /** @return {@code name} as a MySQL/StarRocks quoted identifier */
    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** @return {@code text} as a MySQL/StarRocks string literal */
    static String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
