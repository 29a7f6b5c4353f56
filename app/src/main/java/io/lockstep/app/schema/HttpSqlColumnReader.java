package io.lockstep.app.schema;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.SqlColumn;
import io.lockstep.core.client.SqlResult;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.sink.SinkSettings;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a target table's columns through the StarRocks HTTP SQL API ({@link StarRocksSqlClient}: the {@code load-url}
 * addresses, the sink's user and password): {@code SELECT * FROM `db`.`table` LIMIT 0}, whose {@code meta} line lists
 * the columns in table order (StarRocks docs, https://docs.starrocks.io/docs/sql-reference/http_sql_api/). Needs only
 * the SELECT privilege the exactly-once mode already needs for its progress table.
 */
public final class HttpSqlColumnReader implements ColumnReader {

    private static final long serialVersionUID = 1L;

    private final StarRocksSinkOptions options;

    /** @param options the sink's options (addresses, user, password, timeouts) */
    public HttpSqlColumnReader(StarRocksSinkOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public Set<String> columns(String database, String table) throws Exception {
        try (StarRocksSqlClient sql = new StarRocksSqlClient(SinkSettings.from(options).clientConfig(),
                LoadMetrics.noop())) {
            SqlResult result = sql.select(database, "SELECT * FROM " + quoted(database) + "." + quoted(table)
                    + " LIMIT 0");
            Set<String> columns = new LinkedHashSet<>();
            for (SqlColumn column : result.columns()) {
                columns.add(column.name().toLowerCase(Locale.ROOT));
            }
            return columns;
        }
    }

    /** @return {@code name} as a MySQL/StarRocks quoted identifier */
    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
