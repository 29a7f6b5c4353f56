package io.lockstep.emulator.catalog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The emulator's {@link Catalog}, held in memory.
 *
 * <p>Thread-safety: lookups read concurrent maps without locking; every change (DDL, {@link #createDatabase},
 * {@link #createTable}) runs under {@code ddlLock}, which also orders listener calls, so a listener sees databases
 * and tables in creation order and a table only after its database. Listeners run on the thread that made the
 * change, inside {@code ddlLock}: they must not call back into DDL from another thread.
 *
 * <p>Ids: databases and tables share one sequence starting at 10001 (StarRocks also draws both from one id
 * generator). Names: database and table names are case-sensitive, as in StarRocks by default.
 *
 * <p>Restart: {@link #restore} rebuilds the catalog a store kept (ids, tables with their later ALTERs); then
 * {@link #executeAtStart} runs the start-up DDL ({@code --ddl}) against it: a {@code CREATE DATABASE} of a restored
 * database is skipped, a {@code CREATE TABLE} of a restored table is skipped when it declares what the table was
 * created with and fails (one line naming the table and the first difference) when it declares something else.
 */
@ThreadSafe
public final class InMemoryCatalog implements Catalog {
    /** First id handed out. */
    public static final long FIRST_ID = 10001;
    /** The name under which a store keeps the catalog itself; no database may have it. */
    public static final String RESERVED_DATABASE = "__lockstep_catalog";

    private final Object ddlLock = new Object();
    @GuardedBy("ddlLock")
    private long nextId = FIRST_ID;
    /** Written under ddlLock, read without it. */
    private final Map<String, DatabaseInfo> databases = new ConcurrentHashMap<>();
    /** database name -> table name -> schema; written under ddlLock, read without it. */
    private final Map<String, Map<String, TableSchema>> tablesByDatabase = new ConcurrentHashMap<>();
    private final List<CatalogListener> listeners = new CopyOnWriteArrayList<>();
    /** Databases {@link #restore} brought back; a start-up {@code CREATE DATABASE} of one is skipped. */
    @GuardedBy("ddlLock")
    private final Set<String> restoredDatabases = new HashSet<>();
    /** Restored tables by qualified name, with the definition each was created with. */
    @GuardedBy("ddlLock")
    private final Map<String, TableDefinition> restoredTables = new HashMap<>();

    /**
     * {@inheritDoc}
     *
     * <p>{@code USE} only affects the rest of this text; a {@code CREATE TABLE} without a database and without an
     * earlier {@code USE} fails with "No database selected".
     */
    @Override
    public void execute(String ddl) throws DdlException {
        execute(ddl, null);
    }

    @Override
    public void execute(String ddl, String sessionDatabase) throws DdlException {
        run(ddl, sessionDatabase, false);
    }

    /**
     * Runs the start-up DDL ({@code --ddl}, the builder's {@code ddl(..)}) after {@link #restore}: as
     * {@link #execute(String)}, except that a {@code CREATE DATABASE} of a restored database is skipped and a
     * {@code CREATE TABLE} of a restored table is skipped when its key type, columns and key columns equal what the
     * table was created with (later ALTERs are kept).
     *
     * @throws DdlException as {@link #execute(String)}, and for a {@code CREATE TABLE} (with or without
     *                      {@code IF NOT EXISTS}) of a restored table that declares something else, naming the table
     *                      and the first difference
     */
    public void executeAtStart(String ddl) throws DdlException {
        run(ddl, null, true);
    }

    /**
     * Brings back the catalog a store kept, before any listener is added: databases, tables and the id sequence;
     * listeners are not told (the store has these tables already).
     *
     * @throws IllegalStateException if the catalog is not empty or has listeners
     * @throws IllegalArgumentException if a table's database is not in the snapshot
     */
    public void restore(CatalogSnapshot snapshot) {
        synchronized (ddlLock) {
            if (!databases.isEmpty() || !listeners.isEmpty()) {
                throw new IllegalStateException("restore needs an empty catalog without listeners");
            }
            long next = Math.max(nextId, snapshot.nextId());
            for (DatabaseInfo db : snapshot.databases()) {
                databases.put(db.name(), db);
                tablesByDatabase.put(db.name(), new ConcurrentHashMap<>());
                restoredDatabases.add(db.name());
                next = Math.max(next, db.id() + 1);
            }
            for (CatalogSnapshot.StoredTable stored : snapshot.tables()) {
                TableSchema table = stored.table();
                Map<String, TableSchema> tables = tablesByDatabase.get(table.database());
                if (tables == null) {
                    throw new IllegalArgumentException("stored table " + table.qualifiedName()
                            + " names a database that is not stored");
                }
                tables.put(table.name(), table);
                restoredTables.put(table.qualifiedName(), stored.created());
                next = Math.max(next, table.tableId() + 1);
            }
            nextId = next;
        }
    }

    private void run(String ddl, String sessionDatabase, boolean atStart) throws DdlException {
        DdlParser parser = new DdlParser(ddl);
        String currentDatabase = sessionDatabase;
        for (DdlStatement statement = parser.next(); statement != null; statement = parser.next()) {
            if (statement instanceof DdlStatement.CreateDatabase create) {
                apply(create, atStart);
            } else if (statement instanceof DdlStatement.UseDatabase use) {
                if (database(use.name()).isEmpty()) {
                    throw statementError(use, "Unknown database '" + use.name() + "'");
                }
                currentDatabase = use.name();
            } else if (statement instanceof DdlStatement.CreateTable create) {
                apply(create, currentDatabase, atStart);
            } else if (statement instanceof DdlStatement.DropTable drop) {
                apply(drop, currentDatabase);
            } else if (statement instanceof DdlStatement.DropDatabase drop) {
                apply(drop);
            } else if (statement instanceof DdlStatement.TruncateTable truncate) {
                synchronized (ddlLock) {
                    TableSchema table = existingTable(truncate, truncate.database(), truncate.name(),
                            currentDatabase);
                    for (CatalogListener listener : listeners) {
                        listener.tableTruncated(table);
                    }
                }
            } else if (statement instanceof DdlStatement.AddColumn add) {
                apply(add, currentDatabase);
            } else if (statement instanceof DdlStatement.DropColumn drop) {
                apply(drop, currentDatabase);
            }
        }
    }

    /** The table a statement names (qualified, or in the current database); caller holds ddlLock. */
    @GuardedBy("ddlLock")
    private TableSchema existingTable(DdlStatement statement, String database, String name, String currentDatabase)
            throws DdlException {
        String db = database != null ? database : currentDatabase;
        if (db == null) {
            throw statementError(statement, "No database selected: qualify the table as db." + name
                    + " or put USE db before it");
        }
        if (!databases.containsKey(db)) {
            throw statementError(statement, "Unknown database '" + db + "'");
        }
        TableSchema table = tablesByDatabase.get(db).get(name);
        if (table == null) {
            throw statementError(statement, "Unknown table '" + db + "." + name + "'");
        }
        return table;
    }

    private void apply(DdlStatement.DropTable drop, String currentDatabase) throws DdlException {
        synchronized (ddlLock) {
            String db = drop.database() != null ? drop.database() : currentDatabase;
            if (drop.ifExists() && (db == null || table(db, drop.name()).isEmpty())) {
                return;
            }
            TableSchema table = existingTable(drop, drop.database(), drop.name(), currentDatabase);
            tablesByDatabase.get(table.database()).remove(table.name());
            restoredTables.remove(table.qualifiedName());
            for (CatalogListener listener : listeners) {
                listener.tableDropped(table);
            }
        }
    }

    private void apply(DdlStatement.DropDatabase drop) throws DdlException {
        synchronized (ddlLock) {
            DatabaseInfo info = databases.get(drop.name());
            if (info == null) {
                if (drop.ifExists()) {
                    return;
                }
                throw statementError(drop, "Can't drop database '" + drop.name() + "'; database doesn't exist");
            }
            List<TableSchema> tables = new ArrayList<>(tablesByDatabase.get(drop.name()).values());
            tables.sort(Comparator.comparingLong(TableSchema::tableId));
            for (TableSchema table : tables) {
                tablesByDatabase.get(drop.name()).remove(table.name());
                restoredTables.remove(table.qualifiedName());
                for (CatalogListener listener : listeners) {
                    listener.tableDropped(table);
                }
            }
            tablesByDatabase.remove(drop.name());
            databases.remove(drop.name());
            restoredDatabases.remove(drop.name());
            for (CatalogListener listener : listeners) {
                listener.databaseDropped(info);
            }
        }
    }

    private void apply(DdlStatement.AddColumn add, String currentDatabase) throws DdlException {
        synchronized (ddlLock) {
            TableSchema before = existingTable(add, add.database(), add.name(), currentDatabase);
            if (before.columnIndex(add.column().name()) >= 0) {
                throw statementError(add, "Duplicate column name '" + add.column().name() + "'");
            }
            List<ColumnSchema> columns = new ArrayList<>(before.columns());
            columns.add(add.column());
            replaceTable(before, columns);
        }
    }

    private void apply(DdlStatement.DropColumn drop, String currentDatabase) throws DdlException {
        synchronized (ddlLock) {
            TableSchema before = existingTable(drop, drop.database(), drop.name(), currentDatabase);
            int index = before.columnIndex(drop.column());
            if (index < 0) {
                throw statementError(drop, "Column '" + drop.column() + "' does not exist in table "
                        + before.qualifiedName());
            }
            if (before.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(drop.column()))) {
                throw statementError(drop, "Can not drop key column '" + drop.column() + "' of table "
                        + before.qualifiedName());
            }
            if (before.columns().size() == 1) {
                throw statementError(drop, "Can not drop the only column of table " + before.qualifiedName());
            }
            List<ColumnSchema> columns = new ArrayList<>(before.columns());
            columns.remove(index);
            replaceTable(before, columns);
        }
    }

    @GuardedBy("ddlLock")
    private void replaceTable(TableSchema before, List<ColumnSchema> columns) {
        TableSchema after = new TableSchema(before.database(), before.name(), before.tableId(), before.keysType(),
                columns, before.keyColumns());
        tablesByDatabase.get(before.database()).put(before.name(), after);
        for (CatalogListener listener : listeners) {
            listener.tableAltered(before, after);
        }
    }

    private void apply(DdlStatement.CreateDatabase create, boolean atStart) throws DdlException {
        if (create.name().equals(RESERVED_DATABASE)) {
            throw statementError(create, "the database name " + RESERVED_DATABASE + " is reserved by the emulator");
        }
        synchronized (ddlLock) {
            if (databases.containsKey(create.name())) {
                if (create.ifNotExists() || (atStart && restoredDatabases.contains(create.name()))) {
                    return;
                }
                throw statementError(create, "Can't create database '" + create.name() + "'; database exists");
            }
            addDatabase(create.name());
        }
    }

    private void apply(DdlStatement.CreateTable create, String currentDatabase, boolean atStart)
            throws DdlException {
        String database = create.database() != null ? create.database() : currentDatabase;
        if (database == null) {
            throw statementError(create, "No database selected: qualify the table as db." + create.name()
                    + " or put USE db before it");
        }
        synchronized (ddlLock) {
            if (!databases.containsKey(database)) {
                throw statementError(create, "Unknown database '" + database + "'");
            }
            TableDefinition created = atStart ? restoredTables.get(database + "." + create.name()) : null;
            if (created != null && tablesByDatabase.get(database).containsKey(create.name())) {
                String difference = created.firstDifference(
                        new TableDefinition(create.keysType(), create.columns(), create.keyColumns()));
                if (difference != null) {
                    throw statementError(create, "table " + database + "." + create.name() + " differs from the one"
                            + " stored with the data (stored vs this DDL: " + difference + "); drop the table or the"
                            + " storage file, or make the DDL match");
                }
                return;
            }
            if (tablesByDatabase.get(database).containsKey(create.name())) {
                if (create.ifNotExists()) {
                    return;
                }
                throw statementError(create, "Table '" + create.name() + "' already exists");
            }
            addTable(new TableSchema(database, create.name(), nextId++, create.keysType(), create.columns(),
                    create.keyColumns()));
        }
    }

    @Override
    public DatabaseInfo createDatabase(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("database name is empty");
        }
        if (name.equals(RESERVED_DATABASE)) {
            throw new IllegalArgumentException("the database name " + RESERVED_DATABASE
                    + " is reserved by the emulator");
        }
        synchronized (ddlLock) {
            DatabaseInfo existing = databases.get(name);
            return existing != null ? existing : addDatabase(name);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>The given {@code tableId} is ignored: the catalog assigns the next id and returns the schema with it.
     *
     * @throws DdlException also when the definition breaks a StarRocks table rule (key columns first and in
     *                      order, primary key columns NOT NULL, no FLOAT/DOUBLE/JSON keys, ...)
     */
    @Override
    public TableSchema createTable(TableSchema schema) throws DdlException {
        String violation = TableRules.violation(schema.keysType(), schema.columns(), schema.keyColumns());
        if (violation != null) {
            throw new DdlException("table " + schema.qualifiedName() + ": " + violation);
        }
        synchronized (ddlLock) {
            Map<String, TableSchema> tables = tablesByDatabase.get(schema.database());
            if (tables == null) {
                throw new DdlException("Unknown database '" + schema.database() + "'");
            }
            if (tables.containsKey(schema.name())) {
                throw new DdlException("Table '" + schema.qualifiedName() + "' already exists");
            }
            return addTable(new TableSchema(schema.database(), schema.name(), nextId++, schema.keysType(),
                    schema.columns(), schema.keyColumns()));
        }
    }

    @GuardedBy("ddlLock")
    private DatabaseInfo addDatabase(String name) {
        DatabaseInfo info = new DatabaseInfo(name, nextId++);
        tablesByDatabase.put(name, new ConcurrentHashMap<>());
        databases.put(name, info);
        for (CatalogListener listener : listeners) {
            listener.databaseCreated(info);
        }
        return info;
    }

    @GuardedBy("ddlLock")
    private TableSchema addTable(TableSchema table) {
        tablesByDatabase.get(table.database()).put(table.name(), table);
        for (CatalogListener listener : listeners) {
            listener.tableCreated(table);
        }
        return table;
    }

    @Override
    public Optional<DatabaseInfo> database(String name) {
        return Optional.ofNullable(databases.get(name));
    }

    @Override
    public Optional<TableSchema> table(String database, String table) {
        Map<String, TableSchema> tables = tablesByDatabase.get(database);
        return tables == null ? Optional.empty() : Optional.ofNullable(tables.get(table));
    }

    @Override
    public List<DatabaseInfo> databases() {
        List<DatabaseInfo> all = new ArrayList<>(databases.values());
        all.sort(Comparator.comparingLong(DatabaseInfo::id));
        return all;
    }

    /** All tables, ordered by id (creation order). */
    @Override
    public List<TableSchema> tables() {
        List<TableSchema> all = new ArrayList<>();
        for (Map<String, TableSchema> tables : tablesByDatabase.values()) {
            all.addAll(tables.values());
        }
        all.sort(Comparator.comparingLong(TableSchema::tableId));
        return all;
    }

    @Override
    public void addListener(CatalogListener listener) {
        synchronized (ddlLock) {
            listeners.add(listener);
        }
    }

    private static DdlException statementError(DdlStatement statement, String problem) {
        return new DdlException("DDL statement " + statement.number() + " (line " + statement.line() + "): "
                + problem);
    }
}
