package io.lockstep.app.assemble;

import io.lockstep.app.event.Gtid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A committed set of MySQL GTIDs, per source id ({@code uuid} or {@code uuid:tag}, {@link Gtid#sourceId()}) sorted,
 * disjoint, non-adjacent closed intervals of sequence numbers, as MySQL writes {@code gtid_executed}. Membership is
 * what tells a re-sent transaction from a new one: a replica with {@code replica_preserve_commit_order=OFF} commits
 * transactions out of sequence order, so "at or below the highest number" would drop a new GTID that fills a gap
 * ([MySQL 8.4: GTID sets](https://dev.mysql.com/doc/refman/8.4/en/replication-gtids-concepts.html#replication-gtids-concepts-gtid-sets)).
 *
 * <p>Bounded: intervals are exact only within {@value #WINDOW} sequence numbers below the highest committed number of
 * each source id. Everything at or below that window's floor collapses into one committed interval
 * {@code [1, floor]}: a GTID below the floor counts as committed (a re-send). A source partition sees a gap for every
 * transaction it does not carry (Debezium skips transactions that touch no captured table, Maxwell puts other
 * databases on other partitions), so without the bound the set grows by one interval per transaction
 * (docs/input-formats.md#source-commit-positions-and-re-sends says why {@value #WINDOW} is enough). Adding a GTID
 * costs O(log w) plus the intervals it collapses (each once), w the intervals in the window (at most
 * {@value #WINDOW}/2). Mutable; owned by one assembler task thread.
 */
final class GtidSet {

    /**
     * Sequence numbers below a source id's highest committed one kept exactly; a late commit of a replica without
     * {@code replica_preserve_commit_order} is at most {@code replica_checkpoint_group} (default 512) transactions
     * behind, so 1,000 covers the default with room.
     */
    static final long WINDOW = 1_000;

    /** Source id to its intervals, first number to last, sorted, disjoint and not adjacent. */
    private final TreeMap<String, TreeMap<Long, Long>> intervals = new TreeMap<>();

    /** @return whether {@code gtid} is in the set (below a source id's floor: always) */
    boolean contains(Gtid gtid) {
        TreeMap<Long, Long> map = intervals.get(gtid.sourceId());
        if (map == null) {
            return false;
        }
        Map.Entry<Long, Long> at = map.floorEntry(gtid.number());
        return at != null && gtid.number() <= at.getValue();
    }

    /** Adds {@code gtid}, merging it with the intervals it touches and collapsing what falls below the window. */
    void add(Gtid gtid) {
        addInterval(gtid.sourceId(), gtid.number(), gtid.number());
    }

    /** Adds every GTID of {@code other}. */
    void addAll(GtidSet other) {
        other.intervals.forEach((id, map) -> map.forEach((first, last) -> addInterval(id, first, last)));
    }

    /** @return a copy that shares nothing with this set */
    GtidSet copy() {
        GtidSet copy = new GtidSet();
        copy.addAll(this);
        return copy;
    }

    private void addInterval(String sourceId, long first, long last) {
        TreeMap<Long, Long> map = intervals.computeIfAbsent(sourceId, id -> new TreeMap<>());
        long from = first;
        long to = last;
        Map.Entry<Long, Long> left = map.floorEntry(first);
        if (left != null && left.getValue() >= first - 1) {
            from = left.getKey();
            to = Math.max(to, left.getValue());
            map.remove(left.getKey());
        }
        for (Map.Entry<Long, Long> right = map.ceilingEntry(from); right != null && right.getKey() <= to + 1;
                right = map.ceilingEntry(from)) {
            to = Math.max(to, right.getValue());
            map.remove(right.getKey());
        }
        map.put(from, to);
        long floor = map.lastEntry().getValue() - WINDOW;
        if (floor < 1 || map.firstKey() == 1 && map.firstEntry().getValue() >= floor) {
            return; // nothing below the floor but [1, >= floor]
        }
        long collapsed = floor;
        for (Map.Entry<Long, Long> low = map.firstEntry(); low != null && low.getKey() <= floor + 1;
                low = map.firstEntry()) {
            collapsed = Math.max(collapsed, low.getValue());
            map.remove(low.getKey());
        }
        map.put(1L, collapsed);
    }

    /** @return source id to its intervals as {@code [first, last]} pairs, for the commit position text */
    Map<String, List<long[]>> toMap() {
        Map<String, List<long[]>> copy = new TreeMap<>();
        intervals.forEach((id, map) -> {
            List<long[]> list = new ArrayList<>(map.size());
            map.forEach((first, last) -> list.add(new long[] {first, last}));
            copy.put(id, list);
        });
        return copy;
    }

    /**
     * Appends the set as JSON, source id (uuid, tag: no character to escape, {@link Gtid}) to {@code [first, last]}
     * pairs, e.g. {@code {"3e11fa47-71ca-11e1-9e33-c80aa9429562":[[1,23],[25,25]]}}: what {@link #fromMap} reads.
     */
    void appendJson(StringBuilder json) {
        json.append('{');
        String[] comma = {""};
        intervals.forEach((id, map) -> {
            json.append(comma[0]).append('"').append(id).append("\":[");
            comma[0] = ",";
            String[] inner = {""};
            map.forEach((first, last) -> {
                json.append(inner[0]).append('[').append(first).append(',').append(last).append(']');
                inner[0] = ",";
            });
            json.append(']');
        });
        json.append('}');
    }

    /** @return the number of source ids */
    int sourceIds() {
        return intervals.size();
    }

    /**
     * @param map source id to {@code [first, last]} pairs (as {@link #toMap()} gives)
     * @return the set (collapsed below each source id's window)
     * @throws IllegalArgumentException on a pair that is not two numbers {@code 1 <= first <= last}
     */
    static GtidSet fromMap(Map<String, List<long[]>> map) {
        GtidSet set = new GtidSet();
        map.forEach((id, list) -> list.forEach(pair -> {
            if (pair.length != 2 || pair[0] < 1 || pair[0] > pair[1]) {
                throw new IllegalArgumentException("GTID interval of '" + id + "' is not [first, last] with "
                        + "1 <= first <= last");
            }
            set.addInterval(id, pair[0], pair[1]);
        }));
        return set;
    }

    /** @return MySQL's notation, {@code uuid:1-5:7,uuid2:tag:1-3} (tagged ids as their own entries) */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        intervals.forEach((id, map) -> {
            text.append(text.length() == 0 ? "" : ",").append(id);
            map.forEach((first, last) -> text.append(':').append(first).append(first.equals(last) ? "" : "-" + last));
        });
        return text.toString();
    }
}
