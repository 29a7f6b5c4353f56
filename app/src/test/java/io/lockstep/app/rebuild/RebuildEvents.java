package io.lockstep.app.rebuild;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.TransactionIds;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded Debezium PostgreSQL events of the default layout, as the decoder makes them: transaction topic
 * {@value #TX_TOPIC}, table topics {@code pg.public.<table>}; ids {@code txId:LSN}.
 */
final class RebuildEvents {

    static final String TX_TOPIC = "pg.transaction";
    static final String SOURCE = "postgresql:pg";

    private RebuildEvents() {
    }

    static String topic(String table) {
        return "pg.public." + table;
    }

    static SourceEvent begin(long offset, String id) {
        SourceEvent e = at(SourceEventKind.BEGIN, TX_TOPIC, 0, offset);
        e.setTransactionId(id);
        e.setTransactionKey(TransactionIds.key(id));
        return e;
    }

    /** @param counts table (without schema) and count, in pairs: {@code "orders", 2L, "items", 1L} */
    static SourceEvent end(long offset, String id, Object... counts) {
        SourceEvent e = at(SourceEventKind.END, TX_TOPIC, 0, offset);
        e.setTransactionId(id);
        e.setTransactionKey(TransactionIds.key(id));
        if (id.matches("\\d+:\\d+")) { // a PostgreSQL id: the LSN after ':' is the commit LSN
            e.setCommitLsn(Long.parseLong(id.substring(id.indexOf(':') + 1)));
        }
        Map<String, Long> perTable = new LinkedHashMap<>();
        long total = 0;
        for (int i = 0; i < counts.length; i += 2) {
            perTable.put("public." + counts[i], (Long) counts[i + 1]);
            total += (Long) counts[i + 1];
        }
        e.putTableEventCounts(perTable);
        e.setEventCount(total);
        return e;
    }

    /** A data event of transaction {@code id} (its LSN part is the event's own), previous commit LSN unknown. */
    static SourceEvent row(String table, int partition, long offset, String id, long totalOrder, String row) {
        SourceEvent e = at(SourceEventKind.ROW, topic(table), partition, offset);
        e.setSourceDatabase("public");
        e.setSourceTable(table);
        e.setRow(row);
        e.setTransactionId(id);
        e.setTransactionKey(TransactionIds.key(id));
        e.setTotalOrder(totalOrder);
        e.setCommitSource(SOURCE);
        return e;
    }

    /** A snapshot row ({@code op: r}): standalone. */
    static SourceEvent snapshotRow(String table, int partition, long offset, String row) {
        SourceEvent e = at(SourceEventKind.ROW, topic(table), partition, offset);
        e.setSourceDatabase("public");
        e.setSourceTable(table);
        e.setRow(row);
        e.setStandalone(true);
        e.setCommitSource(SOURCE);
        return e;
    }

    private static SourceEvent at(SourceEventKind kind, String topic, int partition, long offset) {
        SourceEvent e = new SourceEvent();
        e.setKind(kind);
        e.setTopic(topic);
        e.setPartition(partition);
        e.setOffset(offset);
        return e;
    }

    /** @return e.g. {@code BEGIN 771}, {@code ROW pg.public.orders/1@4}, {@code END 771 #0} (rebuilt position) */
    static String brief(SourceEvent e) {
        return switch (e.getKind()) {
            case BEGIN -> "BEGIN " + e.getTransactionKey();
            case END -> "END " + e.getTransactionKey() + (e.getRebuiltSource() == null ? " alone"
                    : " #" + e.getRebuiltPosition());
            case ROW -> "ROW " + e.getTopic() + "/" + e.getPartition() + "@" + e.getOffset()
                    + (e.getRebuiltSource() == null ? "" : " #" + e.getRebuiltPosition());
            default -> e.getKind().toString();
        };
    }
}
