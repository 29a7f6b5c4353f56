package io.lockstep.emulator.catalog;

import java.util.List;
import java.util.Objects;

/**
 * What a {@code CREATE TABLE} declares about a table, without its name and id: the key type, the columns in order
 * and the key columns. Two {@code CREATE TABLE} statements define the same table when their definitions are equal.
 *
 * @param keysType   the table type
 * @param columns    columns in declaration order (name, type, nullability and default)
 * @param keyColumns key columns in key order
 */
public record TableDefinition(KeysType keysType, List<ColumnSchema> columns, List<String> keyColumns) {
    public TableDefinition {
        Objects.requireNonNull(keysType, "keysType");
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
    }

    /** The definition of a table as it is now. */
    public static TableDefinition of(TableSchema table) {
        return new TableDefinition(table.keysType(), table.columns(), table.keyColumns());
    }

    /**
     * The first way {@code other} differs from this definition, for a one-line error (this one named first).
     *
     * @return e.g. {@code "column 2: `v` VARCHAR(10) NULL vs `v` STRING NULL"}, or null when equal
     */
    public String firstDifference(TableDefinition other) {
        if (keysType != other.keysType) {
            return "key type: " + keysType + " vs " + other.keysType;
        }
        if (!keyColumns.equals(other.keyColumns)) {
            return "key columns: " + keyColumns + " vs " + other.keyColumns;
        }
        for (int i = 0; i < Math.max(columns.size(), other.columns.size()); i++) {
            String here = i < columns.size() ? describe(columns.get(i)) : "absent";
            String there = i < other.columns.size() ? describe(other.columns.get(i)) : "absent";
            if (!here.equals(there)) {
                return "column " + (i + 1) + ": " + here + " vs " + there;
            }
        }
        return null;
    }

    private static String describe(ColumnSchema column) {
        ColumnType t = column.type();
        StringBuilder s = new StringBuilder("`").append(column.name()).append("` ").append(t.kind());
        if (t.precision() >= 0) {
            s.append('(').append(t.precision()).append(", ").append(t.scale()).append(')');
        } else if (t.length() >= 0) {
            s.append('(').append(t.length()).append(')');
        }
        s.append(column.nullable() ? " NULL" : " NOT NULL");
        if (column.defaultValue() != null) {
            s.append(" DEFAULT '").append(column.defaultValue()).append('\'');
        }
        return s.toString();
    }
}
