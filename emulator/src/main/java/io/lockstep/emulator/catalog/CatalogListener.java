package io.lockstep.emulator.catalog;

/**
 * Told of schema changes in a {@link Catalog}; called on the thread that ran the DDL, in the order of the changes.
 * The schema-change methods have no-op defaults for listeners that only care about creation.
 */
public interface CatalogListener {
    void databaseCreated(DatabaseInfo database);

    void tableCreated(TableSchema table);

    /** A table was dropped (also once per table of a dropped database, before {@link #databaseDropped}). */
    default void tableDropped(TableSchema table) {
    }

    /** A database was dropped, after its tables. */
    default void databaseDropped(DatabaseInfo database) {
    }

    /** Every committed row of the table was removed ({@code TRUNCATE TABLE}). */
    default void tableTruncated(TableSchema table) {
    }

    /**
     * A column was added at the end or dropped ({@code ALTER TABLE}); {@code after} has the same name and id.
     *
     * @param before the schema before the change
     * @param after  the schema after it
     */
    default void tableAltered(TableSchema before, TableSchema after) {
    }
}
