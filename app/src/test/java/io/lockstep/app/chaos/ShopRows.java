package io.lockstep.app.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.app.demo.ShopChange;
import io.lockstep.app.demo.ShopSchema;
import io.lockstep.app.demo.ShopSchema.Table;
import io.lockstep.app.demo.ShopState;
import io.lockstep.app.demo.ShopTransaction;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns generated shop transactions into sink rows, in two shapes.
 *
 * <p><b>Multi-table</b> ({@link #aggregateRows}): the transaction's final image of every key it changes, and
 * for every order it touches that still exists afterwards, the whole order (its row and all its items). A
 * real CDC stream carries only the changed rows; the whole-order images make every transaction
 * <em>replay-safe</em>: at-least-once replays an old transaction over newer committed rows, and with
 * changed-rows-only a replayed item removal would re-write an order whose later cancellation already deleted
 * its items, breaking {@link io.lockstep.app.demo.ShopInvariants} without any atomicity fault. With the whole
 * order in each transaction every replayed prefix leaves each order consistent, so an invariant broken in a
 * snapshot can only mean rows of one source transaction became visible without the others.
 *
 * <p><b>Events</b> ({@link #eventRows}): one row per change for the DUPLICATE KEY table
 * {@code shop.events(event_id, txn_seq, tbl, op)}; {@code event_id = sequence * 10000 + index}.
 *
 * <p>Not thread safe: one source thread owns an instance (it mirrors the shop state).
 */
final class ShopRows {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The state after every transaction converted so far. */
    private final ShopState mirror = new ShopState();
    /** Order id to its line numbers, after every transaction converted so far. */
    private final Map<Long, TreeSet<Integer>> linesByOrder = new TreeMap<>();
    private final int[] sourcePartitions;

    /**
     * @param sourcePartitions source partition of each generator partition (index = generator partition)
     */
    ShopRows(int[] sourcePartitions) {
        this.sourcePartitions = sourcePartitions.clone();
    }

    /** Applies a transaction to the mirror without making rows (replay after a restore). */
    void skip(ShopTransaction transaction) {
        apply(transaction);
    }

    /** @return the rows of one transaction for the multi-table sink; the last one ends the transaction */
    List<DefaultStarRocksRowData> aggregateRows(ShopTransaction transaction) {
        Set<Long> ordersTouched = apply(transaction);
        Map<List<Object>, ObjectNode> images = new LinkedHashMap<>();
        for (ShopChange change : transaction.changes()) {
            Table table = change.table();
            ObjectNode row = json(change.loadedImage());
            if (change.op() == ShopChange.Op.DELETE) {
                row.put("__op", 1);
            }
            images.put(List.of(table.name(), table.keyOf(change.loadedImage())), row);
        }
        for (long orderId : ordersTouched) {
            Map<String, Object> order = mirror.get(ShopSchema.ORDERS, List.of(orderId));
            if (order == null) {
                continue; // cancelled in this transaction: its deletes are above
            }
            images.put(List.of(ShopSchema.ORDERS.name(), List.of(orderId)), json(order));
            for (int line : linesByOrder.getOrDefault(orderId, new TreeSet<>())) {
                List<Object> key = List.of(orderId, line);
                images.put(List.of(ShopSchema.ORDER_ITEMS.name(), key),
                        json(mirror.get(ShopSchema.ORDER_ITEMS, key)));
            }
        }
        List<DefaultStarRocksRowData> rows = new ArrayList<>(images.size());
        int partition = sourcePartitions[transaction.partition()];
        for (Map.Entry<List<Object>, ObjectNode> image : images.entrySet()) {
            DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, ShopSchema.DATABASE,
                    (String) image.getKey().get(0), image.getValue().toString());
            row.setSourcePartition(partition);
            rows.add(row);
        }
        rows.get(rows.size() - 1).setTransactionEnd(true);
        return rows;
    }

    /** @return one event row per change of the transaction (table {@code shop.events}) */
    List<DefaultStarRocksRowData> eventRows(ShopTransaction transaction) {
        apply(transaction);
        List<DefaultStarRocksRowData> rows = new ArrayList<>();
        int partition = sourcePartitions[transaction.partition()];
        List<ShopChange> changes = transaction.changes();
        for (int i = 0; i < changes.size(); i++) {
            ObjectNode json = JSON.createObjectNode();
            json.put("event_id", eventId(transaction.sequence(), i));
            json.put("txn_seq", transaction.sequence());
            json.put("tbl", changes.get(i).table().name());
            json.put("op", changes.get(i).op().code());
            DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, ShopSchema.DATABASE, "events",
                    json.toString());
            row.setSourcePartition(partition);
            row.setTransactionEnd(i == changes.size() - 1);
            rows.add(row);
        }
        return rows;
    }

    /** The event id of change {@code index} (0-based) of transaction {@code sequence}. */
    static long eventId(long sequence, int index) {
        return sequence * 10_000 + index;
    }

    /** Applies the changes to the mirror; returns the orders whose row or items changed. */
    private Set<Long> apply(ShopTransaction transaction) {
        Set<Long> orders = new LinkedHashSet<>();
        for (ShopChange change : transaction.changes()) {
            Table table = change.table();
            Map<String, Object> image = change.loadedImage();
            if (change.op() == ShopChange.Op.DELETE) {
                mirror.delete(table, table.keyOf(image));
            } else {
                mirror.upsert(table, image);
            }
            if (table == ShopSchema.ORDERS || table == ShopSchema.ORDER_ITEMS) {
                long orderId = (Long) image.get("order_id");
                orders.add(orderId);
                if (table == ShopSchema.ORDER_ITEMS) {
                    int line = (Integer) image.get("line_no");
                    TreeSet<Integer> lines = linesByOrder.computeIfAbsent(orderId, o -> new TreeSet<>());
                    if (change.op() == ShopChange.Op.DELETE) {
                        lines.remove(line);
                    } else {
                        lines.add(line);
                    }
                } else if (change.op() == ShopChange.Op.DELETE) {
                    linesByOrder.remove(orderId);
                }
            }
        }
        return orders;
    }

    private static ObjectNode json(Map<String, Object> row) {
        ObjectNode json = JSON.createObjectNode();
        row.forEach((column, value) -> {
            if (value == null) {
                json.putNull(column);
            } else if (value instanceof Long l) {
                json.put(column, l);
            } else if (value instanceof Integer i) {
                json.put(column, i);
            } else if (value instanceof BigDecimal d) {
                json.put(column, d.toPlainString());
            } else if (value instanceof LocalDateTime t) {
                json.put(column, ShopSchema.DATETIME_FORMAT.format(t));
            } else {
                json.put(column, value.toString());
            }
        });
        return json;
    }
}
