package io.lockstep.app.route;

import java.io.Serializable;
import java.util.Objects;

/**
 * A StarRocks table a source table loads into.
 *
 * @param database target database
 * @param table target table
 */
public record TargetTable(String database, String table) implements Serializable {

    /** @throws NullPointerException when a name is {@code null} */
    public TargetTable {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}
