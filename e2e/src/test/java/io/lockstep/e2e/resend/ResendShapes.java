package io.lockstep.e2e.resend;

import io.lockstep.e2e.resend.TopicRecord.Kind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Sorts the source transactions of a Debezium topic that one publisher restart split in two (records at offsets
 * below {@code restartOffset} were written by the run that was killed, the others by the restarted run) by how each
 * transaction appears on the two sides: the shapes docs/input-formats.md ("Offsets, restarts and what is sent
 * again") describes. Transactions are grouped by their PostgreSQL xid ({@link TopicRecord#xid()}); a topic in which
 * one xid names two different transactions (xid wrap-around) is outside what this class sorts.
 */
public final class ResendShapes {

    /** How a transaction appears before and after the restart. */
    public enum Shape {
        /** Whole (BEGIN, events 1..n, END) before the restart only: its offsets had been flushed. */
        ONCE_BEFORE,
        /** Whole after the restart only: committed or read after the crash. */
        ONCE_AFTER,
        /** Whole before, and the same records (same ids, orders, positions and row images) whole again after. */
        WHOLE_RESENT,
        /** Before: BEGIN and events 1..k (k &lt; n) without END (the crash cut it); after: whole again. */
        CUT_THEN_WHOLE,
        /**
         * Before: whole; after: no BEGIN, events k+1..n (k &gt;= 0) and END: resumed from an offset inside it (k = 0
         * when the offset flushed was the BEGIN's).
         */
        RESUMED_INSIDE,
        /**
         * Before: BEGIN and events 1..k without END; after: no BEGIN, events j+1..n (j &lt;= k) and END: the offset
         * flushed last was inside it, and the crash cut it.
         */
        CUT_THEN_RESUMED,
        /** Anything else. */
        OTHER
    }

    /** One source transaction: its xid, its records on each side and its shape. */
    public record Transaction(String xid, List<TopicRecord> before, List<TopicRecord> after, Shape shape) {

        /** @return the records of the restarted run that repeat a record of the killed run */
        public long resentRecords() {
            java.util.Set<String> sent = before.stream().map(b -> b.kind() + " " + b.identity())
                    .collect(Collectors.toSet());
            return after.stream().filter(a -> sent.contains(a.kind() + " " + a.identity())).count();
        }

        /** @return a one-line description: xid, shape, and the offsets of both sides */
        public String describe() {
            return "xid " + xid + " " + shape + ": before " + span(before) + ", after " + span(after);
        }

        private static String span(List<TopicRecord> records) {
            if (records.isEmpty()) {
                return "none";
            }
            return records.size() + " records at offsets " + records.get(0).offset() + ".."
                    + records.get(records.size() - 1).offset() + " (" + records.get(0).kind() + " .. "
                    + records.get(records.size() - 1).kind() + ")";
        }
    }

    private final List<Transaction> transactions;
    private final List<TopicRecord> outsideTransactions;

    private ResendShapes(List<Transaction> transactions, List<TopicRecord> outsideTransactions) {
        this.transactions = transactions;
        this.outsideTransactions = outsideTransactions;
    }

    /**
     * @param records the topic's records in offset order (one partition)
     * @param restartOffset the first offset the restarted run wrote
     * @return the transactions, in the order of their first record
     */
    public static ResendShapes classify(List<TopicRecord> records, long restartOffset) {
        Map<String, List<TopicRecord>> before = new LinkedHashMap<>();
        Map<String, List<TopicRecord>> after = new LinkedHashMap<>();
        List<TopicRecord> outside = new ArrayList<>();
        for (TopicRecord record : records) {
            String xid = record.xid();
            if (xid == null) {
                outside.add(record);
                continue;
            }
            Map<String, List<TopicRecord>> side = record.offset() < restartOffset ? before : after;
            side.computeIfAbsent(xid, x -> new ArrayList<>()).add(record);
            (side == before ? after : before).putIfAbsent(xid, new ArrayList<>());
        }
        List<Transaction> transactions = new ArrayList<>();
        for (Map.Entry<String, List<TopicRecord>> entry : before.entrySet()) {
            List<TopicRecord> b = entry.getValue();
            List<TopicRecord> a = after.get(entry.getKey());
            transactions.add(new Transaction(entry.getKey(), b, a, shapeOf(b, a)));
        }
        transactions.sort((x, y) -> Long.compare(firstOffset(x), firstOffset(y)));
        return new ResendShapes(transactions, outside);
    }

    private static long firstOffset(Transaction t) {
        return t.before().isEmpty() ? t.after().get(0).offset() : t.before().get(0).offset();
    }

    private static Shape shapeOf(List<TopicRecord> before, List<TopicRecord> after) {
        boolean wholeBefore = isWhole(before);
        boolean wholeAfter = isWhole(after);
        if (wholeBefore && after.isEmpty()) {
            return Shape.ONCE_BEFORE;
        }
        if (before.isEmpty() && wholeAfter) {
            return Shape.ONCE_AFTER;
        }
        if (wholeBefore && wholeAfter) {
            return sameRecords(before, after) ? Shape.WHOLE_RESENT : Shape.OTHER;
        }
        if (wholeAfter && isCut(before) && before.size() < after.size()
                && sameRecords(before, after.subList(0, before.size()))) {
            return Shape.CUT_THEN_WHOLE;
        }
        if (wholeBefore && isResumedSuffix(after) && after.size() < before.size()
                && sameRecords(before.subList(before.size() - after.size(), before.size()), after)) {
            return Shape.RESUMED_INSIDE;
        }
        if (isCut(before) && isResumedSuffix(after) && after.get(0).totalOrder() <= before.size()
                && sameRecords(before.subList((int) after.get(0).totalOrder(), before.size()),
                        after.subList(0, before.size() - (int) after.get(0).totalOrder()))) {
            return Shape.CUT_THEN_RESUMED;
        }
        return Shape.OTHER;
    }

    /** BEGIN, data events with total_order 1..n in order, END with event_count n. */
    private static boolean isWhole(List<TopicRecord> records) {
        if (records.size() < 2 || records.get(0).kind() != Kind.BEGIN
                || records.get(records.size() - 1).kind() != Kind.END) {
            return false;
        }
        for (int i = 1; i < records.size() - 1; i++) {
            if (records.get(i).kind() != Kind.DATA || records.get(i).totalOrder() != i) {
                return false;
            }
        }
        return records.get(records.size() - 1).eventCount() == records.size() - 2;
    }

    /** BEGIN and data events 1..k, no END. */
    private static boolean isCut(List<TopicRecord> records) {
        if (records.isEmpty() || records.get(0).kind() != Kind.BEGIN) {
            return false;
        }
        for (int i = 1; i < records.size(); i++) {
            if (records.get(i).kind() != Kind.DATA || records.get(i).totalOrder() != i) {
                return false;
            }
        }
        return true;
    }

    /** Data events k+1..n (k >= 0) in order, then END with event_count n; no BEGIN. */
    private static boolean isResumedSuffix(List<TopicRecord> records) {
        if (records.size() < 2 || records.get(0).kind() != Kind.DATA
                || records.get(records.size() - 1).kind() != Kind.END) {
            return false;
        }
        long first = records.get(0).totalOrder();
        for (int i = 0; i < records.size() - 1; i++) {
            if (records.get(i).kind() != Kind.DATA || records.get(i).totalOrder() != first + i) {
                return false;
            }
        }
        return first >= 1 && records.get(records.size() - 1).eventCount() == first + records.size() - 2;
    }

    private static boolean sameRecords(List<TopicRecord> a, List<TopicRecord> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).kind() != b.get(i).kind() || !a.get(i).identity().equals(b.get(i).identity())) {
                return false;
            }
        }
        return true;
    }

    /** @return every transaction, in the order of its first record */
    public List<Transaction> transactions() {
        return transactions;
    }

    /** @return the transactions of one shape, in the order of their first record */
    public List<Transaction> of(Shape shape) {
        return transactions.stream().filter(t -> t.shape() == shape).toList();
    }

    /** @return records that belong to no transaction (tombstones, snapshot reads) */
    public List<TopicRecord> outsideTransactions() {
        return outsideTransactions;
    }

    /** @return the number of records the restarted run sent again */
    public long resentRecords() {
        return transactions.stream().mapToLong(Transaction::resentRecords).sum();
    }

    /** @return the number of transactions of each shape (every shape listed) */
    public Map<Shape, Long> counts() {
        Map<Shape, Long> counts = new EnumMap<>(Shape.class);
        for (Shape shape : Shape.values()) {
            counts.put(shape, 0L);
        }
        counts.putAll(transactions.stream().collect(Collectors.groupingBy(Transaction::shape, Collectors.counting())));
        return counts;
    }
}
