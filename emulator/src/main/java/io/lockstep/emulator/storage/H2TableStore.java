package io.lockstep.emulator.storage;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.CatalogSnapshot;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.RowChange;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;
import org.h2.api.ErrorCode;

/**
 * A {@link TableStore} in an in-memory H2 database (one per store): one schema per StarRocks database, one table
 * per StarRocks table (types mapped by {@link H2Sql}), PRIMARY KEY and (Doris) UNIQUE KEY tables with an H2
 * primary key.
 *
 * <p>Writes: {@link #publish} applies all tables of one StarRocks transaction in ONE H2 transaction on the single
 * writer connection, under {@code writeLock}, so publishes are serialized in call order. PRIMARY KEY and UNIQUE KEY
 * tables: the
 * rows are first reduced to the last change per key (a later row wins, as in StarRocks), then deletes run as
 * {@code DELETE ... WHERE key = ?} and upserts as {@code MERGE ... KEY (...)}. DUPLICATE KEY tables get plain
 * {@code INSERT}s; a delete row for a DUPLICATE KEY table is rejected before anything is written (the load parser
 * never makes one: the delete flag ({@code __op}, {@code __DORIS_DELETE_SIGN__}) is read only on key-upsert tables).
 *
 * <p>Reads: every {@link #query} opens its own connection as a read-only H2 user (SELECT granted on each schema,
 * nothing else) with isolation level SNAPSHOT, runs the one statement and closes the connection. H2's MVStore gives
 * that statement one snapshot of all tables, taken between two commits, so a reader sees every table of a
 * published transaction or none of them ({@code H2TableStoreConsistencyTest} checks this under concurrent
 * publishes). Per-call connections keep the store free of pooled state; opening an embedded H2 connection costs
 * well under a millisecond.
 *
 * <p>Catalog: every database and table created, altered or dropped is also recorded in the store's own tables
 * ({@link H2CatalogTables}); {@link #storedCatalog()} reads them back, so that a file store restarted brings back
 * the catalog with the rows.
 *
 * <p>Thread-safe.
 */
@ThreadSafe
public final class H2TableStore implements TableStore {
    private static final String READER = "LOCKSTEP_READER";
    private static final Pattern READ_ONLY = Pattern.compile("^(?is)\\s*(\\(\\s*)*(SELECT|WITH)\\b.*");

    /** URL of the database; readers connect with it, without settings (changing settings needs admin rights). */
    private final String url;
    private final String readerPassword = UUID.randomUUID().toString();
    private final Object writeLock = new Object();
    @GuardedBy("writeLock")
    private final Connection writer;
    /** Written under writeLock; volatile so that readers see it without the lock. */
    private volatile boolean closed;
    /** Tables this store has created, by qualified name; written under writeLock, read by any thread. */
    private final Map<String, TableSchema> tables = new ConcurrentHashMap<>();

    /**
     * Creates an empty in-memory H2 database.
     *
     * @throws StoreException if H2 cannot be started
     */
    public H2TableStore() {
        this("jdbc:h2:mem:lockstep-" + UUID.randomUUID(), "");
    }

    /**
     * Opens (or creates) an H2 database in a file, so committed rows and the catalog survive a restart of the
     * emulator ({@link #storedCatalog()} gives the catalog back).
     *
     * @param path the database file without H2's {@code .mv.db} suffix, e.g. {@code data/emulator}
     * @return the store
     * @throws StoreException if H2 cannot open it (e.g. another process holds it)
     */
    public static H2TableStore inFile(Path path) {
        // WRITE_DELAY=0: H2's MVStore otherwise writes committed changes to the file only every 500 ms from a
        // background thread, so a kill -9 loses what the emulator already acknowledged; with 0 every commit is
        // written to the file before commit() returns (h2database.com/html/commands.html#set_write_delay).
        return new H2TableStore("jdbc:h2:file:" + path.toAbsolutePath(), ";WRITE_DELAY=0");
    }

