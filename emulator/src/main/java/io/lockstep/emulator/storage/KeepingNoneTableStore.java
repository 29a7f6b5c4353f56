package io.lockstep.emulator.storage;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The {@code none} store (parse and count) for every table but a few small ones named by the caller, which are kept
 * in an in-memory H2 store and can be queried: a benchmark can count millions of data rows without storing them while
 * a sink still reads back what it committed into, say, the exactly-once progress table. Queries go to the H2 store
 * (tables not kept are empty there); {@link #rowCount} counts published rows for the others, stored rows for the kept
 * ones. A transaction's kept and counted changes are published one after the other (the counts are not read in the
 * same snapshot as the kept rows). Thread-safe: both stores are.
 */
@ThreadSafe
public final class KeepingNoneTableStore implements TableStore {
    private final NoneTableStore counted = new NoneTableStore();
    private final H2TableStore kept;
    /** Unqualified names of the kept tables; immutable. */
    private final Set<String> keptTables;

    private KeepingNoneTableStore(H2TableStore kept, Set<String> keptTables) {
        this.kept = kept;
        this.keptTables = Set.copyOf(keptTables);
    }

    /**
     * A store listening to {@code catalog} (its current tables are created in both stores).
     *
     * @param keptTables unqualified table names stored in H2, in any database
     * @throws StoreException if H2 cannot be started
     */
    public static KeepingNoneTableStore attachedTo(Catalog catalog, Set<String> keptTables) {
        KeepingNoneTableStore store = new KeepingNoneTableStore(new H2TableStore(), keptTables);
        catalog.addListener(store);
        for (TableSchema table : catalog.tables()) {
            store.tableCreated(table);
        }
        return store;
    }

    private boolean isKept(TableSchema table) {
        return keptTables.contains(table.name());
    }

    @Override
    public void databaseCreated(DatabaseInfo database) {
        kept.databaseCreated(database);
        counted.databaseCreated(database);
    }

    @Override
    public void tableCreated(TableSchema table) {
        kept.tableCreated(table);
        counted.tableCreated(table);
    }

    @Override
    public void tableDropped(TableSchema table) {
        kept.tableDropped(table);
        counted.tableDropped(table);
    }

    @Override
    public void databaseDropped(DatabaseInfo database) {
        kept.databaseDropped(database);
        counted.databaseDropped(database);
    }

    @Override
    public void tableTruncated(TableSchema table) {
        kept.tableTruncated(table);
        counted.tableTruncated(table);
    }

    @Override
    public void tableAltered(TableSchema before, TableSchema after) {
        kept.tableAltered(before, after);
        counted.tableAltered(before, after);
    }

    /** Kept tables' changes go into H2 (one H2 transaction), the others are counted. */
    @Override
    public void publish(long txnId, List<TableChanges> changes) {
        List<TableChanges> toKeep = new ArrayList<>();
        List<TableChanges> toCount = new ArrayList<>();
        for (TableChanges change : changes) {
            (isKept(change.table()) ? toKeep : toCount).add(change);
        }
        if (!toKeep.isEmpty()) {
            kept.publish(txnId, toKeep);
        }
        if (!toCount.isEmpty()) {
            counted.publish(txnId, toCount);
        }
    }

    /** Runs on the H2 store: only the kept tables hold rows. */
    @Override
    public QueryResult query(String sql) {
        return kept.query(sql);
    }

    @Override
    public QueryResult query(String sql, String currentDatabase) {
        return kept.query(sql, currentDatabase);
    }

    @Override
    public long rowCount(String database, String table) {
        return keptTables.contains(table) ? kept.rowCount(database, table) : counted.rowCount(database, table);
    }

    @Override
    public void close() {
        try {
            kept.close();
        } finally {
            counted.close();
        }
    }
}
