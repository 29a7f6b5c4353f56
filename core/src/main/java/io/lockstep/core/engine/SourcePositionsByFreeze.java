package io.lockstep.core.engine;

import io.lockstep.core.progress.SourcePartition;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Task and manager threads, under the {@link RegionTable} lock, exactly-once mode: the highest source position per
 * (source, source partition) whose source transaction ended, first per engine partition until a freeze covers it,
 * then by the freeze sequence that covers it, so that a commit up to a cut carries exactly the positions whose rows it
 * makes visible into the progress table (docs/exactly-once.md#multi-table-exactly-once-progress-table).
 *
 * <p>Not thread-safe: owned by {@link RegionTable}, which calls every method under its lock, in the same critical
 * section as the transaction end or freeze it accounts for (a position moved to a freeze sequence must have all its
 * rows in chunks of that sequence or lower).
 */
final class SourcePositionsByFreeze {
    /**
     * Positions per engine partition not yet covered by a freeze, each a one-element array raised in place (a
     * transaction end allocates nothing once its source partition is known).
     */
    private final Map<Integer, Map<SourcePartition, long[]>> notFrozen = new HashMap<>();
    /** Positions by the freeze sequence that covers them. */
    private final TreeMap<Long, Map<SourcePartition, Long>> byFreezeSequence = new TreeMap<>();

    /** The source transaction at {@code position} of {@code source} ended on engine partition {@code partition}. */
    void onTxnEnd(int partition, SourcePartition source, long position) {
        Map<SourcePartition, long[]> positions = notFrozen.get(partition);
        if (positions == null) {
            positions = new HashMap<>();
            notFrozen.put(partition, positions);
        }
        long[] highest = positions.get(source);
        if (highest == null) {
            positions.put(source, new long[] {position});
        } else if (position > highest[0]) {
            highest[0] = position;
        }
    }

    /** True if {@code partition} has transaction ends that no freeze covers yet. */
    boolean hasNotFrozen(int partition) {
        return notFrozen.containsKey(partition);
    }

    /** Every region of {@code partition} froze; chunks up to {@code freezeSequence} hold its ended transactions. */
    void onPartitionFrozen(int partition, long freezeSequence) {
        Map<SourcePartition, long[]> positions = notFrozen.remove(partition);
        if (positions != null) {
            merge(freezeSequence, positions);
        }
    }

    /** Every region of every partition froze (a flush); chunks up to {@code freezeSequence} hold every position. */
    void onAllFrozen(long freezeSequence) {
        for (Map<SourcePartition, long[]> positions : notFrozen.values()) {
            merge(freezeSequence, positions);
        }
        notFrozen.clear();
    }

    private void merge(long freezeSequence, Map<SourcePartition, long[]> positions) {
        Map<SourcePartition, Long> at = byFreezeSequence.computeIfAbsent(freezeSequence, s -> new HashMap<>());
        positions.forEach((source, position) -> at.merge(source, position[0], Math::max));
    }

    /**
     * Removes and returns the highest position per (source, source partition) of the transaction ends covered by
     * chunks of sequence at most {@code cutSequence}.
     *
     * @return a new map, empty if nothing is covered
     */
    Map<SourcePartition, Long> takeCovered(long cutSequence) {
        Map<Long, Map<SourcePartition, Long>> covered = byFreezeSequence.headMap(cutSequence, true);
        Map<SourcePartition, Long> positions = new HashMap<>();
        for (Map<SourcePartition, Long> at : covered.values()) {
            at.forEach((source, position) -> positions.merge(source, position, Math::max));
        }
        covered.clear();
        return positions;
    }

    /** Forgets every position (engine closing). */
    void clear() {
        notFrozen.clear();
        byFreezeSequence.clear();
    }
}
