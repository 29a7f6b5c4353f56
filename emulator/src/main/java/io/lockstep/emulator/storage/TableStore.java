package io.lockstep.emulator.storage;

import io.lockstep.emulator.catalog.CatalogListener;
import java.util.List;

/**
 * Where committed data lives. Implementations: H2 (SQL-queryable) and {@code none} (counts only, for
 * benchmarks). Thread-safe. Listens to the catalog to create its tables.
 */
public interface TableStore extends CatalogListener, AutoCloseable {

    /**
     * Publishes one committed transaction: applies every table's changes in ONE store transaction, so a reader
     * sees all of them or none (the atomic visibility StarRocks gives a multi-table transaction).
     *
     * @param txnId   the StarRocks transaction id (for logs and errors)
     * @param changes changes per table; may span several tables of one database
     * @throws StoreException if the store fails; then nothing of the transaction is visible
     */
    void publish(long txnId, List<TableChanges> changes);

    /**
     * Runs a read-only SQL query in one consistent snapshot; tables are named {@code database.table}.
     *
     * @throws StoreException with the store's message for invalid SQL, or if this store cannot be queried
     */
    QueryResult query(String sql);

    /**
     * Runs a read-only query as {@link #query(String)} does, with unqualified table names resolved in
     * {@code currentDatabase} (a SQL session's database; null: none).
     *
     * @throws StoreException as {@link #query(String)}
     */
    QueryResult query(String sql, String currentDatabase);

    /** Rows stored in a table (for the {@code none} store: rows published, upserts and deletes counted). */
    long rowCount(String database, String table);

    @Override
    void close();
}
