package io.lockstep.emulator.storage;

import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The {@code none} storage mode, for benchmarks: loads are parsed and counted, nothing is stored.
 * {@link #rowCount} is the number of rows published into the table (upserts and deletes alike, duplicates
 * included); {@link #query} always fails. Thread-safe: counters are atomics in a concurrent map.
 */
@ThreadSafe
public final class NoneTableStore implements TableStore {
    /** Rows published per table, by qualified name. */
    private final Map<String, AtomicLong> rowsByTable = new ConcurrentHashMap<>();

    @Override
    public void databaseCreated(DatabaseInfo database) {
        // nothing to create
    }

    @Override
    public void tableCreated(TableSchema table) {
        rowsByTable.putIfAbsent(table.qualifiedName(), new AtomicLong());
    }

    /**
     * Counts the rows of every table. Tables the store was not told about are counted too.
     */
    @Override
    public void publish(long txnId, List<TableChanges> changes) {
        for (TableChanges change : changes) {
            rowsByTable.computeIfAbsent(change.table().qualifiedName(), k -> new AtomicLong())
                    .addAndGet(change.rows().size());
        }
    }

    /**
     * @throws StoreException always: the none store keeps no data
     */
    @Override
    public QueryResult query(String sql) {
        throw new StoreException("the 'none' store keeps no data and cannot be queried; run the emulator with the"
                + " H2 store to query loaded rows");
    }

    /**
     * @throws StoreException always: the none store keeps no data
     */
    @Override
    public QueryResult query(String sql, String currentDatabase) {
        return query(sql);
    }

    /** Forgets the table's count. */
    @Override
    public void tableDropped(TableSchema table) {
        rowsByTable.remove(table.qualifiedName());
    }

    /** Resets the table's count. */
    @Override
    public void tableTruncated(TableSchema table) {
        rowsByTable.put(table.qualifiedName(), new AtomicLong());
    }

    @Override
    public long rowCount(String database, String table) {
        AtomicLong count = rowsByTable.get(database + "." + table);
        return count == null ? 0 : count.get();
    }

    @Override
    public void close() {
        rowsByTable.clear();
    }
}
