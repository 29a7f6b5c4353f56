package io.lockstep.flink.sink;

import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.TableRow;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * Where a row goes: {@code database-name} / {@code table-name} name the target, or {@code *} takes it from each row's
 * {@link TableRow#getDatabase()} / {@link TableRow#getTable()} (as in
 * https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/). The two are independent:
 * {@code database-name=shop, table-name=*} routes by table within {@code shop}.
 *
 * <p>Immutable and serializable (shipped inside the sink function).
 */
public final class RowRouting implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A resolved target table. */
    public record Target(String database, String table) {
        /** {@code database.table}. */
        @Override
        public String toString() {
            return database + "." + table;
        }
    }

    /** The fixed database, or null to take each row's. */
    @Nullable
    private final String database;
    /** The fixed table, or null to take each row's. */
    @Nullable
    private final String table;

    private RowRouting(@Nullable String database, @Nullable String table) {
        this.database = database;
        this.table = table;
    }

    /** The routing of {@code database-name} and {@code table-name}. */
    public static RowRouting from(SinkConfig options) {
        return new RowRouting(fixed(options.getDatabaseName()), fixed(options.getTableName()));
    }

    private static String fixed(String option) {
        return SinkOptionDefinitions.WILDCARD.equals(option) ? null : option;
    }

    /**
     * The target of {@code row}.
     *
     * @throws IllegalArgumentException if routing by row and the row's database or table is null or blank, or if a
     *                                  fixed database or table differs from the one the row names (the message names
     *                                  the option and the row's unique key and partition)
     */
    public Target route(TableRow row) {
        String db = databaseOf(row);
        return new Target(db, tableOf(row));
    }

    /**
     * The target database of {@code row}: {@link #route}'s database, without a {@link Target} (the sink asks once per
     * row; call it before {@link #tableOf}, as {@link #route} checks the database first).
     *
     * @throws IllegalArgumentException as {@link #route}, for the database
     */
    public String databaseOf(TableRow row) {
        return database != null ? fixedMatchesRow(database, row.getDatabase(), "database", "database-name", row)
                : fromRow(row.getDatabase(), "database", "database-name", row);
    }

    /**
     * The target table of {@code row}: {@link #route}'s table, without a {@link Target}.
     *
     * @throws IllegalArgumentException as {@link #route}, for the table
     */
    public String tableOf(TableRow row) {
        return table != null ? fixedMatchesRow(table, row.getTable(), "table", "table-name", row)
                : fromRow(row.getTable(), "table", "table-name", row);
    }

    /**
     * A fixed target wins only over a row that names no target of its own: a row naming another database or table
     * is refused rather than silently written somewhere it did not ask for.
     */
    private static String fixedMatchesRow(String fixed, String fromRow, String what, String option,
                                          TableRow row) {
        if (fromRow != null && !fromRow.isBlank() && !fixed.equals(fromRow)) {
            throw new IllegalArgumentException("row " + describe(row) + " is for " + what + " '" + fromRow
                    + "' but sink option '" + option + "' = '" + fixed + "'; set '" + option + "' = '*' to route "
                    + "each row by its own " + what + ", or leave the row's " + what + " empty");
        }
        return fixed;
    }

    private static String fromRow(String value, String what, String option, TableRow row) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("row " + describe(row) + " has no " + what + ": sink option '"
                    + option + "' = '*' routes each row by its own " + what + "; set it on the row (e.g. new "
                    + "DefaultStarRocksRowData(null, database, table, json)) or configure '" + option + "'");
        }
        return value;
    }

    /**
     * The element as a {@link TableRow} (any {@code StarRocksRowData} of the connector's API is one).
     *
     * @throws IllegalArgumentException naming the element's class if it is not one
     */
    public static TableRow asRowData(Object element) {
        if (element instanceof TableRow row) {
            return row;
        }
        throw new IllegalArgumentException("the StarRocks sink takes StarRocksRowData elements (e.g. "
                + "DefaultStarRocksRowData), got " + (element == null ? "null" : element.getClass().getName()));
    }

    /**
     * The row's JSON (or CSV line) as UTF-8 bytes, or null when the row carries no data ({@code getRow()} null or
     * empty). A {@link LoadRow} gives its {@link LoadRow#rowUtf8()}: the bytes it was deserialized from when it still
     * holds them (not decoded to a {@code String} and encoded again), else its {@code getRow()} encoded.
     *
     * @return the bytes, possibly shared with the row: the caller must not modify them
     */
    @Nullable
    public static byte[] payload(TableRow row) {
        if (row instanceof LoadRow loadRow) {
            byte[] utf8 = loadRow.rowUtf8();
            return utf8 == null || utf8.length == 0 ? null : utf8;
        }
        String json = row.getRow();
        return json == null || json.isEmpty() ? null : json.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A short description of a row for error messages: unique key (or database.table) and source partition, never
     * the row's data.
     */
    public static String describe(TableRow row) {
        String key = row.getUniqueKey();
        if (key == null) {
            key = row.getDatabase() + "." + row.getTable();
        }
        return "'" + key + "' (source partition " + row.getSourcePartition() + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowRouting other && Objects.equals(database, other.database)
                && Objects.equals(table, other.table);
    }

    @Override
    public int hashCode() {
        return Objects.hash(database, table);
    }
}
