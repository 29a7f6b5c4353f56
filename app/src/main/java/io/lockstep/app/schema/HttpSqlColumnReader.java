package io.lockstep.app.schema;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.SqlColumn;
import io.lockstep.core.client.SqlResult;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.sink.SinkSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Reads a target table's columns through the StarRocks HTTP SQL API ({@link StarRocksSqlClient}: the {@code load-url}
 * addresses, the sink's user and password): {@code SELECT * FROM `db`.`table` LIMIT 0}, whose {@code meta} line lists
 * the columns in table order (StarRocks docs, https://docs.starrocks.io/docs/sql-reference/http_sql_api/). Needs only
 * the SELECT privilege the exactly-once mode already needs for its progress table.
 */
public final class HttpSqlColumnReader implements ColumnReader {

    private static final long serialVersionUID = 1L;

    /** How StarRocks (and the emulator's SQL store) word a query on a table that does not exist. */
    static final Pattern MISSING = Pattern.compile("(?i)unknown table|does not exist|doesn't exist|not found");

    private final StarRocksSinkOptions options;

    /** @param options the sink's options (addresses, user, password, timeouts) */
    public HttpSqlColumnReader(StarRocksSinkOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * {@inheritDoc} Only the names: the {@code meta} line's types carry no length or nullability, so the values of
     * these columns are left to the server's strict mode (docs/dead-letter.md).
     *
     * @throws ColumnReadException {@link ColumnReadException.Kind#ACCESS_DENIED} for HTTP 401/403,
     *     {@link ColumnReadException.Kind#MISSING_TABLE} for a query refused because the table does not exist, else
     *     {@link ColumnReadException.Kind#OUTAGE} (the client's retries are spent)
     */
    @Override
    public List<TargetColumn> columns(String database, String table) throws ColumnReadException {
        try (StarRocksSqlClient sql = new StarRocksSqlClient(SinkSettings.from(options).clientConfig(),
                LoadMetrics.noop())) {
            SqlResult result = sql.select(database, "SELECT * FROM " + quoted(database) + "." + quoted(table)
                    + " LIMIT 0");
            List<TargetColumn> columns = new ArrayList<>();
            for (SqlColumn column : result.columns()) {
                columns.add(TargetColumn.named(column.name()));
            }
            return columns;
        } catch (TransactionException e) {
            String message = "Cannot read the columns of target table " + database + "." + table + ": "
                    + e.getMessage();
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
}
