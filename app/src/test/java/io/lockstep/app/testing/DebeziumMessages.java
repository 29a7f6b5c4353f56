package io.lockstep.app.testing;

import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.event.TransactionIds;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes hand-made Debezium messages (MySQL-style {@code source}, schema-less JSON, as in
 * docs/input-formats.md#debezium) at increasing offsets of one topic partition, and decodes them.
 */
public final class DebeziumMessages {

    public static final String TOPIC = "oltp.all";

    private final int partition;
    private final DebeziumDecoder decoder = new DebeziumDecoder();
    private long nextOffset;
    /** Next total_order per transaction key (an event of an unknown transaction starts at 1). */
    private final Map<String, Long> nextTotalOrder = new HashMap<>();

    public DebeziumMessages(int partition) {
        this.partition = partition;
    }

    public static String beginJson(String id) {
        return "{\"status\":\"BEGIN\",\"id\":\"" + id + "\",\"ts_ms\":1767225600000,\"event_count\":null,"
                + "\"data_collections\":null}";
    }

    /** @param perTable {@code db.table} to count, in order */
    public static String endJson(String id, long eventCount, Map<String, Long> perTable) {
        String collections = perTable.entrySet().stream()
                .map(e -> "{\"data_collection\":\"" + e.getKey() + "\",\"event_count\":" + e.getValue() + "}")
                .collect(Collectors.joining(","));
        return "{\"status\":\"END\",\"id\":\"" + id + "\",\"ts_ms\":1767225600004,\"event_count\":" + eventCount
                + ",\"data_collections\":[" + collections + "]}";
    }

    /** @param txId transaction id, or {@code null} for {@code "transaction":null}; total_order 1 */
    public static String dataJson(String db, String table, String op, String before, String after, String txId) {
        return dataJson(db, table, op, before, after, txId, 1);
    }

    /**
     * @param txId transaction id, or {@code null} for {@code "transaction":null}
     * @param totalOrder the event's 1-based position in its transaction
     */
    public static String dataJson(String db, String table, String op, String before, String after, String txId,
            long totalOrder) {
        String transaction = txId == null ? "null"
                : "{\"id\":\"" + txId + "\",\"total_order\":" + totalOrder + ",\"data_collection_order\":1}";
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"version\":\"3.4.0.Final\","
                + "\"connector\":\"mysql\",\"name\":\"oltp\",\"ts_ms\":1767225600000,\"snapshot\":\"false\",\"db\":\""
                + db + "\",\"table\":\"" + table + "\",\"server_id\":1001,\"gtid\":null,\"file\":\"binlog.000042\","
                + "\"pos\":193457,\"row\":0},\"op\":\"" + op + "\",\"ts_ms\":1767225600120,\"transaction\":"
                + transaction + "}";
    }

    /** Opens a transaction: its data events are numbered (total_order) from 1 again. */
    public SourceEvent begin(String id) {
        nextTotalOrder.put(TransactionIds.key(id), 1L);
        return decode(null, beginJson(id));
    }

    /** Sends a data event again with the total_order it had (a connector replay). */
    public SourceEvent repeat(String table, String after, String txId, long totalOrder) {
        return decode(null, dataJson("shop", table, "c", "null", after, txId, totalOrder));
    }

    private long order(String txId) {
        if (txId == null) {
            return 1;
        }
        String key = TransactionIds.key(txId);
        long next = nextTotalOrder.getOrDefault(key, 1L);
        nextTotalOrder.put(key, next + 1);
        return next;
    }

    public SourceEvent end(String id, long eventCount, Map<String, Long> perTable) {
        return decode(null, endJson(id, eventCount, perTable));
    }

    public SourceEvent insert(String table, String after, String txId) {
        return decode(null, dataJson("shop", table, "c", "null", after, txId, order(txId)));
    }

    public SourceEvent delete(String table, String before, String txId) {
        return decode(null, dataJson("shop", table, "d", before, "null", txId, order(txId)));
    }

    public SourceEvent update(String key, String table, String before, String after, String txId) {
        return decode(key, dataJson("shop", table, "u", before, after, txId, order(txId)));
    }

    public SourceEvent snapshot(String table, String after) {
        return decode(null, dataJson("shop", table, "r", "null", after, null));
    }

    public SourceEvent decode(String key, String value) {
        return decoder.decode(new SourceRecord(TOPIC, partition, nextOffset++, key, value));
    }

    /** @return the offset the next message gets */
    public long nextOffset() {
        return nextOffset;
    }
}
