package io.lockstep.core.engine;

import io.lockstep.core.format.LoadFormat;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Keeps one column set per table in a transaction when the table is loaded with {@code partial_update: true}.
 *
 * <p>StarRocks requires every load of a transaction to carry the same load parameters and plans a table's part of a
 * multi-table transaction from its first load (StarRocks docs, "Stream Load transaction interface"); in a partial
 * update (row mode) the {@code columns} header names the columns a load writes, and the other columns keep their
 * stored values ("Change data through loading", partial updates). A row that carries other columns than the
 * declared ones would silently lose them (missing columns written from the header's plan, extra keys ignored), so
 * such a row is refused before it is buffered: its column names (a JSON row's keys, read by the engine's
 * {@link LoadFormat#columnNames}) must equal the declared source columns (the {@code columns} items without
 * {@code =}), compared case-insensitively.
 *
 * <p>Task thread only (the cache is a plain map). Rows of tables without {@code partial_update: true} are not parsed.
 */
final class PartialUpdateRows {
    /**
     * Declared source columns (lower case) per database, then table; empty when the table is not a partial update.
     * Two lookups instead of a "db.table" key: the task thread asks once per row, and must not build a string for it.
     */
    private final Map<String, Map<String, Optional<TreeSet<String>>>> declared = new HashMap<>();
    private final LoadEngineConfig config;
    /**
     * The target of the last lookup and its answer (null before the first): rows of one table often come in a run,
     * and comparing two names is cheaper than hashing them (a deserialized row's names are new strings).
     */
    private String lastDatabase;
    private String lastTable;
    private Optional<TreeSet<String>> lastColumns;

    /** @param config the stream load headers of every table and the load format that reads a row's columns */
    PartialUpdateRows(LoadEngineConfig config) {
        this.config = config;
    }

    /**
     * @param where names the row's target in the message, e.g. "db.orders (partition 3)"
     * @throws IllegalArgumentException when the table is a partial update and the row's keys differ from the
     *                                  declared columns (both named, never a value), or when such a table declares
     *                                  no {@code columns}
     */
    void check(String database, String table, byte[] row, String where) {
        check(database, table, row, () -> where);
    }

    /**
     * Like {@link #check(String, String, byte[], String)}, with the row's description built only when a message
     * needs it (rows of tables that are no partial update cost two map lookups).
     */
    void check(String database, String table, byte[] row, java.util.function.Supplier<String> where) {
        Optional<TreeSet<String>> columns = declared(database, table);
        if (columns.isEmpty()) {
            return;
        }
        SortedSet<String> keys = config.loadFormat().columnNames(row, where.get());
        if (!keys.equals(columns.get())) {
            throw new IllegalArgumentException("row for " + where.get() + " has keys " + keys + " but the partial "
                    + "update of " + database + "." + table + " declares columns " + columns.get() + " (sink.properties.columns): "
                    + "a transaction carries one column set per table, and a row with other keys would lose columns"
                    + " or overwrite them; send these rows to a sink whose columns match them");
        }
    }

    /**
     * True if {@code database.table} is loaded with {@code partial_update: true}, so that its rows need
     * {@link #check}: two map lookups, no allocation (the caller builds the check's message only then).
     *
     * @throws IllegalArgumentException as {@link #check(String, String, byte[], String)}, when the table is a
     *                                  partial update that declares no {@code columns}
     */
    boolean isPartialUpdate(String database, String table) {
        return declared(database, table).isPresent();
    }

    private Optional<TreeSet<String>> declared(String database, String table) {
        if (lastColumns != null && table.equals(lastTable) && database.equals(lastDatabase)) {
            return lastColumns;
        }
        Optional<TreeSet<String>> columns = lookUp(database, table);
        lastDatabase = database;
        lastTable = table;
        lastColumns = columns;
        return columns;
    }

    private Optional<TreeSet<String>> lookUp(String database, String table) {
        Map<String, Optional<TreeSet<String>>> tables = declared.get(database);
        if (tables == null) {
            tables = new HashMap<>();
            declared.put(database, tables);
        }
        Optional<TreeSet<String>> columns = tables.get(table);
        if (columns == null) {
            columns = declaredColumns(config.loadPropertiesFor(database, table), database + "." + table);
            tables.put(table, columns);
        }
        return columns;
    }

    private static Optional<TreeSet<String>> declaredColumns(Map<String, String> properties, String table) {
        String partial = properties.get("partial_update");
        if (partial == null || !partial.trim().equalsIgnoreCase("true")) {
            return Optional.empty();
        }
        String header = properties.get("columns");
        if (header == null || header.isBlank()) {
            throw new IllegalArgumentException("table " + table + " is loaded with partial_update=true but declares no"
                    + " columns: set sink.properties.columns to the columns its rows carry (StarRocks partial update)");
        }
        TreeSet<String> columns = new TreeSet<>();
        for (String item : header.split(",")) {
            String name = item.trim();
            if (!name.isEmpty() && !name.contains("=")) {
                columns.add(unquote(name).toLowerCase(Locale.ROOT));
            }
        }
        return Optional.of(columns);
    }

    private static String unquote(String name) {
        return name.length() >= 2 && name.startsWith("`") && name.endsWith("`")
                ? name.substring(1, name.length() - 1) : name;
    }
}
