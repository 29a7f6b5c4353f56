package io.lockstep.app.create;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * A source table's shape, the input of table creation: its columns in source order and its primary key.
 *
 * @param database the source database (MySQL) or schema (PostgreSQL), as events name it in {@code source.db} /
 *     {@code source.schema}
 * @param table the source table name
 * @param columns the columns in source order, at least one
 * @param primaryKey the primary key's column names in key order; empty for a table without a primary key
 */
public record SourceTable(String database, String table, List<SourceColumn> columns, List<String> primaryKey)
        implements Serializable {

    /** @throws NullPointerException when a part is {@code null} */
    public SourceTable {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }

    /** @return {@code database.table} */
    public String qualifiedName() {
        return database + "." + table;
    }
}
