package io.lockstep.core.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Task and manager threads, under the {@link RegionTable} lock: counts of source transaction ends, first per engine
 * partition until a freeze covers them, then by the freeze sequence that covers them, so that a commit up to a cut
 * counts the source transactions it makes visible (the committed-source-transactions metric).
 *
 * <p>Not thread-safe: owned by {@link RegionTable}, which calls every method under its lock, in the same critical
 * section as the write, transaction end or freeze it accounts for (an end moved to a freeze sequence must have all
 * its rows in chunks of that sequence or lower).
 */
final class SourceTransactionEndCounts {
    /**
     * Ends per engine partition not yet covered by a freeze, as a one-element count (counted in place: a transaction
     * end allocates nothing).
     */
    private final Map<Integer, long[]> notFrozen = new HashMap<>();
    /** Ends by the freeze sequence that covers them. */
    private final TreeMap<Long, Long> byFreezeSequence = new TreeMap<>();

    /** A source transaction of {@code partition} ended; its rows are in the partition's active chunks. */
    void onTxnEnd(int partition) {
        long[] count = notFrozen.get(partition);
        if (count == null) {
            notFrozen.put(partition, new long[] {1});
        } else {
            count[0]++;
        }
    }

    /** True if {@code partition} has transaction ends that no freeze covers yet. */
    boolean hasNotFrozen(int partition) {
        return notFrozen.containsKey(partition);
    }

    /** Every region of {@code partition} froze; chunks up to {@code freezeSequence} hold the ends seen so far. */
    void onPartitionFrozen(int partition, long freezeSequence) {
        long[] ends = notFrozen.remove(partition);
        if (ends != null) {
            byFreezeSequence.merge(freezeSequence, ends[0], Long::sum);
        }
    }

    /** Every region of every partition froze (a flush); chunks up to {@code freezeSequence} hold every end. */
    void onAllFrozen(long freezeSequence) {
        for (long[] ends : notFrozen.values()) {
            byFreezeSequence.merge(freezeSequence, ends[0], Long::sum);
        }
        notFrozen.clear();
    }

    /**
     * Removes and counts the ends whose rows are all in chunks of sequence at most {@code cutSequence}.
     *
     * @return ends covered, 0 or more
     */
    long takeCovered(long cutSequence) {
        Map<Long, Long> covered = byFreezeSequence.headMap(cutSequence, true);
        long ends = 0;
        for (long n : covered.values()) {
            ends += n;
        }
        covered.clear();
        return ends;
    }

    /** Forgets every end (engine closing). */
    void clear() {
        notFrozen.clear();
        byFreezeSequence.clear();
    }
}
