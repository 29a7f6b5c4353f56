package io.lockstep.core.buffer;

import java.util.Objects;

/**
 * Identifies a region: one (source partition, database, table) of one sink subtask.
 *
 * @param partition source partition, -1 when the source has none
 * @param database  target database
 * @param table     target table
 */
public record RegionKey(int partition, String database, String table) {
    public RegionKey {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
    }

    @Override
    public String toString() {
        return describe(partition, database, table);
    }

    /** How messages name a region, e.g. {@code db.orders (partition 3)}, without building its key. */
    public static String describe(int partition, String database, String table) {
        return database + "." + table + " (partition " + partition + ")";
    }
}