    /** @param writerSettings extra URL settings of the admin connection that opens the database */
    private H2TableStore(String url, String writerSettings) {
        this.url = url;
        try {
            this.writer = connect(url + ";DB_CLOSE_DELAY=-1;DATABASE_TO_LOWER=TRUE" + writerSettings, "SA", "");
            writer.setAutoCommit(false);
            try (Statement statement = writer.createStatement()) {
                // a file database already has the reader from an earlier start: it gets this start's password
                statement.execute("CREATE USER IF NOT EXISTS " + READER + " PASSWORD '" + readerPassword + "'");
                statement.execute("ALTER USER " + READER + " SET PASSWORD '" + readerPassword + "'");
            }
            H2CatalogTables.create(writer);
            writer.commit();
        } catch (SQLException e) {
            throw new StoreException("cannot start the H2 store: " + e.getMessage(), e);
        }
    }

    /**
     * Creates a store holding the catalog's current tables and listening for new ones.
     *
     * @throws StoreException if H2 cannot be started
     */
    public static H2TableStore attachedTo(Catalog catalog) {
        return attachedTo(catalog, new H2TableStore());
    }

    /**
     * Attaches {@code store} to the catalog: it creates the catalog's current tables and listens for new ones.
     *
     * @return {@code store}
     */
    public static H2TableStore attachedTo(Catalog catalog, H2TableStore store) {
        catalog.addListener(store);
        for (DatabaseInfo database : catalog.databases()) {
            store.databaseCreated(database);
        }
        for (TableSchema table : catalog.tables()) {
            store.tableCreated(table);
        }
        return store;
    }

    private static Connection connect(String url, String user, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return new org.h2.Driver().connect(url, properties);
    }

    /**
     * The catalog this store recorded (empty for a new store): what a restarted file store gives
     * {@link io.lockstep.emulator.catalog.InMemoryCatalog#restore}.
     *
     * @throws StoreException if the catalog tables cannot be read, naming the table whose definition is broken, or
     *                        when a kept table's columns are not the ones its H2 table has (the emulator stopped
     *                        between the two steps of a schema change), naming the table and both column lists
     */
    public CatalogSnapshot storedCatalog() {
        synchronized (writeLock) {
            ensureOpen();
            try {
                CatalogSnapshot snapshot = H2CatalogTables.load(writer);
                for (CatalogSnapshot.StoredTable stored : snapshot.tables()) {
                    H2CatalogTables.checkColumns(writer, stored.table());
                }
                writer.commit();
                return snapshot;
            } catch (SQLException e) {
                throw new StoreException("cannot read the stored catalog: " + e.getMessage(), e);
            }
        }
    }

    /** Creates the schema, lets the read-only user read it and records the database. Idempotent. */
    @Override
    public void databaseCreated(DatabaseInfo database) {
        synchronized (writeLock) {
            ensureOpen();
            createSchema(database.name());
            recordCatalog("database " + database.name(), c -> H2CatalogTables.saveDatabase(c, database));
        }
    }

    /** A step writing the catalog tables on the writer connection. */
    private interface CatalogStep {
        void run(Connection writer) throws SQLException;
    }

    @GuardedBy("writeLock")
    private void recordCatalog(String what, CatalogStep step) {
        try {
            step.run(writer);
            writer.commit();
        } catch (SQLException e) {
            rollbackQuietly(e);
            throw new StoreException("cannot record " + what + " in the stored catalog: " + e.getMessage(), e);
        }
    }

    @GuardedBy("writeLock")
    private void createSchema(String database) {
        try (Statement statement = writer.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS " + H2Sql.quote(database));
            statement.execute("GRANT SELECT ON SCHEMA " + H2Sql.quote(database) + " TO " + READER);
            writer.commit();
        } catch (SQLException e) {
            throw new StoreException("cannot create schema for database " + database + ": " + e.getMessage(), e);
        }
    }

    /** Creates the table (and its schema if needed). Idempotent. */
    @Override
    public void tableCreated(TableSchema table) {
        synchronized (writeLock) {
            ensureOpen();
            createSchema(table.database());
            try (Statement statement = writer.createStatement()) {
                statement.execute(H2Sql.createTable(table));
                writer.commit();
            } catch (SQLException e) {
                throw new StoreException("cannot create table " + table.qualifiedName() + ": " + e.getMessage(), e);
            }
            recordCatalog("table " + table.qualifiedName(), c -> H2CatalogTables.saveCreatedTable(c, table));
            tables.put(table.qualifiedName(), table);
        }
    }

