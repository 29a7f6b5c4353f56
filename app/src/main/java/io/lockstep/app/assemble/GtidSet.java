package io.lockstep.app.assemble;

import io.lockstep.app.event.Gtid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of MySQL GTIDs as MySQL writes one ({@code gtid_executed}): per source id ({@code uuid} or {@code uuid:tag},
 * {@link Gtid#sourceId()}) a sorted list of disjoint, non-adjacent closed intervals of sequence numbers. Membership
 * is what tells a re-sent transaction from a new one: a replica with {@code replica_preserve_commit_order=OFF}
 * commits transactions out of sequence order, so "at or below the highest number" would drop a new GTID that fills a
 * gap ([MySQL 8.4: GTID sets](https://dev.mysql.com/doc/refman/8.4/en/replication-gtids-concepts.html#replication-gtids-concepts-gtid-sets)).
 * Mutable; owned by one assembler task thread.
 */
final class GtidSet {

    /** Source id to its intervals {@code [first, last]}, sorted, disjoint and not adjacent. */
    private final TreeMap<String, List<long[]>> intervals = new TreeMap<>();

    /** @return whether {@code gtid} is in the set */
    boolean contains(Gtid gtid) {
        List<long[]> list = intervals.get(gtid.sourceId());
        if (list == null) {
            return false;
        }
        for (long[] interval : list) {
            if (gtid.number() >= interval[0] && gtid.number() <= interval[1]) {
                return true;
            }
        }
        return false;
    }

    /** Adds {@code gtid}, merging it with the intervals it touches. */
    void add(Gtid gtid) {
        addInterval(gtid.sourceId(), gtid.number(), gtid.number());
    }

    /** Adds every GTID of {@code other}. */
    void addAll(GtidSet other) {
        other.intervals.forEach((id, list) -> list.forEach(i -> addInterval(id, i[0], i[1])));
    }

    private void addInterval(String sourceId, long first, long last) {
        List<long[]> list = intervals.computeIfAbsent(sourceId, id -> new ArrayList<>());
        List<long[]> merged = new ArrayList<>();
        long from = first;
        long to = last;
        int insertAt = 0;
        for (long[] interval : list) {
            if (interval[1] < from - 1) {
                merged.add(interval);
                insertAt = merged.size();
            } else if (interval[0] > to + 1) {
                merged.add(interval);
            } else {
                from = Math.min(from, interval[0]);
                to = Math.max(to, interval[1]);
            }
        }
        merged.add(insertAt, new long[] {from, to});
        intervals.put(sourceId, merged);
    }

    /** @return source id to its intervals as {@code [first, last]} pairs, for the commit position text */
    Map<String, List<long[]>> toMap() {
        Map<String, List<long[]>> copy = new TreeMap<>();
        intervals.forEach((id, list) -> copy.put(id, list.stream().map(long[]::clone).toList()));
        return copy;
    }

    /**
     * @param map source id to {@code [first, last]} pairs (as {@link #toMap()} gives)
     * @return the set
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
        intervals.forEach((id, list) -> {
            text.append(text.length() == 0 ? "" : ",").append(id);
            for (long[] i : list) {
                text.append(':').append(i[0]).append(i[0] == i[1] ? "" : "-" + i[1]);
            }
        });
        return text.toString();
    }
}
