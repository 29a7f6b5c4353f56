package io.lockstep.emulator.catalog;

import java.util.List;
import java.util.Objects;

/**
 * The catalog as a store kept it: what {@link InMemoryCatalog#restore} rebuilds after a restart.
 *
 * @param databases the databases with their ids
 * @param tables    the tables as they are now, each with the definition it was created with
 * @param nextId    the next id to hand out (greater than every id ever handed out, dropped objects included)
 */
public record CatalogSnapshot(List<DatabaseInfo> databases, List<StoredTable> tables, long nextId) {
    public CatalogSnapshot {
        databases = List.copyOf(databases);
        tables = List.copyOf(tables);
    }

    /** Nothing stored (a new file). */
    public static CatalogSnapshot empty() {
        return new CatalogSnapshot(List.of(), List.of(), InMemoryCatalog.FIRST_ID);
    }

    /**
     * One stored table.
     *
     * @param table   the table now (later {@code ALTER TABLE}s applied)
     * @param created what its {@code CREATE TABLE} declared; a {@code --ddl} run again at start is compared with it
     */
    public record StoredTable(TableSchema table, TableDefinition created) {
        public StoredTable {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(created, "created");
        }
    }
}
