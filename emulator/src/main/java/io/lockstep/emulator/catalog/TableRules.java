package io.lockstep.emulator.catalog;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The StarRocks rules a table definition must follow before it is created, shared by the DDL parser and the
 * Java API ({@link Catalog#createTable}).
 *
 * <p>Sources: StarRocks docs "CREATE TABLE" (sort/key columns must be defined first and in key order) and
 * "Primary Key table" (primary key columns are NOT NULL; they may be BOOLEAN, integer, DATE, DATETIME or string
 * types); FLOAT/DOUBLE and JSON cannot be key columns of any table type.
 */
final class TableRules {
    private TableRules() {
    }

    /**
     * @return what is wrong with the definition, or null when it is valid
     */
    static String violation(KeysType keysType, List<ColumnSchema> columns, List<String> keyColumns) {
        if (columns.isEmpty()) {
            return "a table needs at least one column";
        }
        Set<String> seen = new HashSet<>();
        for (ColumnSchema column : columns) {
            if (column.name().isEmpty()) {
                return "a column name is empty";
            }
            if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
                return "duplicate column name '" + column.name() + "'";
            }
        }
        if (keyColumns.isEmpty()) {
            return "the key column list is empty";
        }
        if (keyColumns.size() > columns.size()) {
            return "more key columns than columns";
        }
        for (int i = 0; i < keyColumns.size(); i++) {
            String key = keyColumns.get(i);
            boolean exists = columns.stream().anyMatch(c -> c.name().equalsIgnoreCase(key));
            if (!exists) {
                return "key column '" + key + "' is not a column of the table";
            }
            ColumnSchema column = columns.get(i);
            if (!column.name().equalsIgnoreCase(key)) {
                return "key columns must be the first columns of the table, in key order: key column " + (i + 1)
                        + " is '" + key + "' but column " + (i + 1) + " is '" + column.name() + "'";
            }
            String problem = keyColumnProblem(keysType, column);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String keyColumnProblem(KeysType keysType, ColumnSchema column) {
        ColumnType.Kind kind = column.type().kind();
        if (kind == ColumnType.Kind.JSON || kind == ColumnType.Kind.FLOAT || kind == ColumnType.Kind.DOUBLE) {
            return "key column '" + column.name() + "' cannot be of type " + kind;
        }
        if (keysType == KeysType.PRIMARY_KEYS) {
            if (kind == ColumnType.Kind.DECIMAL) {
                return "primary key column '" + column.name() + "' cannot be of type DECIMAL; use BOOLEAN, an"
                        + " integer, DATE, DATETIME or a string type";
            }
        }
        if (keysType.upsertsByKey() && column.nullable()) {
            String what = keysType == KeysType.UNIQUE_KEYS ? "unique key column '" : "primary key column '";
            String limit = keysType == KeysType.UNIQUE_KEYS ? " in the emulator" : "";
            return what + column.name() + "' cannot be nullable" + limit + "; declare it NOT NULL";
        }
        return null;
    }
}
