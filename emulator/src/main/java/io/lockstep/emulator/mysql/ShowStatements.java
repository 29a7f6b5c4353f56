package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.storage.StoreException;
import io.lockstep.emulator.storage.TableStore;
import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SHOW and DESC statements of the query port, with StarRocks' column sets and column types (fe-core
 * {@code qe/ShowResultMetaFactory.java}, {@code qe/ShowExecutor.java} and the proc nodes it names):
 * {@code SHOW DATABASES}, {@code SHOW [FULL] TABLES}, {@code SHOW TABLE STATUS}, {@code SHOW [FULL] COLUMNS},
 * {@code DESC t [ALL]}, {@code SHOW INDEX}, {@code SHOW PARTITIONS}, {@code SHOW VARIABLES WHERE}, {@code SHOW STATUS},
 * {@code SHOW PROCESSLIST}, {@code SHOW FRONTENDS|BACKENDS}, {@code SHOW PROC}, {@code SHOW TRANSACTION},
 * {@code SHOW LOAD}, {@code SHOW [ALL] STREAM LOAD}, {@code SHOW DATA} and {@code EXPLAIN}; each takes
 * {@code [FROM|IN db]} where StarRocks does, and {@code LIKE 'pattern'} / {@code WHERE condition} where StarRocks
 * does (WHERE is evaluated by {@link InformationSchema#where} over the result's columns). Other SHOW statements are
 * left to the caller (null). One instance per connection, used by the connection's thread only.
 */
final class ShowStatements {
    private static final String NAME = "(?:`[^`]+`|[A-Za-z0-9_$]+)";
    private static final String FILTER = "(?:\\s+(?<filter>(?:LIKE|WHERE)\\s.*))?";
    private static final Pattern DATABASES = Pattern.compile("(?is)SHOW\\s+(?:DATABASES|SCHEMAS)" + FILTER);
    private static final Pattern TABLES = Pattern.compile("(?is)SHOW\\s+(?<full>FULL\\s+)?TABLES(?:\\s+(?:FROM|IN)\\s+"
            + "(?<db>" + NAME + "))?" + FILTER);
    private static final Pattern TABLE_STATUS = Pattern.compile("(?is)SHOW\\s+TABLE\\s+STATUS(?:\\s+(?:FROM|IN)\\s+"
            + "(?<db>" + NAME + "))?" + FILTER);
    private static final Pattern COLUMNS = Pattern.compile("(?is)SHOW\\s+(?<full>FULL\\s+)?(?:COLUMNS|FIELDS)\\s+"
            + "(?:FROM|IN)\\s+(?<table>" + NAME + "(?:\\s*\\.\\s*" + NAME + ")?)(?:\\s+(?:FROM|IN)\\s+(?<db>" + NAME
            + "))?" + FILTER);
    private static final Pattern DESCRIBE = Pattern.compile("(?is)(?:DESC|DESCRIBE)\\s+(?<table>" + NAME
            + "(?:\\s*\\.\\s*" + NAME + ")?)(?<all>\\s+ALL)?");
    private static final Pattern INDEX = Pattern.compile("(?is)SHOW\\s+(?:INDEX|INDEXES|KEYS)\\s+(?:FROM|IN)\\s+"
            + "(?<table>" + NAME + "(?:\\s*\\.\\s*" + NAME + ")?)(?:\\s+(?:FROM|IN)\\s+(?<db>" + NAME + "))?");
    private static final Pattern PARTITIONS = Pattern.compile("(?is)SHOW\\s+(?:TEMPORARY\\s+)?PARTITIONS\\s+"
            + "(?:FROM|IN)\\s+(?<table>" + NAME + "(?:\\s*\\.\\s*" + NAME + ")?)" + FILTER);
    private static final Pattern VARIABLES_WHERE = Pattern.compile("(?is)SHOW\\s+(?:SESSION\\s+|GLOBAL\\s+)?VARIABLES"
            + "\\s+WHERE\\s+(?<where>.*)");
    private static final Pattern STATUS = Pattern.compile("(?is)SHOW\\s+(?:SESSION\\s+|GLOBAL\\s+)?STATUS" + FILTER);
    private static final Pattern PROCESSLIST = Pattern.compile("(?is)SHOW\\s+(?:FULL\\s+)?PROCESSLIST");
    private static final Pattern FRONTENDS = Pattern.compile("(?is)SHOW\\s+FRONTENDS");
    private static final Pattern BACKENDS = Pattern.compile("(?is)SHOW\\s+BACKENDS");
    private static final Pattern PROC = Pattern.compile("(?is)SHOW\\s+PROC\\s+['\"](?<path>[^'\"]*)['\"]");
    private static final Pattern TRANSACTION = Pattern.compile("(?is)SHOW\\s+TRANSACTION(?:\\s+(?:FROM|IN)\\s+(?<db>"
            + NAME + "))?\\s+WHERE\\s+ID\\s*=\\s*(?<id>\\d+)");
    private static final Pattern LOAD = Pattern.compile("(?is)SHOW\\s+LOAD(?:\\s+(?:FROM|IN)\\s+(?<db>" + NAME
            + "))?(?:\\s+(?:WHERE|ORDER|LIMIT)\\s.*)?");
    private static final Pattern STREAM_LOAD = Pattern.compile("(?is)SHOW\\s+(?<all>ALL\\s+)?STREAM\\s+LOAD(?:\\s+"
            + "(?:FROM|IN)\\s+(?<db>" + NAME + "))?" + FILTER);
    private static final Pattern DATA = Pattern.compile("(?is)SHOW\\s+DATA(?:\\s+(?:FROM|IN)\\s+(?<table>" + NAME
            + "(?:\\s*\\.\\s*" + NAME + ")?))?");
    private static final Pattern CREATE_DATABASE = Pattern.compile("(?is)SHOW\\s+CREATE\\s+(?:DATABASE|SCHEMA)\\s+"
            + "(?<db>" + NAME + ")");
    private static final Pattern GRANTS = Pattern.compile("(?is)SHOW\\s+GRANTS"
            + "(?:\\s+FOR\\s+CURRENT_USER(?:\\s*\\(\\s*\\))?)?");
    private static final Pattern EXPLAIN = Pattern.compile("(?is)EXPLAIN(?:\\s+(?:VERBOSE|COSTS|LOGICAL))?\\s+"
            + "(?<query>(?:\\(\\s*)*(?:SELECT|WITH)\\b.*)");
    private static final List<String> LOAD_TITLES = List.of("JobId", "Label", "State", "Progress", "Type", "Priority",
            "ScanRows", "FilteredRows", "UnselectedRows", "SinkRows", "EtlInfo", "TaskInfo", "ErrorMsg", "CreateTime",
            "EtlStartTime", "EtlFinishTime", "LoadStartTime", "LoadFinishTime", "TrackingSQL", "JobDetails",
            "Warehouse");
    private static final List<String> STREAM_LOAD_TITLES = List.of("Label", "Id", "LoadId", "TxnId", "DbName",
            "TableName", "State", "ErrorMsg", "TrackingURL", "ChannelNum", "PreparedChannelNum", "NumRowsNormal",
            "NumRowsAbNormal", "NumRowsUnselected", "NumLoadBytes", "TimeoutSecond", "CreateTimeMs",
            "BeforeLoadTimeMs", "StartLoadingTimeMs", "StartPreparingTimeMs", "FinishPreparingTimeMs", "EndTimeMs",
            "ChannelState", "Type", "TrackingSQL");
    private static final List<String> PARTITION_TITLES = List.of("PartitionId", "PartitionName", "VisibleVersion",
            "VisibleVersionTime", "VisibleVersionHash", "State", "PartitionKey", "Range", "DistributionKey", "Buckets",
            "ReplicationNum", "StorageMedium", "CooldownTime", "LastConsistencyCheckTime", "DataSize", "IsInMemory",
            "RowCount");

    private final Catalog catalog;
    private final TableStore store;
    private final TransactionManager transactions;
    private final SystemVariables variables;
    private final InformationSchema informationSchema;
    private final Supplier<ClusterNodes> nodes;
    /** Whether transaction lists take Doris' layout (the emulator's Doris mode). */
    private final boolean doris;

    ShowStatements(Catalog catalog, TableStore store, TransactionManager transactions, SystemVariables variables,
                   InformationSchema informationSchema, Supplier<ClusterNodes> nodes, boolean doris) {
        this.catalog = catalog;
        this.store = store;
        this.transactions = transactions;
        this.variables = variables;
        this.informationSchema = informationSchema;
        this.nodes = nodes;
        this.doris = doris;
    }

    /**
     * Runs the statement when it is one of this class's, else returns null.
     *
     * @param sql          the statement, comments and trailing semicolons stripped
     * @param database     the session's current database, or null
     * @param user         the session's user
     * @param connectionId the connection's id
     * @throws SqlError 1049 unknown database, 1051 unknown table, 1046 no database selected, 1064 bad WHERE or query
     */
    SqlResult.Rows execute(String sql, String database, String user, int connectionId) {
        Matcher m;
        if ((m = DATABASES.matcher(sql)).matches()) {
            List<List<Object>> rows = new ArrayList<>();
            rows.add(List.of(InformationSchemaSql.NAME));
            catalog.databases().stream().map(DatabaseInfo::name).sorted().forEach(n -> rows.add(List.of(n)));
            return filter(List.of("Database"), rows, m.group("filter"));
        }
        if ((m = TABLES.matcher(sql)).matches()) {
            String db = m.group("db") != null ? unquote(m.group("db")) : require(database);
            boolean full = m.group("full") != null;
            List<List<Object>> rows = new ArrayList<>();
            for (String name : tableNames(db)) {
                rows.add(full ? List.of(name, isSchema(db) ? "SYSTEM VIEW" : "BASE TABLE") : List.of(name));
            }
            List<String> columns = full ? List.of("Tables_in_" + db, "Table_type") : List.of("Tables_in_" + db);
            return filter(columns, rows, m.group("filter"));
        }
        if ((m = TABLE_STATUS.matcher(sql)).matches()) {
            String db = m.group("db") != null ? unquote(m.group("db")) : require(database);
            return filter(TableStatus.TITLES, TableStatus.rows(tablesOf(db), this::rowCount), m.group("filter"),
                    TableStatus.TYPES);
        }
        if ((m = COLUMNS.matcher(sql)).matches()) {
            TableSchema table = table(m.group("table"), m.group("db"), database);
            boolean full = m.group("full") != null;
            return filter(full ? TableStatus.FULL_COLUMN_TITLES : TableStatus.COLUMN_TITLES,
                    TableStatus.columns(table, full), m.group("filter"));
        }
        if ((m = DESCRIBE.matcher(sql)).matches()) {
            TableSchema table = table(m.group("table"), null, database);
            if (m.group("all") != null) {
                return SqlResult.Rows.varchar(List.of("IndexName", "IndexKeysType", "Field", "Type", "Null", "Key",
                        "Default", "Extra"), TableStatus.describeAll(table));
            }
            return SqlResult.Rows.varchar(List.of("Field", "Type", "Null", "Key", "Default", "Extra"),
                    SchemaText.describe(table));
        }
        if ((m = INDEX.matcher(sql)).matches()) {
            table(m.group("table"), m.group("db"), database);
            // StarRocks lists a table's bitmap/n-gram indexes here; the emulator's tables have none
            return SqlResult.Rows.varchar(List.of("Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name",
                    "Collation", "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment"), List.of());
        }
        if ((m = PARTITIONS.matcher(sql)).matches()) {
            TableSchema table = table(m.group("table"), null, database);
            String keys = String.join(", ", table.keyColumns());
            List<Object> row = Arrays.asList(table.tableId(), table.name(), "1", null, "0", "NORMAL", "", "", keys,
                    "0", "1", "HDD", "9999-12-31 23:59:59", null, "0B", "false", String.valueOf(rowCount(table)));
            return filter(PARTITION_TITLES, List.of(row), m.group("filter"));
        }
        if ((m = VARIABLES_WHERE.matcher(sql)).matches()) {
            List<List<Object>> rows = new ArrayList<>();
            for (Map.Entry<String, Object> e : variables.all().entrySet()) {
                rows.add(List.of(e.getKey(), String.valueOf(e.getValue())));
            }
            return filter(List.of("Variable_name", "Value"), rows, "WHERE " + m.group("where"));
        }
        if ((m = STATUS.matcher(sql)).matches()) {
            // StarRocks' ShowExecutor answers SHOW STATUS with no rows
            return filter(List.of("Variable_name", "Value"), List.of(), m.group("filter"));
        }
        if (PROCESSLIST.matcher(sql).matches()) {
            // only the asking connection: the query port keeps no registry of the others' statements
            List<Object> row = Arrays.asList("", (long) connectionId, user, "", database == null ? "" : database,
                    "Query", "", 0, "OK", sql, "false", "default_warehouse", "", "default_catalog", "");
            List<String> types = new ArrayList<>(Collections.nCopies(15, "varchar"));
            types.set(1, "bigint(20)");
            types.set(7, "int(11)");
            return new SqlResult.Rows(List.of("ServerName", "Id", "User", "Host", "Db", "Command",
                    "ConnectionStartTime", "Time", "State", "Info", "IsPending", "Warehouse", "CNGroup", "Catalog",
                    "QueryId"), types, List.of(row));
        }
        if (FRONTENDS.matcher(sql).matches()) {
            return nodes.get().frontends();
        }
        if (BACKENDS.matcher(sql).matches()) {
            return nodes.get().backends(catalog.tables().size());
        }
        if ((m = PROC.matcher(sql)).matches()) {
            return proc(m.group("path"));
        }
        if ((m = TRANSACTION.matcher(sql)).matches()) {
            String db = m.group("db") != null ? unquote(m.group("db")) : require(database);
            long id = Long.parseLong(m.group("id"));
            TransactionSnapshot t = transactions.transactions(db).stream().filter(s -> s.txnId() == id).findFirst()
                    .orElseThrow(() -> new SqlError(SqlError.SYNTAX, "42000", "transaction with id " + id
                            + " does not exist"));
            return SqlResult.Rows.varchar(TransactionProc.titles(doris), List.of(TransactionProc.row(t, doris)));
        }
        if ((m = LOAD.matcher(sql)).matches()) {
            existing(m.group("db") != null ? unquote(m.group("db")) : require(database));
            // SHOW LOAD lists broker, Spark and INSERT load jobs; the emulator runs stream loads only
            return SqlResult.Rows.varchar(LOAD_TITLES, List.of());
        }
        if ((m = CREATE_DATABASE.matcher(sql)).matches()) {
            // StarRocks FE qe/ShowExecutor.java (SHOW CREATE DATABASE): Database, Create Database
            String db = existing(unquote(m.group("db")));
            return SqlResult.Rows.varchar(List.of("Database", "Create Database"),
                    List.of(List.of(db, "CREATE DATABASE `" + db + "`")));
        }
        if (GRANTS.matcher(sql).matches()) {
            // StarRocks FE sql/ast/ShowGrantsStmt.java: UserIdentity, Catalog, Grants; the emulator's user holds
            // every privilege, which StarRocks shows as the root role
            String identity = "'" + user + "'@'%'";
            return SqlResult.Rows.varchar(List.of("UserIdentity", "Catalog", "Grants"),
                    List.of(Arrays.asList(identity, null, "GRANT 'root' TO " + identity)));
        }
        if ((m = STREAM_LOAD.matcher(sql)).matches()) {
            String db = existing(m.group("db") != null ? unquote(m.group("db")) : require(database));
            boolean all = m.group("all") != null;
            List<List<Object>> rows = new ArrayList<>();
            for (TransactionSnapshot t : transactions.transactions(db)) {
                if (all || !StreamLoadState.finalState(t.status())) {
                    rows.add(Arrays.asList(t.label(), t.txnId(), "", t.txnId(), t.database(),
                            t.table() == null ? "" : t.table(), StreamLoadState.of(t.status()),
                            t.reason() == null ? "" : t.reason(), "", "", "", "", "", "", "", t.timeoutMs() / 1000,
                            t.beginTimeMs(), "", "", "", "", "", "", t.multiTable() ? "MULTI_STATEMENT_STREAMING"
                                    : "STREAM_LOAD", ""));
                }
            }
            return filter(STREAM_LOAD_TITLES, rows, m.group("filter"));
        }
        if ((m = DATA.matcher(sql)).matches()) {
            return data(m.group("table"), database);
        }
        if ((m = EXPLAIN.matcher(sql)).matches()) {
            return explain(m.group("query"), database);
        }
        return null;
    }

    /** Rows of a query on {@code information_schema} (the session's database or a qualified name). */
    SqlResult.Rows informationSchema(String sql, String database) {
        return informationSchema.query(sql, isSchema(database));
    }

    static boolean isSchema(String database) {
        return InformationSchemaSql.NAME.equalsIgnoreCase(database);
    }

    private SqlResult.Rows proc(String path) {
        String[] parts = Arrays.stream(path.split("/")).filter(p -> !p.isBlank()).map(String::strip)
                .toArray(String[]::new);
        if (parts.length == 0) {
            return SqlResult.Rows.varchar(List.of("name"), List.of(List.of("backends"), List.of("dbs"),
                    List.of("frontends"), List.of("transactions")));
        }
        switch (parts[0]) {
            case "transactions":
                return TransactionProc.show(path, catalog, transactions, doris);
            case "backends":
                return nodes.get().backends(catalog.tables().size());
            case "frontends":
                return nodes.get().frontends();
            case "dbs":
                if (parts.length == 1) {
                    List<List<Object>> rows = new ArrayList<>();
                    for (DatabaseInfo db : catalog.databases()) {
                        long tables = catalog.tables().stream().filter(t -> t.database().equals(db.name())).count();
                        rows.add(Arrays.asList(db.id(), db.name(), tables, "8388608.000 TB", null, 1073741824L));
                    }
                    return SqlResult.Rows.varchar(List.of("DbId", "DbName", "TableNum", "Quota",
                            "LastConsistencyCheckTime", "ReplicaQuota"), rows);
                }
                break;
            default:
                break;
        }
        throw SqlError.syntax("the emulator answers SHOW PROC '/', '/dbs', '/backends', '/frontends' and"
                + " '/transactions[/<dbId>[/running|/finished]]' only, got '" + path + "'");
    }

    private SqlResult.Rows data(String qualified, String database) {
        if (qualified != null && qualified.contains(".")) {
            TableSchema table = table(qualified, null, database);
            return SqlResult.Rows.varchar(List.of("TableName", "IndexName", "Size", "ReplicaCount", "RowCount"),
                    List.of(Arrays.asList(table.name(), table.name(), "0.000 ", "0", rowCount(table))));
        }
        String db = existing(qualified != null ? unquote(qualified) : require(database));
        List<List<Object>> rows = new ArrayList<>();
        for (TableSchema table : tablesOf(db)) {
            rows.add(List.of(table.name(), "0.000 ", "0"));
        }
        rows.add(List.of("Total", "0.000 ", "0"));
        rows.add(List.of("Quota", "8388608.000 TB", "1073741824"));
        rows.add(List.of("Left", "8388608.000 TB", "1073741824"));
        return SqlResult.Rows.varchar(List.of("TableName", "Size", "ReplicaCount"), rows);
    }

    private SqlResult.Rows explain(String query, String database) {
        List<String> labels;
        try {
            labels = store.query(SqlSession.h2Quotes(query), database).columns();
        } catch (StoreException e) {
            throw new SqlError(SqlError.SYNTAX, "42000", e.getMessage());
        }
        List<List<Object>> rows = List.of(List.of("PLAN FRAGMENT 0"), List.of(" OUTPUT EXPRS: "
                + String.join(" | ", labels)), List.of("  PARTITION: UNPARTITIONED"), List.of(""),
                List.of("  RESULT SINK"), List.of(""),
                List.of("  (the emulator keeps no StarRocks plan; the query is valid and runs in one snapshot)"));
        return SqlResult.Rows.varchar(List.of("Explain String"), rows);
    }

    private SqlResult.Rows filter(List<String> columns, List<List<Object>> rows, String filter) {
        return filter(columns, rows, filter, Collections.nCopies(columns.size(), "varchar"));
    }

    private SqlResult.Rows filter(List<String> columns, List<List<Object>> rows, String filter, List<String> types) {
        List<List<Object>> kept = rows;
        if (filter != null) {
            String f = filter.strip();
            if (f.regionMatches(true, 0, "LIKE", 0, 4)) {
                Pattern like = Like.pattern(Like.literal(f.substring(4).strip()));
                kept = rows.stream().filter(r -> r.get(0) != null && like.matcher(r.get(0).toString()).matches())
                        .toList();
            } else {
                kept = informationSchema.where(columns, rows, f.substring(5).strip());
            }
        }
        return new SqlResult.Rows(columns, types, kept);
    }

    private List<String> tableNames(String db) {
        if (isSchema(db)) {
            return InformationSchema.tableNames();
        }
        return tablesOf(db).stream().map(TableSchema::name).toList();
    }

    private List<TableSchema> tablesOf(String db) {
        if (isSchema(db)) {
            return List.of();
        }
        existing(db);
        return catalog.tables().stream().filter(t -> t.database().equals(db))
                .sorted((a, b) -> a.name().compareTo(b.name())).toList();
    }

    private Long rowCount(TableSchema table) {
        try {
            return store.rowCount(table.database(), table.name());
        } catch (StoreException e) {
            return null;
        }
    }

    private String existing(String db) {
        if (catalog.database(db).isEmpty() && !isSchema(db)) {
            throw new SqlError(SqlError.BAD_DB, "42000", "Unknown database '" + db + "'");
        }
        return db;
    }

    private static String require(String database) {
        if (database == null) {
            throw new SqlError(SqlError.NO_DB, "3D000", "No database selected");
        }
        return database;
    }

    private TableSchema table(String qualified, String fromDb, String database) {
        String[] parts = qualified.split("\\s*\\.\\s*", 2);
        String db = parts.length == 2 ? unquote(parts[0]) : fromDb != null ? unquote(fromDb) : require(database);
        String name = unquote(parts[parts.length - 1]);
        existing(db);
        return catalog.table(db, name).orElseThrow(() -> new SqlError(SqlError.BAD_TABLE, "42S02",
                "Unknown table '" + db + "." + name + "'"));
    }

    private static String unquote(String name) {
        String n = name.strip();
        return n.length() > 1 && n.startsWith("`") && n.endsWith("`") ? n.substring(1, n.length() - 1) : n;
    }
}
