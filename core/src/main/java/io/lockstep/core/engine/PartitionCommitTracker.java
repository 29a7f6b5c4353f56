package io.lockstep.core.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Bookkeeping of source partitions within a commit cycle (docs/architecture.md#the-multi-table-commit-cycle):
 * {@link #onWrite} marks a partition ACTIVE, {@link #onTxnEnd} marks it TXN_END_SEEN (sticky within the cycle),
 * {@link #partitionsWithoutTxnEnd()} lists partitions that wrote without any transaction end, and {@link #reset()} ends
 * the cycle.
 *
 * <p>It also remembers, per partition, whether a source transaction is open now (rows written since the last
 * transaction end), since when, and how many row bytes it holds. These feed the flush and recycle fail-fast
 * checks and the "source transaction larger than the hard limit" check. {@link #reset()} keeps open source
 * transactions: their rows are still buffered and belong to a later cycle.
 *
 * <p>Not thread-safe: owned by {@link RegionTable} and used under its lock; only {@link #openSourceTxnBytes()} may
 * be read without it.
 */
final class PartitionCommitTracker {
    /** A partition's status within the current commit cycle. */
    enum PartitionStatus { ACTIVE, TXN_END_SEEN }

    /**
     * One partition's status in the cycle (null: forgotten since the last reset) and its open source transaction;
     * mutable, and one per partition for the engine's life, so a row costs one lookup and no allocation.
     */
    private static final class PartitionState {
        private PartitionStatus status;
        private boolean open;
        private long sinceMs;
        private long rowBytes;
    }

    /** Every partition seen since the last {@link #clear()}: a subtask's partitions, a bounded set. */
    private final Map<Integer, PartitionState> partitions = new HashMap<>();
    /** The partition of the last call and its state (null before the first): rows of a transaction come in a run. */
    private int lastPartition;
    private PartitionState lastState;
    /**
     * Sum of {@code rowBytes} over the open source transactions. Written under the region table's lock like
     * everything here, but volatile, so that {@link #openSourceTxnBytes()} may be read without it (the task thread
     * checks it once per row).
     */
    private volatile long openRowBytes;

    /** A row of {@code rowBytes} bytes was written for {@code partition} at {@code nowMs}. */
    void onWrite(int partition, long rowBytes, long nowMs) {
        PartitionState state = state(partition);
        if (state.status == null) {
            state.status = PartitionStatus.ACTIVE;
        }
        if (state.open) {
            state.rowBytes += rowBytes;
        } else {
            state.open = true;
            state.sinceMs = nowMs;
            state.rowBytes = rowBytes;
        }
        openRowBytes += rowBytes;
    }

    /** The source transaction of {@code partition} ended. */
    void onTxnEnd(int partition) {
        PartitionState state = state(partition);
        state.status = PartitionStatus.TXN_END_SEEN;
        if (state.open) {
            state.open = false;
            openRowBytes -= state.rowBytes;
            state.rowBytes = 0;
        }
    }

    private PartitionState state(int partition) {
        if (lastState == null || lastPartition != partition) {
            PartitionState state = partitions.get(partition);
            if (state == null) {
                state = new PartitionState();
                partitions.put(partition, state);
            }
            lastPartition = partition;
            lastState = state;
        }
        return lastState;
    }

    /** Partitions that wrote in this cycle without any transaction end, ascending. */
    SortedSet<Integer> partitionsWithoutTxnEnd() {
        SortedSet<Integer> result = new TreeSet<>();
        partitions.forEach((p, state) -> {
            if (state.status == PartitionStatus.ACTIVE) {
                result.add(p);
            }
        });
        return result;
    }

    /** Partitions with an open source transaction whose first row came at or before {@code sinceMs}, ascending. */
    SortedSet<Integer> partitionsMidTransactionSince(long sinceMs) {
        SortedSet<Integer> result = new TreeSet<>();
        partitions.forEach((p, state) -> {
            if (state.open && state.sinceMs <= sinceMs) {
                result.add(p);
            }
        });
        return result;
    }

    /** Row bytes of the open source transaction of {@code partition}; 0 if none is open. */
    long openSourceTxnBytes(int partition) {
        PartitionState state = partitions.get(partition);
        return state == null || !state.open ? 0 : state.rowBytes;
    }

    /** Row bytes of every open source transaction together. */
    long openSourceTxnBytes() {
        return openRowBytes;
    }

    /** Row bytes of each open source transaction, by partition, ascending. */
    Map<Integer, Long> openSourceTxnBytesByPartition() {
        Map<Integer, Long> result = new TreeMap<>();
        partitions.forEach((p, state) -> {
            if (state.open) {
                result.put(p, state.rowBytes);
            }
        });
        return result;
    }

    PartitionStatus status(int partition) {
        PartitionState state = partitions.get(partition);
        return state == null ? null : state.status;
    }

    /** Ends the cycle: forgets every partition except those with an open source transaction (kept ACTIVE). */
    void reset() {
        for (PartitionState state : partitions.values()) {
            state.status = state.open ? PartitionStatus.ACTIVE : null;
        }
    }

    /** Forgets everything (engine closing). */
    void clear() {
        partitions.clear();
        lastState = null;
        openRowBytes = 0;
    }
}
