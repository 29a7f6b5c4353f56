package io.lockstep.e2e.workload;

import io.lockstep.core.progress.ProgressTable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The four tables the end-to-end workload writes, in the source database's dialect and as StarRocks tables: their
 * columns, the kind of value each holds (which decides how a value is compared), the key columns, and the DDL.
 *
 * <p>Every table has a {@code txn_id} column: each source transaction writes its own id into every row it inserts or
 * updates, so a reader of the target can tell which transactions it sees ({@link TxnLedger}).
 */
public final class OltpSchema {

    /** The source database family: the DDL dialect. */
    public enum Dialect { POSTGRES, MARIADB }

    /** How a column's values are compared between source and target. */
    public enum Kind { INTEGER, DECIMAL, TEXT, BOOLEAN, DATE, TIMESTAMP, TIMESTAMPTZ, JSON, BYTES }

    /** One column: name and kind. */
    public record Column(String name, Kind kind) {
    }

    /** One table: name, key column names and all columns (keys first). */
    public record Table(String name, List<String> keys, List<Column> columns) {

        /** @return the comma-separated column names */
        public String columnList() {
            return columns.stream().map(Column::name).collect(Collectors.joining(", "));
        }

        /** @return the comma-separated key columns, for ORDER BY */
        public String keyList() {
            return String.join(", ", keys);
        }
    }

    /** The target database the job loads into. */
    public static final String TARGET_DATABASE = "lockstep";

    public static final Table CUSTOMERS = new Table("customers", List.of("id"), List.of(
            new Column("id", Kind.INTEGER), new Column("name", Kind.TEXT), new Column("email", Kind.TEXT),
            new Column("vip", Kind.BOOLEAN), new Column("born", Kind.DATE), new Column("balance", Kind.DECIMAL),
            new Column("created_at", Kind.TIMESTAMP), new Column("updated_at", Kind.TIMESTAMPTZ),
            new Column("txn_id", Kind.INTEGER)));
    public static final Table ORDERS = new Table("orders", List.of("id"), List.of(
            new Column("id", Kind.INTEGER), new Column("customer_id", Kind.INTEGER), new Column("status", Kind.TEXT),
            new Column("total", Kind.DECIMAL), new Column("discount", Kind.DECIMAL),
            new Column("placed_at", Kind.TIMESTAMPTZ), new Column("meta", Kind.JSON),
            new Column("txn_id", Kind.INTEGER)));
    public static final Table ORDER_ITEMS = new Table("order_items", List.of("order_id", "line"), List.of(
            new Column("order_id", Kind.INTEGER), new Column("line", Kind.INTEGER), new Column("sku", Kind.TEXT),
            new Column("qty", Kind.INTEGER), new Column("price", Kind.DECIMAL), new Column("txn_id", Kind.INTEGER)));
    public static final Table DOCUMENTS = new Table("documents", List.of("id"), List.of(
            new Column("id", Kind.INTEGER), new Column("title", Kind.TEXT), new Column("body", Kind.TEXT),
            new Column("attachment", Kind.BYTES), new Column("version", Kind.INTEGER),
            new Column("txn_id", Kind.INTEGER)));

    /** All tables, in the order they are checked. */
    public static final List<Table> TABLES = List.of(CUSTOMERS, ORDERS, ORDER_ITEMS, DOCUMENTS);

    /**
     * The optional transaction log ({@link OltpWorkload#withTxnLog}): one row per source transaction, inserted by the
     * transaction itself, never updated or deleted. Its target is a DUPLICATE KEY table, which keeps every row a load
     * writes: a source transaction loaded twice shows there as two rows. Not in {@link #TABLES} (the tests that do not
     * write it do not create it).
     */
    public static final Table TXN_LOG = new Table("txn_log", List.of("txn_id"), List.of(
            new Column("txn_id", Kind.INTEGER), new Column("session", Kind.INTEGER), new Column("seq", Kind.INTEGER),
            new Column("upserts", Kind.INTEGER), new Column("deletes", Kind.INTEGER)));

    private OltpSchema() {
    }

