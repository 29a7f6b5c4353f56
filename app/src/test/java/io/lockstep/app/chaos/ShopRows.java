package io.lockstep.app.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.app.demo.ShopChange;
import io.lockstep.app.demo.ShopSchema;
import io.lockstep.app.demo.ShopTransaction;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns generated shop transactions into sink rows, in two shapes.
 *
 * <p><b>CDC</b> ({@link #cdcRows}): what a CDC stream carries, loaded by the exactly-once multi-table sink: one
 * row per change of the transaction, only the rows it touches (a transaction that removes one item carries that
 * delete and the order's new total, not the whole order), each with its key's {@value #VERSION_COLUMN} (the
 * transaction's sequence number: it grows with every change of a key, because every key belongs to one
 * generator partition); and per change one row of the insert-only DUPLICATE KEY table {@value #LOG_TABLE}
 * {@code (event_id, txn_seq, tbl, op)}, where any replayed source transaction would show as a duplicate. Every
 * row carries {@code source} {@value #SOURCE} and the sequence number as its source position. Such rows are
 * not replay-safe: loaded twice, an old transaction would re-write rows a later one changed or deleted, and the
 * oracle would see versions go back and orders break their invariants. Only exactly-once keeps them right.
 *
 * <p><b>Events</b> ({@link #eventRows}): one row per change for the DUPLICATE KEY table
 * {@code shop.events(event_id, txn_seq, tbl, op)} of the exactly-once single-table sink;
 * {@code event_id = sequence * 10000 + index}.
 *
 * <p>Not thread safe: one source thread owns an instance.
 */
final class ShopRows {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The {@code source} of every CDC row. */
    static final String SOURCE = "shop-replay";
    /** The insert-only DUPLICATE KEY table of the CDC shape. */
    static final String LOG_TABLE = "change_log";
    /** The per-key version column of the CDC shape's shop tables. */
    static final String VERSION_COLUMN = "version";

    private final int[] sourcePartitions;

    /**
     * @param sourcePartitions source partition of each generator partition (index = generator partition)
     */
    ShopRows(int[] sourcePartitions) {
        this.sourcePartitions = sourcePartitions.clone();
    }

    /**
     * @return the rows of one transaction for the exactly-once multi-table sink: its changes with their key's
     *     version, then one {@value #LOG_TABLE} row per change; the last row ends the transaction
     */
    List<DefaultStarRocksRowData> cdcRows(ShopTransaction transaction) {
        List<DefaultStarRocksRowData> rows = new ArrayList<>();
        List<ShopChange> changes = transaction.changes();
        for (ShopChange change : changes) {
            ObjectNode row = json(change.loadedImage());
            if (change.op() == ShopChange.Op.DELETE) {
                row.put("__op", 1);
            }
            row.put(VERSION_COLUMN, transaction.sequence());
            rows.add(cdcRow(transaction, change.table().name(), row));
        }
        for (int i = 0; i < changes.size(); i++) {
            rows.add(cdcRow(transaction, LOG_TABLE, logRow(transaction, i)));
        }
        rows.get(rows.size() - 1).setTransactionEnd(true);
        return rows;
    }

    private DefaultStarRocksRowData cdcRow(ShopTransaction transaction, String table, ObjectNode json) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, ShopSchema.DATABASE, table, json.toString());
        row.setSourcePartition(sourcePartitions[transaction.partition()]);
        row.setSource(SOURCE);
        row.setSourcePosition(transaction.sequence());
        return row;
    }

    private static ObjectNode logRow(ShopTransaction transaction, int index) {
        ObjectNode json = JSON.createObjectNode();
        json.put("event_id", eventId(transaction.sequence(), index));
        json.put("txn_seq", transaction.sequence());
        json.put("tbl", transaction.changes().get(index).table().name());
        json.put("op", transaction.changes().get(index).op().code());
        return json;
    }

    /** @return one event row per change of the transaction (table {@code shop.events}) */
    List<DefaultStarRocksRowData> eventRows(ShopTransaction transaction) {
        List<DefaultStarRocksRowData> rows = new ArrayList<>();
        int partition = sourcePartitions[transaction.partition()];
        List<ShopChange> changes = transaction.changes();
        for (int i = 0; i < changes.size(); i++) {
            ObjectNode json = logRow(transaction, i);
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

    static ObjectNode json(Map<String, Object> row) {
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
