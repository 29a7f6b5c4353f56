package io.lockstep.core.engine;

/**
 * The one database of a multi-table engine's shared transactions: a StarRocks multi-table transaction covers one
 * database (StarRocks docs, "Stream Load transaction interface": one database, many tables). Fixed by the config, or
 * by the first row written when the sink routes by {@code *}; a row for another database is refused.
 *
 * <p>Threads: written once by the task thread ({@link #check}); read by any thread ({@link #get}), hence volatile.
 */
final class TransactionDatabase {
    /** Written by the task thread only, at most once from null. */
    private volatile String name;

    /** @param configured the configured database, or null to take it from the first row */
    TransactionDatabase(String configured) {
        this.name = configured;
    }

    /** The database, or null before the first row when none is configured. */
    String get() {
        return name;
    }

    /**
     * Task thread: fixes the database on the first row, then refuses any other.
     *
     * @throws IllegalArgumentException naming the table, its database and this engine's
     */
    void check(String database, String table) {
        String current = name;
        if (current == null) {
            name = database;
        } else if (!current.equals(database)) {
            throw new IllegalArgumentException("cross-database write refused: table " + database + "." + table
                    + " is in database '" + database + "' but this subtask's multi-table transactions load into "
                    + "database '" + current + "'; a StarRocks multi-table transaction covers one database "
                    + "(StarRocks docs, Stream Load transaction interface: one database, many tables)");
        }
    }
}
