package io.lockstep.core.restart;

import java.util.Objects;

/**
 * One target table: labels are scoped per database (docs/protocol.md#labels-and-label-state), so a label probe needs
 * both parts.
 *
 * @param database the database
 * @param table    the table, as the user named it (not sanitized)
 */
public record TableId(String database, String table) {
    public TableId {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}