    /** Drops the table and its rows. */
    @Override
    public void tableDropped(TableSchema table) {
        schemaChange(table, "DROP TABLE IF EXISTS " + H2Sql.tableName(table), "drop");
        synchronized (writeLock) {
            recordCatalog("the drop of table " + table.qualifiedName(), c -> H2CatalogTables.deleteTable(c, table));
        }
        tables.remove(table.qualifiedName());
    }

    /** Drops the schema (its tables were dropped one by one before). */
    @Override
    public void databaseDropped(DatabaseInfo database) {
        synchronized (writeLock) {
            ensureOpen();
            try (Statement statement = writer.createStatement()) {
                statement.execute("DROP SCHEMA IF EXISTS " + H2Sql.quote(database.name()) + " CASCADE");
                writer.commit();
            } catch (SQLException e) {
                throw new StoreException("cannot drop schema of database " + database.name() + ": "
                        + e.getMessage(), e);
            }
            recordCatalog("the drop of database " + database.name(),
                    c -> H2CatalogTables.deleteDatabase(c, database.name()));
        }
    }

    /** Deletes every row; concurrent readers see the table before or after, never half of it. */
    @Override
    public void tableTruncated(TableSchema table) {
        schemaChange(table, "DELETE FROM " + H2Sql.tableName(table), "truncate");
    }

    /** Adds the new last column (with its default for the rows already there) or drops the removed one. */
    @Override
    public void tableAltered(TableSchema before, TableSchema after) {
        String sql;
        if (after.columns().size() > before.columns().size()) {
            sql = H2Sql.addColumn(after, after.columns().get(after.columns().size() - 1));
        } else {
            String dropped = before.columns().stream()
                    .filter(c -> after.columnIndex(c.name()) < 0).findFirst().orElseThrow().name();
            sql = "ALTER TABLE " + H2Sql.tableName(after) + " DROP COLUMN " + H2Sql.quote(H2Sql.columnName(dropped));
        }
        schemaChange(after, sql, "alter");
        synchronized (writeLock) {
            recordCatalog("the change of table " + after.qualifiedName(),
                    c -> H2CatalogTables.saveAlteredTable(c, after));
        }
        tables.put(after.qualifiedName(), after);
    }

    private void schemaChange(TableSchema table, String sql, String what) {
        synchronized (writeLock) {
            ensureOpen();
            try (Statement statement = writer.createStatement()) {
                statement.execute(sql);
                writer.commit();
            } catch (SQLException e) {
                rollbackQuietly(e);
                throw new StoreException("cannot " + what + " table " + table.qualifiedName() + ": " + e.getMessage(),
                        e);
            }
        }
    }

    @Override
    public void publish(long txnId, List<TableChanges> changes) {
        for (TableChanges change : changes) {
            TableSchema known = tables.get(change.table().qualifiedName());
            if (known == null) {
                throw new StoreException("publish of transaction " + txnId + ": table "
                        + change.table().qualifiedName() + " does not exist in the store");
            }
            if (change.table().keysType() == KeysType.DUPLICATE_KEYS
                    && change.rows().stream().anyMatch(RowChange::delete)) {
                throw new StoreException("publish of transaction " + txnId + ": table "
                        + change.table().qualifiedName() + " is a DUPLICATE KEY table and cannot take deletes");
            }
        }
        synchronized (writeLock) {
            ensureOpen();
            String current = null;
            try {
                for (TableChanges change : changes) {
                    current = change.table().qualifiedName();
                    if (change.table().keysType().upsertsByKey()) {
                        applyPrimaryKey(change);
                    } else {
                        applyDuplicate(change);
                    }
                }
                writer.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(e);
                throw new StoreException("publish of transaction " + txnId + " failed on table " + current
                        + "; nothing of it is visible: " + e.getMessage(), e);
            }
        }
    }

