package io.lockstep.core.engine;

import io.lockstep.core.progress.CommitPosition;
import io.lockstep.core.progress.SourcePartition;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Task and manager threads, under the {@link RegionTable} lock, exactly-once mode: the highest source position per
 * (source, source partition) whose source transaction ended, and the commit position of the last such transaction
 * end per (commit source, source partition) that carried one, first per engine partition until a freeze covers it,
 * then by the freeze sequence that covers it, so that a commit up to a cut carries exactly the positions whose rows it
 * makes visible into the progress table (docs/exactly-once.md#multi-table-exactly-once-progress-table). The covered
 * positions a rebuilt transaction's end carries (docs/exactly-once.md#progress-rows-of-the-multi-topic-layout) join
 * the positions of that end, highest wins, and go with them.
 *
 * <p>Not thread-safe: owned by {@link RegionTable}, which calls every method under its lock, in the same critical
 * section as the transaction end or freeze it accounts for (a position moved to a freeze sequence must have all its
 * rows in chunks of that sequence or lower).
 */
final class SourcePositionsByFreeze {
    /**
     * The commit position of a transaction end and the source position of that end.
     *
     * @param position the source position of the transaction end that carried it
     * @param text     the commit position text (opaque)
     */
    record CommitMark(long position, String text) {
    }

    /**
     * What a commit's cut covers.
     *
     * @param positions highest source position per (source, source partition)
     * @param commits   last commit position per (commit source, source partition): the key's source is the commit
     *                  source, without the {@code #commit:} prefix
     */
    record Covered(Map<SourcePartition, Long> positions, Map<SourcePartition, CommitMark> commits) {
    }

    /**
     * Positions per engine partition not yet covered by a freeze, each a one-element array raised in place (a
     * transaction end allocates nothing once its source partition is known).
     */
    private final Map<Integer, Map<SourcePartition, long[]>> notFrozen = new HashMap<>();
    /** Positions by the freeze sequence that covers them. */
    private final TreeMap<Long, Map<SourcePartition, Long>> byFreezeSequence = new TreeMap<>();
    /** Commit positions per engine partition not yet covered by a freeze; the last transaction end's wins. */
    private final Map<Integer, Map<SourcePartition, CommitMark>> commitsNotFrozen = new HashMap<>();
    /** Commit positions by the freeze sequence that covers them. */
    private final TreeMap<Long, Map<SourcePartition, CommitMark>> commitsByFreezeSequence = new TreeMap<>();

    /** The source transaction at {@code position} of {@code source} ended on engine partition {@code partition}. */
    void onTxnEnd(int partition, SourcePartition source, long position) {
        onTxnEnd(partition, source, position, null);
    }

    /**
     * As {@link #onTxnEnd(int, SourcePartition, long)}; the end carried {@code commit} (null: none), which replaces
     * the one kept for its (commit source, source partition).
     */
    void onTxnEnd(int partition, SourcePartition source, long position, CommitPosition commit) {
        onTxnEnd(partition, source, position, commit, null);
    }

    /**
     * As {@link #onTxnEnd(int, SourcePartition, long, CommitPosition)}; also each of {@code covered} (null: none), a
     * position per (source, source partition) the end covers without rows of its own (a rebuilt transaction's covered
     * topic partitions), kept like the end's own position: highest wins, moved with the end's freeze.
     */
    void onTxnEnd(int partition, SourcePartition source, long position, CommitPosition commit,
                  Map<SourcePartition, Long> covered) {
        Map<SourcePartition, long[]> positions = notFrozen.computeIfAbsent(partition, p -> new HashMap<>());
        raise(positions, source, position);
        if (covered != null) {
            covered.forEach((coveredSource, coveredPosition) -> raise(positions, coveredSource, coveredPosition));
        }
        if (commit != null) {
            commitsNotFrozen.computeIfAbsent(partition, p -> new HashMap<>()).put(
                    new SourcePartition(commit.commitSource(), source.partition()),
                    new CommitMark(position, commit.text()));
        }
    }

    /**
     * Checks a transaction end's arguments before any state changes ({@code MultiTableLoadEngine#txnEnd}).
     *
     * @param tracksPositions whether the engine runs exactly-once (a progress table)
     * @throws IllegalArgumentException naming the end: a source, commit or covered position while the engine tracks
     *     no positions, no source while it does, or a position (its own or a covered one) missing or below 0
     */
    static void checkTxnEnd(boolean tracksPositions, int partition, SourcePartition source, long position,
                            CommitPosition commit, Map<SourcePartition, Long> covered) {
        if ((source != null || commit != null || covered != null) && (!tracksPositions || position < 0)) {
            throw new IllegalArgumentException(!tracksPositions
                    ? "transaction end of " + source + " carries a position but this engine runs at-least-once"
                    : "transaction end of " + source + " has position " + position + ": expected >= 0");
        }
        if (source == null && tracksPositions) {
            throw new IllegalArgumentException("transaction end of partition " + partition + " has no source "
                    + "position: the exactly-once engine commits one for every source transaction");
        }
        if (covered != null) {
            covered.forEach((coveredSource, coveredPosition) -> {
                if (coveredPosition == null || coveredPosition < 0) {
                    throw new IllegalArgumentException("transaction end of " + source + " covers " + coveredSource
                            + " at position " + coveredPosition + ": expected >= 0");
                }
            });
        }
    }

    /** Keeps {@code position} for {@code source} unless a higher one is kept. */
    private static void raise(Map<SourcePartition, long[]> positions, SourcePartition source, long position) {
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
        Map<SourcePartition, CommitMark> commits = commitsNotFrozen.remove(partition);
        if (commits != null) {
            commitsByFreezeSequence.computeIfAbsent(freezeSequence, s -> new HashMap<>()).putAll(commits);
        }
    }

    /** Every region of every partition froze (a flush); chunks up to {@code freezeSequence} hold every position. */
    void onAllFrozen(long freezeSequence) {
        for (Map<SourcePartition, long[]> positions : notFrozen.values()) {
            merge(freezeSequence, positions);
        }
        notFrozen.clear();
        for (Map<SourcePartition, CommitMark> commits : commitsNotFrozen.values()) {
            // a (commit source, source partition) belongs to one engine partition: no two values for one key
            commitsByFreezeSequence.computeIfAbsent(freezeSequence, s -> new HashMap<>()).putAll(commits);
        }
        commitsNotFrozen.clear();
    }

    private void merge(long freezeSequence, Map<SourcePartition, long[]> positions) {
        Map<SourcePartition, Long> at = byFreezeSequence.computeIfAbsent(freezeSequence, s -> new HashMap<>());
        positions.forEach((source, position) -> at.merge(source, position[0], Math::max));
    }

    /**
     * Removes and returns the highest position per (source, source partition), and the last commit position per
     * (commit source, source partition), of the transaction ends covered by chunks of sequence at most
     * {@code cutSequence}.
     *
     * @return new maps, empty if nothing is covered
     */
    Covered takeCovered(long cutSequence) {
        Map<Long, Map<SourcePartition, Long>> covered = byFreezeSequence.headMap(cutSequence, true);
        Map<SourcePartition, Long> positions = new HashMap<>();
        for (Map<SourcePartition, Long> at : covered.values()) {
            at.forEach((source, position) -> positions.merge(source, position, Math::max));
        }
        covered.clear();
        Map<Long, Map<SourcePartition, CommitMark>> coveredCommits = commitsByFreezeSequence.headMap(cutSequence, true);
        Map<SourcePartition, CommitMark> commits = new HashMap<>();
        for (Map<SourcePartition, CommitMark> at : coveredCommits.values()) {
            commits.putAll(at); // ascending freeze sequences: the later end wins
        }
        coveredCommits.clear();
        return new Covered(positions, commits);
    }

    /** Forgets every position (engine closing). */
    void clear() {
        notFrozen.clear();
        byFreezeSequence.clear();
        commitsNotFrozen.clear();
        commitsByFreezeSequence.clear();
    }
}