    /**
     * @return the source DDL; PostgreSQL's {@code documents} has {@code REPLICA IDENTITY FULL}, so an update that
     *     leaves its TOASTed {@code body} unchanged still carries it (docs/sources.md)
     */
    public static List<String> sourceDdl(Dialect dialect) {
        if (dialect == Dialect.POSTGRES) {
            return List.of(
                    "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email TEXT,"
                            + " vip BOOLEAN NOT NULL, born DATE, balance NUMERIC(12,2) NOT NULL,"
                            + " created_at TIMESTAMP(6) NOT NULL, updated_at TIMESTAMPTZ NOT NULL,"
                            + " txn_id BIGINT NOT NULL)",
                    "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL,"
                            + " status VARCHAR(20) NOT NULL, total NUMERIC(14,2) NOT NULL, discount NUMERIC,"
                            + " placed_at TIMESTAMPTZ NOT NULL, meta JSONB, txn_id BIGINT NOT NULL)",
                    "CREATE TABLE order_items (order_id BIGINT NOT NULL, line INT NOT NULL, sku VARCHAR(40) NOT NULL,"
                            + " qty INT NOT NULL, price NUMERIC(10,2) NOT NULL, txn_id BIGINT NOT NULL,"
                            + " PRIMARY KEY (order_id, line))",
                    "CREATE TABLE documents (id BIGINT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL,"
                            + " attachment BYTEA, version INT NOT NULL, txn_id BIGINT NOT NULL)",
                    "ALTER TABLE documents REPLICA IDENTITY FULL");
        }
        return List.of(
                "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email TEXT,"
                        + " vip BOOLEAN NOT NULL, born DATE, balance DECIMAL(12,2) NOT NULL,"
                        + " created_at DATETIME(6) NOT NULL, updated_at TIMESTAMP(6) NOT NULL,"
                        + " txn_id BIGINT NOT NULL) CHARACTER SET utf8mb4",
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL,"
                        + " status VARCHAR(20) NOT NULL, total DECIMAL(14,2) NOT NULL, discount DECIMAL(30,10),"
                        + " placed_at TIMESTAMP(6) NOT NULL, meta JSON, txn_id BIGINT NOT NULL) CHARACTER SET utf8mb4",
                "CREATE TABLE order_items (order_id BIGINT NOT NULL, line INT NOT NULL, sku VARCHAR(40) NOT NULL,"
                        + " qty INT NOT NULL, price DECIMAL(10,2) NOT NULL, txn_id BIGINT NOT NULL,"
                        + " PRIMARY KEY (order_id, line)) CHARACTER SET utf8mb4",
                "CREATE TABLE documents (id BIGINT PRIMARY KEY, title TEXT NOT NULL, body MEDIUMTEXT NOT NULL,"
                        + " attachment BLOB, version INT NOT NULL, txn_id BIGINT NOT NULL) CHARACTER SET utf8mb4");
    }

    /** @return the source DDL of {@link #TXN_LOG} (same text for both dialects) */
    public static String txnLogSourceDdl() {
        return "CREATE TABLE txn_log (txn_id BIGINT PRIMARY KEY, session INT NOT NULL, seq BIGINT NOT NULL,"
                + " upserts INT NOT NULL, deletes INT NOT NULL)";
    }

    /** @return the StarRocks DDL of {@link #TXN_LOG} in {@link #TARGET_DATABASE}: a DUPLICATE KEY table */
    public static String txnLogTargetDdl() {
        return "CREATE TABLE " + TARGET_DATABASE + ".txn_log (txn_id BIGINT NOT NULL, session INT, seq BIGINT,"
                + " upserts INT, deletes INT) DUPLICATE KEY (txn_id) DISTRIBUTED BY HASH(txn_id) BUCKETS 1;";
    }

    /**
     * @return the StarRocks DDL of the target tables (Primary Key tables) in {@link #TARGET_DATABASE}, and the
     *     progress table of the exactly-once mode ({@link ProgressTable}, docs/exactly-once.md)
     */
    public static String targetDdl() {
        String db = TARGET_DATABASE;
        return "CREATE DATABASE " + db + ";"
                + "CREATE TABLE " + db + ".customers (id BIGINT NOT NULL, name VARCHAR(400), email STRING,"
                + " vip BOOLEAN, born DATE, balance DECIMAL(12, 2), created_at DATETIME, updated_at DATETIME,"
                + " txn_id BIGINT) PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;"
                + "CREATE TABLE " + db + ".orders (id BIGINT NOT NULL, customer_id BIGINT, status VARCHAR(80),"
                + " total DECIMAL(14, 2), discount DECIMAL(38, 10), placed_at DATETIME, meta JSON, txn_id BIGINT)"
                + " PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;"
                + "CREATE TABLE " + db + ".order_items (order_id BIGINT NOT NULL, line INT NOT NULL,"
                + " sku VARCHAR(160), qty INT, price DECIMAL(10, 2), txn_id BIGINT)"
                + " PRIMARY KEY (order_id, line) DISTRIBUTED BY HASH(order_id) BUCKETS 1;"
                + "CREATE TABLE " + db + ".documents (id BIGINT NOT NULL, title STRING, body STRING,"
                + " attachment STRING, version INT, txn_id BIGINT) PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;"
                // lockstep run's default mode, exactly-once across tables, commits its positions here (as
                // examples/shop.sql does)
                + new ProgressTable(db, ProgressTable.DEFAULT_NAME).createTableSql();
    }
}