    @GuardedBy("writeLock")
    private void applyPrimaryKey(TableChanges change) throws SQLException {
        TableSchema table = change.table();
        int keyCount = table.keyColumns().size();
        if (change.rows().stream().anyMatch(r -> r.provided() != null)) {
            applyInOrder(table, change.rows(), keyCount);
            return;
        }
        Map<List<Object>, RowChange> lastByKey = new LinkedHashMap<>();
        for (RowChange row : change.rows()) {
            List<Object> key = Arrays.asList(Arrays.copyOf(row.values(), keyCount));
            lastByKey.remove(key);
            lastByKey.put(key, row);
        }
        try (PreparedStatement delete = writer.prepareStatement(H2Sql.deleteByKey(table));
             PreparedStatement merge = writer.prepareStatement(H2Sql.merge(table))) {
            int deletes = 0;
            int merges = 0;
            for (RowChange row : lastByKey.values()) {
                if (row.delete()) {
                    bind(delete, row.values(), keyCount);
                    delete.addBatch();
                    deletes++;
                } else {
                    bind(merge, row.values(), row.values().length);
                    merge.addBatch();
                    merges++;
                }
            }
            if (deletes > 0) {
                delete.executeBatch();
            }
            if (merges > 0) {
                merge.executeBatch();
            }
        }
    }

    /**
     * Rows with partial updates, one by one in load order: a partial row updates the columns it provides when its
     * key exists and inserts the whole row (defaults in the other columns) when it does not.
     */
    @GuardedBy("writeLock")
    private void applyInOrder(TableSchema table, List<RowChange> rows, int keyCount) throws SQLException {
        try (PreparedStatement delete = writer.prepareStatement(H2Sql.deleteByKey(table));
             PreparedStatement merge = writer.prepareStatement(H2Sql.merge(table));
             PreparedStatement insert = writer.prepareStatement(H2Sql.insert(table))) {
            for (RowChange row : rows) {
                if (row.delete()) {
                    bind(delete, row.values(), keyCount);
                    delete.executeUpdate();
                } else if (row.provided() == null) {
                    bind(merge, row.values(), row.values().length);
                    merge.executeUpdate();
                } else {
                    List<Object> params = new java.util.ArrayList<>();
                    for (int c = keyCount; c < row.values().length; c++) {
                        if (row.provided()[c]) {
                            params.add(row.values()[c]);
                        }
                    }
                    params.addAll(Arrays.asList(row.values()).subList(0, keyCount));
                    try (PreparedStatement update = writer.prepareStatement(
                            H2Sql.updateColumns(table, row.provided()))) {
                        bind(update, params.toArray(), params.size());
                        if (update.executeUpdate() == 0) {
                            bind(insert, row.values(), row.values().length);
                            insert.executeUpdate();
                        }
                    }
                }
            }
        }
    }

