package io.lockstep.emulator.catalog;

import java.util.List;
import java.util.Objects;

/**
 * The schema of one table, created from DDL.
 *
 * @param database   database name
 * @param name       table name
 * @param tableId    id assigned by the {@link Catalog}, unique within the emulator
 * @param keysType   PRIMARY KEY or DUPLICATE KEY
 * @param columns    columns in declaration order (the order of {@code RowChange} values)
 * @param keyColumns names of the key columns, in key order
 */
public record TableSchema(String database, String name, long tableId, KeysType keysType,
                          List<ColumnSchema> columns, List<String> keyColumns) {
    public TableSchema {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keysType, "keysType");
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
    }

    /** {@code database.table}, the name readers use in SQL queries. */
    public String qualifiedName() {
        return database + "." + name;
    }

    /**
     * Index of a column by name, matched case-insensitively as StarRocks does.
     *
     * @return the index in {@link #columns()}, or -1 when the table has no such column
     */
    public int columnIndex(String columnName) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(columnName)) {
                return i;
            }
        }
        return -1;
    }
}
