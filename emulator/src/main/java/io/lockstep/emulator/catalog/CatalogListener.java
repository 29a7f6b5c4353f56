package io.lockstep.emulator.catalog;

/** Told of schema changes in a {@link Catalog}; called on the thread that ran the DDL. */
public interface CatalogListener {
    void databaseCreated(DatabaseInfo database);

    void tableCreated(TableSchema table);
}