    @GuardedBy("writeLock")
    private void applyDuplicate(TableChanges change) throws SQLException {
        if (change.rows().isEmpty()) {
            return;
        }
        try (PreparedStatement insert = writer.prepareStatement(H2Sql.insert(change.table()))) {
            for (RowChange row : change.rows()) {
                bind(insert, row.values(), row.values().length);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void bind(PreparedStatement statement, Object[] values, int count) throws SQLException {
        for (int i = 0; i < count; i++) {
            Object value = values[i];
            if (value instanceof BigInteger big) {
                statement.setBigDecimal(i + 1, new BigDecimal(big));
            } else {
                statement.setObject(i + 1, value);
            }
        }
    }

    @GuardedBy("writeLock")
    private void rollbackQuietly(Exception cause) {
        try {
            writer.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * @param sql one SELECT (or WITH ... SELECT) statement; tables are named {@code database.table}
     * @throws StoreException for any other statement ("the H2 store accepts only SELECT queries"), for invalid SQL
     *                        (with H2's message), or after {@link #close}
     */
    @Override
    public QueryResult query(String sql) {
        return query(sql, null);
    }

    /**
     * {@inheritDoc}
     *
     * @throws StoreException as {@link #query(String)}, or when {@code currentDatabase} does not exist
     */
    @Override
    public QueryResult query(String sql, String currentDatabase) {
        if (sql == null || !READ_ONLY.matcher(sql).matches()) {
            throw new StoreException("the H2 store accepts only read-only SELECT queries, got: " + abbreviate(sql));
        }
        if (closed) {
            throw new StoreException("the H2 store is closed");
        }
        // IFEXISTS: after close, never let a reader create a fresh empty database under the same name.
        try (Connection connection = connect(url + ";IFEXISTS=TRUE", READER, readerPassword)) {
            connection.setReadOnly(true);
            connection.setAutoCommit(false);
            try (Statement setup = connection.createStatement()) {
                setup.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SNAPSHOT");
                if (currentDatabase != null) {
                    setup.execute("SET SCHEMA " + H2Sql.quote(currentDatabase));
                }
            }
            try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
                QueryResult result = read(rs);
                connection.commit();
                return result;
            }
        } catch (SQLException e) {
            throw new StoreException("query failed: " + e.getMessage() + " [query: " + abbreviate(sql) + "]", e);
        }
    }

    private static QueryResult read(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int count = meta.getColumnCount();
        List<String> columns = new ArrayList<>(count);
        List<String> types = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            columns.add(meta.getColumnLabel(i));
            types.add(starRocksTypeName(meta, i));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            Object[] row = new Object[count];
            for (int i = 1; i <= count; i++) {
                Object value = rs.getObject(i);
                if (value instanceof Timestamp timestamp) {
                    value = timestamp.toLocalDateTime();
                } else if (value instanceof java.sql.Date date) {
                    value = date.toLocalDate();
                } else if (value instanceof java.sql.Clob clob) {
                    value = clob.getSubString(1, (int) clob.length());
                }
                row[i - 1] = value;
            }
            rows.add(Collections.unmodifiableList(Arrays.asList(row)));
        }
        return new QueryResult(List.copyOf(columns), List.copyOf(types), Collections.unmodifiableList(rows));
    }

    /**
     * The StarRocks name of a result column's type, as the HTTP SQL API's {@code meta} line prints it (StarRocks
     * docs {@code docs/en/sql-reference/http_sql_api.md}: {@code int(11)}, {@code decimal64(10, 2)}, {@code varchar},
     * {@code datetime}).
     */
    private static String starRocksTypeName(ResultSetMetaData meta, int column) throws SQLException {
        switch (meta.getColumnType(column)) {
            case java.sql.Types.TINYINT: return "tinyint(4)";
            case java.sql.Types.SMALLINT: return "smallint(6)";
            case java.sql.Types.INTEGER: return "int(11)";
            case java.sql.Types.BIGINT: return "bigint(20)";
            case java.sql.Types.NUMERIC:
            case java.sql.Types.DECIMAL:
                int precision = meta.getPrecision(column);
                return (precision <= 18 ? "decimal64(" : "decimal128(") + precision + ", " + meta.getScale(column) + ")";
            case java.sql.Types.REAL:
            case java.sql.Types.FLOAT: return "float";
            case java.sql.Types.DOUBLE: return "double";
            case java.sql.Types.BOOLEAN: return "boolean";
            case java.sql.Types.DATE: return "date";
            case java.sql.Types.TIMESTAMP: return "datetime";
            case java.sql.Types.CHAR: return "char(" + meta.getPrecision(column) + ")";
            default: return "varchar";
        }
    }

    private static String abbreviate(String sql) {
        if (sql == null) {
            return "null";
        }
        String oneLine = sql.strip().replaceAll("\\s+", " ");
        return oneLine.length() > 200 ? oneLine.substring(0, 200) + "..." : oneLine;
    }

    /**
     * {@inheritDoc}
     *
     * @throws StoreException if the table does not exist in the store
     */
    @Override
    public long rowCount(String database, String table) {
        TableSchema schema = tables.get(database + "." + table);
        if (schema == null) {
            throw new StoreException("table " + database + "." + table + " does not exist in the store");
        }
        Object count = query("SELECT COUNT(*) FROM " + H2Sql.tableName(schema)).rows().get(0).get(0);
        return ((Number) count).longValue();
    }

    /** Drops the in-memory database; later calls fail with {@link StoreException}. Idempotent. */
    @Override
    public void close() {
        synchronized (writeLock) {
            if (closed) {
                return;
            }
            closed = true;
            try (Statement statement = writer.createStatement()) {
                statement.execute("SHUTDOWN");
            } catch (SQLException e) {
                if (e.getErrorCode() == ErrorCode.DATABASE_IS_CLOSED
                        || e.getErrorCode() == ErrorCode.DATABASE_CALLED_AT_SHUTDOWN) {
                    return; // H2 closed it already (e.g. its own hook at JVM exit): a file store is on disk
                }
                throw new StoreException("cannot shut down the H2 store: " + e.getMessage(), e);
            } finally {
                try {
                    writer.close();
                } catch (SQLException ignored) {
                    // the database is gone either way
                }
            }
        }
    }

    @GuardedBy("writeLock")
    private void ensureOpen() {
        if (closed) {
            throw new StoreException("the H2 store is closed");
        }
    }
}
