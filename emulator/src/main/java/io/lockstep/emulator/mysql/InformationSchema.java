package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.ColumnType;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.storage.StoreException;
import io.lockstep.emulator.storage.TableStore;
import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * StarRocks' {@code information_schema} over the emulator's catalog: {@code schemata}, {@code tables},
 * {@code columns}, {@code statistics}, {@code views}, {@code tables_config} and {@code loads}, with the column names
 * and types of StarRocks' system tables (fe-core {@code com/starrocks/catalog/system/information/*SystemTable.java})
 * and the values StarRocks' FE and BE fill in (be {@code exec/schema_scanner/schema_columns_scanner.cpp}: DATA_TYPE
 * {@code bigint}, COLUMN_TYPE {@code bigint(20)}, COLUMN_KEY {@code PRI|UNI|DUP}). Nothing of the storage engine is
 * visible: no H2 schema, no {@code PUBLIC}, no catalog name.
 *
 * <p>How: a private in-memory H2 database holds one table per information-schema table; every query refills them
 * from the catalog (so they are never stale) and runs the client's SQL on them after {@link InformationSchemaSql}
 * made it H2's (MySQL's {@code IF()}, back-quotes, {@code COLLATE}). The database is created with
 * {@code CASE_INSENSITIVE_IDENTIFIERS}, so information-schema table and column names match in any case, quoted or
 * not, as StarRocks matches them; the values (database and table names) compare case-sensitively, as StarRocks
 * compares names. {@code statistics} lists the key of each PRIMARY KEY and UNIQUE KEY table as index
 * {@code PRIMARY} (non-unique 0), which is what MySQL Connector/J's {@code DatabaseMetaData.getPrimaryKeys} reads.
 *
 * <p>Thread-safety: one instance per query port, shared by its connections; {@link #query} and {@link #close} are
 * synchronized on the instance, which guards {@code connection}.
 */
final class InformationSchema implements AutoCloseable {
    /** Table name → H2 column definitions (StarRocks' columns and types, in StarRocks' order). */
    private static final Map<String, String> TABLES = new LinkedHashMap<>();

    static {
        TABLES.put("schemata", "CATALOG_NAME VARCHAR(512), SCHEMA_NAME VARCHAR(32), DEFAULT_CHARACTER_SET_NAME"
                + " VARCHAR(32), DEFAULT_COLLATION_NAME VARCHAR(32), SQL_PATH VARCHAR(512)");
        TABLES.put("tables", "TABLE_CATALOG VARCHAR(512), TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64),"
                + " TABLE_TYPE VARCHAR(64), ENGINE VARCHAR(64), VERSION BIGINT, ROW_FORMAT VARCHAR(10), TABLE_ROWS BIGINT,"
                + " AVG_ROW_LENGTH BIGINT, DATA_LENGTH BIGINT, MAX_DATA_LENGTH BIGINT, INDEX_LENGTH BIGINT,"
                + " DATA_FREE BIGINT, AUTO_INCREMENT BIGINT, CREATE_TIME TIMESTAMP(0), UPDATE_TIME TIMESTAMP(0),"
                + " CHECK_TIME TIMESTAMP(0), TABLE_COLLATION VARCHAR(32), CHECKSUM BIGINT, CREATE_OPTIONS VARCHAR(255),"
                + " TABLE_COMMENT VARCHAR(2048)");
        TABLES.put("columns", "TABLE_CATALOG VARCHAR(512), TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64),"
                + " COLUMN_NAME VARCHAR(64), ORDINAL_POSITION BIGINT, COLUMN_DEFAULT VARCHAR(1024),"
                + " IS_NULLABLE VARCHAR(3), DATA_TYPE VARCHAR(64), CHARACTER_MAXIMUM_LENGTH BIGINT,"
                + " CHARACTER_OCTET_LENGTH BIGINT, NUMERIC_PRECISION BIGINT, NUMERIC_SCALE BIGINT,"
                + " DATETIME_PRECISION BIGINT, CHARACTER_SET_NAME VARCHAR(32), COLLATION_NAME VARCHAR(32),"
                + " COLUMN_TYPE VARCHAR(32), COLUMN_KEY VARCHAR(3), EXTRA VARCHAR(27), PRIVILEGES VARCHAR(80),"
                + " COLUMN_COMMENT VARCHAR(255), COLUMN_SIZE BIGINT, DECIMAL_DIGITS BIGINT,"
                + " GENERATION_EXPRESSION VARCHAR(64), SRS_ID BIGINT");
        TABLES.put("statistics", "TABLE_CATALOG VARCHAR(512), TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64),"
                + " NON_UNIQUE BIGINT, INDEX_SCHEMA VARCHAR(64), INDEX_NAME VARCHAR(64), SEQ_IN_INDEX BIGINT,"
                + " COLUMN_NAME VARCHAR(64), COLLATION VARCHAR(1), CARDINALITY BIGINT, SUB_PART BIGINT,"
                + " PACKED VARCHAR(10), NULLABLE VARCHAR(3), INDEX_TYPE VARCHAR(16), COMMENT VARCHAR(16),"
                + " INDEX_COMMENT VARCHAR(1024)");
        TABLES.put("views", "TABLE_CATALOG VARCHAR(512), TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64),"
                + " VIEW_DEFINITION VARCHAR(65535), CHECK_OPTION VARCHAR(8), IS_UPDATABLE VARCHAR(3), DEFINER VARCHAR(77),"
                + " SECURITY_TYPE VARCHAR(7), CHARACTER_SET_CLIENT VARCHAR(32), COLLATION_CONNECTION VARCHAR(32)");
        TABLES.put("tables_config", "TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64), TABLE_ENGINE VARCHAR(64),"
                + " TABLE_MODEL VARCHAR(64), PRIMARY_KEY VARCHAR(64), PARTITION_KEY VARCHAR(64),"
                + " DISTRIBUTE_KEY VARCHAR(64), DISTRIBUTE_TYPE VARCHAR(64), DISTRIBUTE_BUCKET INT, SORT_KEY VARCHAR(64),"
                + " PROPERTIES VARCHAR(65535), TABLE_ID BIGINT");
        TABLES.put("loads", "ID BIGINT, LABEL VARCHAR(64), PROFILE_ID VARCHAR(64), DB_NAME VARCHAR(64),"
                + " TABLE_NAME VARCHAR(64), \"USER\" VARCHAR(64), WAREHOUSE VARCHAR(64), STATE VARCHAR(64),"
                + " PROGRESS VARCHAR(64), TYPE VARCHAR(64), PRIORITY VARCHAR(64), SCAN_ROWS BIGINT, SCAN_BYTES BIGINT,"
                + " FILTERED_ROWS BIGINT, UNSELECTED_ROWS BIGINT, SINK_ROWS BIGINT, RUNTIME_DETAILS VARCHAR(65535),"
                + " CREATE_TIME TIMESTAMP(0), LOAD_START_TIME TIMESTAMP(0), LOAD_COMMIT_TIME TIMESTAMP(0),"
                + " LOAD_FINISH_TIME TIMESTAMP(0), PROPERTIES VARCHAR(65535), ERROR_MSG VARCHAR(64),"
                + " TRACKING_SQL VARCHAR(64), REJECTED_RECORD_PATH VARCHAR(64), JOB_ID BIGINT");
    }

    private final Catalog catalog;
    private final TableStore store;
    private final TransactionManager transactions;
    /** Guarded by this. */
    private Connection connection;
    /** Guarded by this. */
    private boolean closed;

    InformationSchema(Catalog catalog, TableStore store, TransactionManager transactions) {
        this.catalog = catalog;
        this.store = store;
        this.transactions = transactions;
    }

    /** Names of the information-schema tables, in StarRocks' spelling (lower case). */
    static List<String> tableNames() {
        return List.copyOf(TABLES.keySet());
    }

    /**
     * Runs one read query over the information schema, refilled from the catalog first.
     *
     * @param sql       the client's SELECT (MySQL dialect)
     * @param inSchema  true when the session's current database is {@code information_schema} (unqualified names
     *                  resolve there)
     * @throws SqlError a StarRocks-shaped error ({@link SqlErrors#fromH2}) for SQL H2 rejects; an unknown table is
     *                  {@code Unknown table 'information_schema.t'}
     */
    synchronized SqlResult.Rows query(String sql, boolean inSchema) {
        try {
            Connection c = connection();
            refill(c);
            try (Statement statement = c.createStatement()) {
                statement.execute("SET SCHEMA " + (inSchema ? InformationSchemaSql.SCHEMA : "PUBLIC"));
                try (ResultSet rs = statement.executeQuery(InformationSchemaSql.rewrite(sql))) {
                    return read(rs);
                }
            }
        } catch (SQLException e) {
            SqlError error = SqlErrors.fromH2(e, sql);
            if (error.code() == SqlError.BAD_TABLE) {
                String table = error.getMessage().replaceAll("^Unknown table '(.*)'$", "$1");
                throw SqlErrors.unknownTable(InformationSchemaSql.NAME, table.toLowerCase(java.util.Locale.ROOT));
            }
            throw error;
        }
    }

    /**
     * Filters rows with a SQL {@code WHERE} condition (a SHOW statement's {@code WHERE}), evaluated by H2 over the
     * rows as text columns named by {@code columns}.
     *
     * @throws SqlError 1064 when the condition is not valid SQL over those columns
     */
    synchronized List<List<Object>> where(List<String> columns, List<List<Object>> rows, String condition) {
        try {
            Connection c = connection();
            try (Statement statement = c.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS PUBLIC.show_rows");
                statement.execute("CREATE TABLE PUBLIC.show_rows (lockstep_row INT, " + columns.stream()
                        .map(name -> '"' + name.replace("\"", "\"\"") + "\" VARCHAR")
                        .collect(Collectors.joining(", ")) + ")");
            }
            insert(c, "PUBLIC.show_rows", columns.size() + 1, numbered(rows));
            List<List<Object>> kept = new ArrayList<>();
            try (Statement statement = c.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT lockstep_row FROM PUBLIC.show_rows WHERE "
                         + InformationSchemaSql.rewrite(condition) + " ORDER BY lockstep_row")) {
                while (rs.next()) {
                    kept.add(rows.get(rs.getInt(1)));
                }
                statement.execute("DROP TABLE PUBLIC.show_rows");
            }
            return kept;
        } catch (SQLException e) {
            throw new SqlError(SqlError.SYNTAX, "42000", "bad WHERE condition '" + condition + "': "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private static List<List<Object>> numbered(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            List<Object> row = new ArrayList<>();
            row.add(i);
            rows.get(i).forEach(v -> row.add(v == null ? null : TextResultSet.text(v)));
            out.add(row);
        }
        return out;
    }

    private Connection connection() throws SQLException {
        if (closed) {
            throw new SQLException("the query port is closed");
        }
        if (connection == null) {
            connection = DriverManager.getConnection("jdbc:h2:mem:;CASE_INSENSITIVE_IDENTIFIERS=TRUE");
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE SCHEMA " + InformationSchemaSql.SCHEMA);
                for (Map.Entry<String, String> table : TABLES.entrySet()) {
                    statement.execute("CREATE TABLE " + InformationSchemaSql.SCHEMA + "." + table.getKey() + " ("
                            + table.getValue() + ")");
                }
            }
        }
        return connection;
    }

    private void refill(Connection c) throws SQLException {
        try (Statement statement = c.createStatement()) {
            for (String table : TABLES.keySet()) {
                statement.execute("DELETE FROM " + InformationSchemaSql.SCHEMA + "." + table);
            }
        }
        List<List<Object>> schemata = new ArrayList<>();
        schemata.add(Arrays.asList("def", InformationSchemaSql.NAME, "utf8", "utf8_general_ci", null));
        for (DatabaseInfo db : catalog.databases()) {
            schemata.add(Arrays.asList("def", db.name(), "utf8", "utf8_general_ci", null));
        }
        insert(c, "schemata", 5, schemata);
        List<List<Object>> tables = new ArrayList<>();
        List<List<Object>> columns = new ArrayList<>();
        List<List<Object>> statistics = new ArrayList<>();
        List<List<Object>> configs = new ArrayList<>();
        for (TableSchema table : catalog.tables()) {
            tables.add(Arrays.asList("def", table.database(), table.name(), "BASE TABLE", "StarRocks", null, null,
                    rowCount(table), null, null, null, null, null, null, null, null, null, "utf8_general_ci", null,
                    null, "OLAP"));
            for (int i = 0; i < table.columns().size(); i++) {
                columns.add(columnRow(table, table.columns().get(i), i + 1));
            }
            if (table.keysType() != KeysType.DUPLICATE_KEYS) {
                for (int k = 0; k < table.keyColumns().size(); k++) {
                    statistics.add(Arrays.asList("def", table.database(), table.name(), 0L, table.database(),
                            "PRIMARY", (long) k + 1, table.keyColumns().get(k), "A", null, null, null, "", "", "",
                            ""));
                }
            }
            String keys = String.join(", ", table.keyColumns());
            configs.add(Arrays.asList(table.database(), table.name(), "OLAP", model(table.keysType()), keys, "",
                    keys, "HASH", null, keys, "{}", table.tableId()));
        }
        insert(c, "tables", 21, tables);
        insert(c, "columns", 24, columns);
        insert(c, "statistics", 16, statistics);
        insert(c, "tables_config", 12, configs);
        insert(c, "loads", 26, loads());
    }

    private Long rowCount(TableSchema table) {
        try {
            return store.rowCount(table.database(), table.name());
        } catch (StoreException e) {
            return null;
        }
    }

    private static String model(KeysType keys) {
        return switch (keys) {
            case PRIMARY_KEYS -> "PRIMARY_KEYS";
            case UNIQUE_KEYS -> "UNIQUE_KEYS";
            case DUPLICATE_KEYS -> "DUP_KEYS";
        };
    }

    private static List<Object> columnRow(TableSchema table, ColumnSchema column, int position) {
        ColumnType type = column.type();
        boolean key = table.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(column.name()));
        String columnKey = !key ? "" : switch (table.keysType()) {
            case PRIMARY_KEYS -> "PRI";
            case UNIQUE_KEYS -> "UNI";
            case DUPLICATE_KEYS -> "DUP";
        };
        ColumnFacts facts = ColumnFacts.of(type);
        return Arrays.asList(null, table.database(), table.name(), column.name(), (long) position,
                column.defaultValue(), column.nullable() ? "YES" : "NO", facts.dataType(), facts.charLength(),
                facts.charLength() == null ? null : facts.charLength() * 3, facts.precision(), facts.scale(),
                facts.datetimePrecision(),
                facts.charLength() == null ? null : "utf8", facts.charLength() == null ? null : "utf8_general_ci",
                facts.columnType(), columnKey, "", "", "", facts.size(), facts.decimalDigits(), null, null);
    }

    private List<List<Object>> loads() {
        List<List<Object>> rows = new ArrayList<>();
        for (DatabaseInfo db : catalog.databases()) {
            for (TransactionSnapshot t : transactions.transactions(db.name())) {
                rows.add(Arrays.asList(t.txnId(), t.label(), null, t.database(), t.table() == null ? "" : t.table(),
                        "", "default_warehouse", StreamLoadState.of(t.status()), null, "STREAM_LOAD", "NORMAL", null,
                        null, null, null, null, null, Timestamp.from(Instant.ofEpochMilli(t.beginTimeMs())), null,
                        null, null, null, t.reason() == null ? null : t.reason(), null, null, t.txnId()));
            }
        }
        return rows;
    }

    private static void insert(Connection c, String table, int width, List<List<Object>> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        String target = table.contains(".") ? table : InformationSchemaSql.SCHEMA + "." + table;
        String marks = String.join(", ", Collections.nCopies(width, "?"));
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + target + " VALUES (" + marks + ")")) {
            for (List<Object> row : rows) {
                for (int i = 0; i < width; i++) {
                    insert.setObject(i + 1, row.get(i));
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static SqlResult.Rows read(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int count = meta.getColumnCount();
        List<String> labels = new ArrayList<>(count);
        List<String> types = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            labels.add(meta.getColumnLabel(i));
            types.add(StarRocksTypeNames.of(meta, i));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            Object[] row = new Object[count];
            for (int i = 1; i <= count; i++) {
                Object value = rs.getObject(i);
                row[i - 1] = value instanceof Timestamp ts ? ts.toLocalDateTime() : value;
            }
            rows.add(Arrays.asList(row));
        }
        return new SqlResult.Rows(labels, types, rows);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // an in-memory database: nothing is lost
            }
            connection = null;
        }
    }
}
