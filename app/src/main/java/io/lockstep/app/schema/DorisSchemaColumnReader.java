package io.lockstep.app.schema;

import io.lockstep.core.client.DorisTableSchemaClient;
import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.sink.SinkSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Reads an Apache Doris table's columns with their types through the FE's HTTP interface, when no
 * {@code --jdbc-url} is given: {@code GET /api/{db}/{table}/_schema} ({@link DorisTableSchemaClient}; Doris FE
 * {@code httpv2/rest/TableSchemaAction.java}), with the {@code load-url} addresses and the sink's user and password.
 *
 * <p>The reply names each column's Doris {@code PrimitiveType} and, for a DECIMAL, its precision and scale, but no
 * CHAR/VARCHAR length and no nullability. So the types are read as {@link ValueRules} knows them (BOOLEAN, TINYINT ..
 * LARGEINT, FLOAT, DOUBLE, {@code decimal(p,s)}, DATE/DATEV2 as {@code date}, DATETIME/DATETIMEV2 as
 * {@code datetime}), while CHAR, VARCHAR and STRING columns get no type (their length is not checked) and every column
 * counts as nullable (NULL into a NOT NULL column is not checked): those are left to the server's strict mode, which
 * refuses the whole load (docs/dead-letter.md, "Bad values"). {@link JdbcColumnReader} ({@code --jdbc-url}) reads
 * both and is preferred when given.
 *
 * <p>Errors: refused credentials or privilege are {@link ColumnReadException.Kind#ACCESS_DENIED}, an unknown
 * database or table {@link ColumnReadException.Kind#MISSING_TABLE}, anything else (once the client's retries are
 * spent) {@link ColumnReadException.Kind#OUTAGE}. Every call opens and closes its own client. Never logs the
 * password.
 */
public final class DorisSchemaColumnReader implements ColumnReader {

    private static final long serialVersionUID = 1L;
    /** How the Doris FE words a table or database that does not exist ({@code errCode = 2, detailMessage = ..}). */
    private static final Pattern MISSING = Pattern.compile("(?i)unknown (table|database)|does not exist");

    private final SinkConfig options;

    /** @param options the sink's options (addresses, user, password, timeouts, retries) */
    public DorisSchemaColumnReader(SinkConfigSource options) {
        this.options = Objects.requireNonNull(options, "options").sinkConfig();
    }

    @Override
    public List<TargetColumn> columns(String database, String table) throws ColumnReadException {
        try (DorisTableSchemaClient client = new DorisTableSchemaClient(SinkSettings.from(options).clientConfig(),
                LoadMetrics.noop())) {
            List<TargetColumn> columns = new ArrayList<>();
            for (DorisTableSchemaClient.Column column : client.columns(database, table)) {
                columns.add(new TargetColumn(column.name(), type(column), true));
            }
            return columns;
        } catch (TransactionException e) {
            String message = "Cannot read the columns of target table " + database + "." + table + ": "
                    + e.getMessage();
            ColumnReadException.Kind kind = e.failureClass() == FailureClass.ACCESS_DENIED
                    ? ColumnReadException.Kind.ACCESS_DENIED
                    : e.failureClass() == FailureClass.DATA_ERROR
                            && MISSING.matcher(String.valueOf(e.getMessage())).find()
                            ? ColumnReadException.Kind.MISSING_TABLE
                            : ColumnReadException.Kind.OUTAGE;
            throw new ColumnReadException(kind, message, e);
        }
    }

    /**
     * @return the type as {@link ValueRules} reads it, or {@code null} where {@code _schema} does not say enough to
     *     check a value (CHAR/VARCHAR/STRING without length, a DECIMAL without precision, types the rules do not
     *     know)
     */
    static String type(DorisTableSchemaClient.Column column) {
        String type = column.type() == null ? "" : column.type().strip().toUpperCase(Locale.ROOT);
        return switch (type) {
            case "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "LARGEINT", "FLOAT", "DOUBLE" ->
                    type.toLowerCase(Locale.ROOT);
            case "DATE", "DATEV2" -> "date";
            case "DATETIME", "DATETIMEV2" -> "datetime";
            case "DECIMALV2", "DECIMAL32", "DECIMAL64", "DECIMAL128", "DECIMAL128I", "DECIMAL256" ->
                    column.precision() == null ? null
                            : "decimal(" + column.precision() + "," + (column.scale() == null ? 0 : column.scale())
                                    + ")";
            default -> null; // CHAR, VARCHAR, STRING (no length), JSONB, ARRAY, MAP, ...: left to strict mode
        };
    }
}
