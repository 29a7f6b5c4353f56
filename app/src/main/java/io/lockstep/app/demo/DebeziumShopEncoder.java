package io.lockstep.app.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.demo.ShopTransaction.CdcMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a shop transaction as a MySQL Debezium connector (3.x) would, with {@code provide.transaction.metadata=true},
 * the JSON converter without schemas, and the transaction topic and table topics routed into one topic
 * (docs/input-formats.md#debezium):
 * <ul>
 *   <li>BEGIN {@code {"status":"BEGIN","id":..,"ts_ms":..,"event_count":null,"data_collections":null}},
 *       key {@code {"id":..}};
 *   <li>one data event per change with {@code before}/{@code after}/{@code source}/{@code op}/{@code ts_ms}
 *       and {@code transaction {id, total_order, data_collection_order}}, key the row's primary key;
 *   <li>after each delete, a tombstone (same key, {@code null} value; {@code tombstones.on.delete=true},
 *       the connector's default), not counted in {@code event_count};
 *   <li>END with {@code event_count} and {@code data_collections[]} per table, key {@code {"id":..}}.
 * </ul>
 * Column values as the connector writes them with {@code decimal.handling.mode=string} (DECIMAL as text,
 * e.g. {@code "59.80"}) and a converter that writes DATETIME as {@code yyyy-MM-dd HH:mm:ss} text.
 * {@code source.gtid} equals the transaction id; {@code source.file}/{@code pos} advance by the size of
 * each event. Not thread safe (keeps the binlog position); owned by the generator.
 */
final class DebeziumShopEncoder {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String CONNECTOR_VERSION = "3.4.0.Final";
    private static final String BINLOG_FILE = "binlog.000001";
    /** Logical server name ({@code topic.prefix}). */
    static final String SERVER_NAME = "shop-mysql";

    private final long serverId;
    /** Position of the next event in the (pretend) binlog; starts after the binlog header. */
    private long binlogPosition = 4;

    /** @param serverId MySQL {@code server_id} written in {@code source} */
    DebeziumShopEncoder(long serverId) {
        this.serverId = serverId;
    }

    /**
     * @param transactionId the GTID
     * @param timestampMs source commit time in ms since the epoch ({@code ts_ms})
     * @param thread the MySQL connection thread id written in {@code source.thread}
     * @param changes the transaction's changes, in order
     * @return BEGIN, the data events, END
     */
    List<CdcMessage> encode(String transactionId, long timestampMs, long thread, List<ShopChange> changes) {
        List<CdcMessage> messages = new ArrayList<>(changes.size() + 2);
        String transactionKey = write(NODES.objectNode().put("id", transactionId));
        ObjectNode begin = NODES.objectNode()
                .put("status", "BEGIN")
                .put("id", transactionId)
                .put("ts_ms", timestampMs);
        begin.putNull("event_count");
        begin.putNull("data_collections");
        messages.add(new CdcMessage(transactionKey, write(begin)));

        long beginPosition = binlogPosition;
        Map<String, Long> perTable = new LinkedHashMap<>();
        long totalOrder = 0;
        for (ShopChange change : changes) {
            long tableOrder = perTable.merge(change.table().sourceName(), 1L, Long::sum);
            totalOrder++;
            String value = write(dataEvent(transactionId, timestampMs, thread, beginPosition, change, totalOrder,
                    tableOrder));
            binlogPosition += value.length();
            String key = write(key(change));
            messages.add(new CdcMessage(key, value));
            if (change.op() == ShopChange.Op.DELETE) {
                messages.add(new CdcMessage(key, null));
            }
        }

        ObjectNode end = NODES.objectNode()
                .put("status", "END")
                .put("id", transactionId)
                .put("ts_ms", timestampMs)
                .put("event_count", totalOrder);
        ArrayNode collections = end.putArray("data_collections");
        perTable.forEach((table, count) -> collections.addObject()
                .put("data_collection", table)
                .put("event_count", count));
        messages.add(new CdcMessage(transactionKey, write(end)));
        return messages;
    }

    private ObjectNode dataEvent(String transactionId, long timestampMs, long thread, long beginPosition,
            ShopChange change, long totalOrder, long tableOrder) {
        ObjectNode event = NODES.objectNode();
        event.set("before", image(change.before()));
        event.set("after", image(change.after()));
        ObjectNode source = event.putObject("source")
                .put("version", CONNECTOR_VERSION)
                .put("connector", "mysql")
                .put("name", SERVER_NAME)
                .put("ts_ms", timestampMs)
                .put("snapshot", "false")
                .put("db", ShopSchema.DATABASE);
        source.putNull("sequence");
        source.put("table", change.table().name())
                .put("server_id", serverId)
                .put("gtid", transactionId)
                .put("file", BINLOG_FILE)
                .put("pos", beginPosition)
                .put("row", 0)
                .put("thread", thread);
        source.putNull("query");
        event.put("op", change.op().code());
        event.put("ts_ms", timestampMs);
        event.putObject("transaction")
                .put("id", transactionId)
                .put("total_order", totalOrder)
                .put("data_collection_order", tableOrder);
        return event;
    }

    private static ObjectNode key(ShopChange change) {
        ObjectNode key = NODES.objectNode();
        Map<String, Object> image = change.loadedImage();
        for (String column : change.table().keyColumns()) {
            put(key, column, image.get(column));
        }
        return key;
    }

    private static JsonNode image(Map<String, Object> row) {
        if (row == null) {
            return NODES.nullNode();
        }
        ObjectNode image = NODES.objectNode();
        row.forEach((column, value) -> put(image, column, value));
        return image;
    }

    /** Puts a normalized value: numbers as JSON numbers, DECIMAL and DATETIME as text, null as null. */
    private static void put(ObjectNode node, String column, Object value) {
        Object json = ShopSchema.jsonValue(value);
        if (json == null) {
            node.putNull(column);
        } else if (json instanceof Long) {
            node.put(column, (Long) json);
        } else if (json instanceof Integer) {
            node.put(column, (Integer) json);
        } else {
            node.put(column, json.toString());
        }
    }

    private static String write(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a generated Debezium message", e);
        }
    }
}
