package io.lockstep.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The topic-layout benchmark's source transactions, as the Debezium PostgreSQL connector (3.x, pgoutput) writes them
 * with {@code provide.transaction.metadata=true} and the JSON converter without schemas (docs/input-formats.md,
 * "Debezium PostgreSQL (pgoutput)"): every transaction {@code n} inserts one {@code public.orders} row and
 * {@value #ITEMS} {@code public.order_items} rows and updates one {@code public.customers} row, so
 * {@value #ROWS_PER_TRANSACTION} data events over 3 tables between a BEGIN and an END.
 *
 * <p>Shapes: BEGIN and END {@code {"status", "id", "ts_ms", "event_count", "data_collections"}} with the id
 * {@code <txId>:<LSN>} (the transaction's first LSN on BEGIN, its commit LSN on END) and the key {@code {"id": id}};
 * a data event has {@code before}/{@code after}/{@code source}/{@code op}/{@code ts_ms}/{@code transaction}, where
 * {@code source} carries {@code connector: postgresql}, {@code name}, {@code schema}, {@code table}, {@code txId},
 * {@code lsn} (the change's own LSN) and {@code sequence} (a JSON text {@code ["<previous commit LSN>","<lsn>"]},
 * the first element {@code null} for the first transaction), and {@code transaction} {@code {id: <txId>:<lsn>,
 * total_order, data_collection_order}}; its key is the row's primary key {@code {"id": ..}}. Updates carry no
 * {@code before} (replica identity DEFAULT). END lists {@code data_collections} {@code public.orders},
 * {@code public.order_items}, {@code public.customers} with their counts.
 *
 * <p>Transactions are serial: the LSNs of transaction {@code n} all lie above transaction {@code n - 1}'s commit
 * LSN, so commit LSNs grow with {@code n}. Every value is computed from {@code n} alone (no state; thread safe), so a
 * layout written twice holds the same messages. Rows are about {@value #ROW_BYTES} bytes of JSON.
 */
final class PgOrderWorkload {
    /** Debezium's {@code topic.prefix} (the logical server name) of the topics; also {@code source.name}. */
    static final String SERVER_NAME = "pg";
    static final String SCHEMA = "public";
    static final String ORDERS = "orders";
    static final String ORDER_ITEMS = "order_items";
    static final String CUSTOMERS = "customers";
    /** The tables in the order the END's {@code data_collections} lists them. */
    static final List<String> TABLES = List.of(ORDERS, ORDER_ITEMS, CUSTOMERS);
    static final int ITEMS = 3;
    static final int ROWS_PER_TRANSACTION = 1 + ITEMS + 1;
    /** Customers the updates spread over. */
    static final int CUSTOMER_COUNT = 10_000;
    static final int ROW_BYTES = 200;
    private static final long FIRST_XID = 1_000;
    private static final long FIRST_LSN = 24_000_000;
    /** WAL bytes per change record; a transaction spans BEGIN, its changes and COMMIT. */
    private static final long LSN_STEP = 64;
    private static final long TS_MS = 1_796_305_096_000L;
    private static final String NOTE = "n".repeat(ROW_BYTES - 110);

    /**
     * One Kafka message of the workload.
     *
     * @param table the source table of a data event ({@code orders}, ...), or {@code null} for BEGIN and END (the
     *     transaction metadata)
     * @param key the record key (JSON text)
     * @param value the record value (JSON text)
     */
    record Message(String table, String key, String value) {
    }

    private PgOrderWorkload() {
    }

    /** @return {@code <schema>.<table>}, the data collection name the END lists */
    static String dataCollection(String table) {
        return SCHEMA + "." + table;
    }

    /** @return rows per table that {@code transactions} transactions write */
    static Map<String, Long> rowsPerTable(long transactions) {
        return Map.of(ORDERS, transactions, ORDER_ITEMS, ITEMS * transactions, CUSTOMERS, transactions);
    }

    /** @return the commit LSN of transaction {@code n} (the LSN after the {@code :} in its END id) */
    static long commitLsn(long n) {
        return beginLsn(n) + (ROWS_PER_TRANSACTION + 1) * LSN_STEP;
    }

    private static long beginLsn(long n) {
        return FIRST_LSN + n * (ROWS_PER_TRANSACTION + 2) * LSN_STEP;
    }

    /**
     * @param n the transaction's number, from 0
     * @return BEGIN, the {@value #ROWS_PER_TRANSACTION} data events in commit order, END
     */
    static List<Message> transaction(long n) {
        long xid = FIRST_XID + n;
        long begin = beginLsn(n);
        long ts = TS_MS + n;
        String previousCommit = n == 0 ? "null" : "\"" + commitLsn(n - 1) + "\"";
        List<Message> messages = new ArrayList<>(ROWS_PER_TRANSACTION + 2);
        String beginId = xid + ":" + begin;
        messages.add(new Message(null, idKey(beginId), "{\"status\":\"BEGIN\",\"id\":\"" + beginId + "\",\"ts_ms\":"
                + ts + ",\"event_count\":null,\"data_collections\":null}"));
        long orderId = n + 1;
        long customerId = n % CUSTOMER_COUNT + 1;
        int order = 0;
        String orderRow = String.format(Locale.ROOT, "{\"id\":%d,\"customer_id\":%d,\"amount\":\"%d.%02d\","
                + "\"status\":\"new\",\"created_ms\":%d,\"note\":\"%s\"}", orderId, customerId, 10 + n % 990, n % 100,
                ts, NOTE);
        messages.add(data(ORDERS, orderId, "c", orderRow, xid, begin, ++order, 1, previousCommit, ts));
        for (int i = 0; i < ITEMS; i++) {
            long itemId = orderId * ITEMS + i;
            String itemRow = String.format(Locale.ROOT, "{\"id\":%d,\"order_id\":%d,\"sku\":\"sku-%06d\","
                    + "\"qty\":%d,\"price\":\"%d.%02d\",\"note\":\"%s\"}", itemId, orderId, (n * 7 + i) % 1_000_000,
                    1 + i, 1 + (n + i) % 99, (n + i) % 100, NOTE);
            messages.add(data(ORDER_ITEMS, itemId, "c", itemRow, xid, begin, ++order, i + 1, previousCommit, ts));
        }
        String customerRow = String.format(Locale.ROOT, "{\"id\":%d,\"name\":\"customer-%d\",\"balance\":\"%d.%02d\","
                + "\"updated_ms\":%d,\"note\":\"%s\"}", customerId, customerId, n % 100_000, n % 100, ts, NOTE);
        messages.add(data(CUSTOMERS, customerId, "u", customerRow, xid, begin, ++order, 1, previousCommit, ts));
        String endId = xid + ":" + commitLsn(n);
        messages.add(new Message(null, idKey(endId), "{\"status\":\"END\",\"id\":\"" + endId + "\",\"ts_ms\":" + ts
                + ",\"event_count\":" + ROWS_PER_TRANSACTION + ",\"data_collections\":["
                + collection(ORDERS, 1) + "," + collection(ORDER_ITEMS, ITEMS) + "," + collection(CUSTOMERS, 1)
                + "]}"));
        return messages;
    }

    private static Message data(String table, long id, String op, String row, long xid, long beginLsn,
            int totalOrder, int tableOrder, String previousCommit, long ts) {
        long lsn = beginLsn + totalOrder * LSN_STEP;
        String value = "{\"before\":null,\"after\":" + row + ",\"source\":{\"version\":\"3.6.1.Final\","
                + "\"connector\":\"postgresql\",\"name\":\"" + SERVER_NAME + "\",\"ts_ms\":" + ts
                + ",\"snapshot\":\"false\",\"db\":\"shop\",\"sequence\":\"[" + previousCommit.replace("\"", "\\\"")
                + ",\\\"" + lsn + "\\\"]\",\"schema\":\"" + SCHEMA + "\",\"table\":\"" + table + "\",\"txId\":" + xid
                + ",\"lsn\":" + lsn + ",\"xmin\":null},\"transaction\":{\"id\":\"" + xid + ":" + lsn
                + "\",\"total_order\":" + totalOrder + ",\"data_collection_order\":" + tableOrder + "},\"op\":\"" + op
                + "\",\"ts_ms\":" + (ts + 1) + "}";
        return new Message(table, "{\"id\":" + id + "}", value);
    }

    private static String collection(String table, long count) {
        return "{\"data_collection\":\"" + dataCollection(table) + "\",\"event_count\":" + count + "}";
    }

    private static String idKey(String id) {
        return "{\"id\":\"" + id + "\"}";
    }

    /**
     * @param database the target database
     * @return DDL creating {@code database} and the three tables (PRIMARY KEY on {@code id}; column types as the rows'
     *     values need them: DECIMAL for the connector's decimal text)
     */
    static String ddl(String database) {
        return "CREATE DATABASE " + database + ";\n"
                + "CREATE TABLE " + database + "." + ORDERS + " (id BIGINT NOT NULL, customer_id BIGINT, amount "
                + "DECIMAL(12, 2), status VARCHAR(16), created_ms BIGINT, note VARCHAR(256)) PRIMARY KEY (id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 4;\n"
                + "CREATE TABLE " + database + "." + ORDER_ITEMS + " (id BIGINT NOT NULL, order_id BIGINT, sku "
                + "VARCHAR(32), qty INT, price DECIMAL(12, 2), note VARCHAR(256)) PRIMARY KEY (id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 4;\n"
                + "CREATE TABLE " + database + "." + CUSTOMERS + " (id BIGINT NOT NULL, name VARCHAR(64), balance "
                + "DECIMAL(12, 2), updated_ms BIGINT, note VARCHAR(256)) PRIMARY KEY (id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 4;\n";
    }
}
