package io.lockstep.app.rebuild;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Rules 1, 2 and 5 of the cross-topic rebuild: what it holds until release. The ENDs queued in transaction-topic
 * order (sequence numbers in {@link RebuildProgress}), the BEGIN of each unreleased transaction, its data events in
 * slots keyed by (transaction key, {@code transaction.total_order}) where the first copy of a slot wins
 * ({@link TransactionSlots} counts them), and standalone rows held behind earlier events of their partition.
 *
 * <p>Keyed state (the rebuild's one key; task thread only).
 */
final class PendingTransactions {

    private final MapState<Long, SourceEvent> ends;
    private final MapState<String, SourceEvent> begins;
    /** Offset of each held BEGIN (transaction topic) to its transaction key. */
    private final MapState<Long, String> beginKeys;
    private final MapState<String, SourceEvent> slots;
    private final MapState<String, TransactionSlots> transactions;
    private final MapState<String, SourceEvent> standaloneRows;

    /** @param context the rebuild's runtime context (keyed) */
    PendingTransactions(RuntimeContext context) {
        TypeInformation<SourceEvent> event = TypeInformation.of(SourceEvent.class);
        ends = context.getMapState(new MapStateDescriptor<>("rebuild-ends", Types.LONG, event));
        begins = context.getMapState(new MapStateDescriptor<>("rebuild-begins", Types.STRING, event));
        beginKeys = context.getMapState(new MapStateDescriptor<>("rebuild-begin-offsets", Types.LONG, Types.STRING));
        slots = context.getMapState(new MapStateDescriptor<>("rebuild-slots", Types.STRING, event));
        transactions = context.getMapState(new MapStateDescriptor<>("rebuild-transactions", Types.STRING,
                TypeInformation.of(TransactionSlots.class)));
        standaloneRows = context.getMapState(new MapStateDescriptor<>("rebuild-standalone", Types.STRING, event));
    }

    /**
     * @param event a data event
     * @return UTF-8 bytes of its row text (row and key-change delete row): what it costs against the byte bound
     */
    static long bytesOf(SourceEvent event) {
        return utf8Length(event.getRow()) + utf8Length(event.getPreviousKeyDeleteRow());
    }

    private static long utf8Length(String text) {
        if (text == null) {
            return 0;
        }
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** Queues an END at the tail. */
    void enqueue(SourceEvent end, RebuildProgress progress) throws Exception {
        ends.put(progress.getNextSeq(), end);
        progress.setNextSeq(progress.getNextSeq() + 1);
    }

    /** @return the END at the queue's head, or {@code null} */
    SourceEvent head(RebuildProgress progress) throws Exception {
        return progress.getHeadSeq() == progress.getNextSeq() ? null : ends.get(progress.getHeadSeq());
    }

    /** Removes the END at the head. */
    void pop(RebuildProgress progress) throws Exception {
        ends.remove(progress.getHeadSeq());
        progress.setHeadSeq(progress.getHeadSeq() + 1);
    }

    /** @return ENDs queued */
    long queued(RebuildProgress progress) {
        return progress.getNextSeq() - progress.getHeadSeq();
    }

    /**
     * Keeps a BEGIN until its transaction is released.
     *
     * @return the BEGIN of the same transaction key held before (replaced: a connector re-sent it), or {@code null}
     */
    SourceEvent putBegin(SourceEvent begin) throws Exception {
        SourceEvent previous = begins.get(begin.getTransactionKey());
        if (previous != null) {
            beginKeys.remove(previous.getOffset());
        }
        begins.put(begin.getTransactionKey(), begin);
        beginKeys.put(begin.getOffset(), begin.getTransactionKey());
        return previous;
    }

    /** @return the BEGIN held at the offset of the transaction topic, now removed, or {@code null} */
    SourceEvent takeBeginAt(long offset) throws Exception {
        String key = beginKeys.get(offset);
        SourceEvent begin = key == null ? null : begins.get(key);
        if (begin == null || begin.getOffset() != offset) {
            return null;
        }
        return takeBegin(key);
    }

    /** @return the BEGIN held for the transaction key, now removed, or {@code null} */
    SourceEvent takeBegin(String key) throws Exception {
        SourceEvent begin = begins.get(key);
        if (begin != null) {
            begins.remove(key);
            beginKeys.remove(begin.getOffset());
        }
        return begin;
    }

    private static String slotKey(String transactionKey, long totalOrder) {
        return transactionKey + "#" + totalOrder;
    }

    /** @return whether the data event's slot (transaction key, total order) is filled already */
    boolean filled(SourceEvent row) throws Exception {
        return slots.contains(slotKey(row.getTransactionKey(), row.getTotalOrder()));
    }

    /**
     * Fills the data event's slot (it must be empty, {@link #filled}).
     *
     * @return the bytes it holds ({@link #bytesOf})
     */
    long fill(SourceEvent row) throws Exception {
        slots.put(slotKey(row.getTransactionKey(), row.getTotalOrder()), row);
        TransactionSlots t = transactions.get(row.getTransactionKey());
        if (t == null) {
            t = new TransactionSlots();
            t.setFirstPosition(row.describePosition());
        }
        long bytes = bytesOf(row);
        t.setFilled(t.getFilled() + 1);
        t.setMaxOrder(Math.max(t.getMaxOrder(), row.getTotalOrder()));
        t.setBytes(t.getBytes() + bytes);
        t.getByTable().merge(row.dataCollection(), 1L, Long::sum);
        if (t.getCommitSource() == null) {
            t.setCommitSource(row.getCommitSource());
        }
        transactions.put(row.getTransactionKey(), t);
        return bytes;
    }

    /** @return what is held of the transaction's data events, or {@code null} for none */
    TransactionSlots slotsOf(String key) throws Exception {
        return transactions.get(key);
    }

    /**
     * @return the transaction's data events in total order, now removed (with its {@link TransactionSlots}); empty
     *     when none is held
     */
    List<SourceEvent> takeSlots(String key) throws Exception {
        TransactionSlots t = transactions.get(key);
        List<SourceEvent> rows = new ArrayList<>();
        if (t == null) {
            return rows;
        }
        for (long order = 1; order <= t.getMaxOrder() && rows.size() < t.getFilled(); order++) {
            SourceEvent row = slots.get(slotKey(key, order));
            if (row != null) {
                slots.remove(slotKey(key, order));
                rows.add(row);
            }
        }
        transactions.remove(key);
        return rows;
    }

    /** Holds a standalone row behind earlier events of its partition. */
    void holdStandalone(SourceEvent row) throws Exception {
        standaloneRows.put(CoveredOffsets.heldKey(CoveredOffsets.partitionOf(row), row.getOffset()), row);
    }

    /** @return the standalone row held at the offset of the partition ({@code topic/partition}), now removed */
    SourceEvent takeStandalone(String partition, long offset) throws Exception {
        String key = CoveredOffsets.heldKey(partition, offset);
        SourceEvent row = standaloneRows.get(key);
        if (row != null) {
            standaloneRows.remove(key);
        }
        return row;
    }

    /**
     * Rule 2: whether the transaction can be released: as many slots filled as its END counts, and as many per table.
     *
     * @param slots what is held of its data events, or {@code null}
     */
    static boolean complete(SourceEvent end, TransactionSlots slots) {
        long filled = slots == null ? 0 : slots.getFilled();
        if (filled < end.getEventCount()) {
            return false;
        }
        for (Map.Entry<String, Long> table : end.getTableEventCounts().entrySet()) {
            if (table.getValue() > 0 && (slots == null
                    || slots.getByTable().getOrDefault(table.getKey(), 0L) < table.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** A BEGIN made from an END whose BEGIN was not read (it lies before the start offset, or was lost). */
    static SourceEvent beginFrom(SourceEvent end) {
        SourceEvent begin = new SourceEvent();
        begin.setKind(SourceEventKind.BEGIN);
        begin.setTopic(end.getTopic());
        begin.setPartition(end.getPartition());
        begin.setOffset(end.getOffset());
        begin.setTransactionId(end.getTransactionId());
        begin.setTransactionKey(end.getTransactionKey());
        return begin;
    }
}
