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

    /** One open source transaction; mutable, so a row costs no allocation. */
    private static final class OpenSourceTxn {
        private final long sinceMs;
        private long rowBytes;

        OpenSourceTxn(long sinceMs, long rowBytes) {
            this.sinceMs = sinceMs;
            this.rowBytes = rowBytes;
        }

        long sinceMs() {
            return sinceMs;
        }

        long rowBytes() {
            return rowBytes;
        }
    }

    private final Map<Integer, PartitionStatus> status = new TreeMap<>();
    private final Map<Integer, OpenSourceTxn> open = new HashMap<>();
    /**
     * Sum of {@code rowBytes} over {@code open}. Written under the region table's lock like everything here, but
     * volatile, so that {@link #openSourceTxnBytes()} may be read without it (the task thread checks it once per
     * row).
     */
    private volatile long openRowBytes;

    /** A row of {@code rowBytes} bytes was written for {@code partition} at {@code nowMs}. */
    void onWrite(int partition, long rowBytes, long nowMs) {
        status.putIfAbsent(partition, PartitionStatus.ACTIVE);
        OpenSourceTxn txn = open.get(partition);
        if (txn == null) {
            open.put(partition, new OpenSourceTxn(nowMs, rowBytes));
        } else {
            txn.rowBytes += rowBytes;
        }
        openRowBytes += rowBytes;
    }

    /** The source transaction of {@code partition} ended. */
    void onTxnEnd(int partition) {
        status.put(partition, PartitionStatus.TXN_END_SEEN);
        OpenSourceTxn txn = open.remove(partition);
        if (txn != null) {
            openRowBytes -= txn.rowBytes();
        }
    }

    /** Partitions that wrote in this cycle without any transaction end, ascending. */
    SortedSet<Integer> partitionsWithoutTxnEnd() {
        SortedSet<Integer> result = new TreeSet<>();
        status.forEach((p, s) -> {
            if (s == PartitionStatus.ACTIVE) {
                result.add(p);
            }
        });
        return result;
    }

    /** Partitions with an open source transaction whose first row came at or before {@code sinceMs}, ascending. */
    SortedSet<Integer> partitionsMidTransactionSince(long sinceMs) {
        SortedSet<Integer> result = new TreeSet<>();
        open.forEach((p, txn) -> {
            if (txn.sinceMs() <= sinceMs) {
                result.add(p);
            }
        });
        return result;
    }

    /** Row bytes of the open source transaction of {@code partition}; 0 if none is open. */
    long openSourceTxnBytes(int partition) {
        OpenSourceTxn txn = open.get(partition);
        return txn == null ? 0 : txn.rowBytes();
    }

    /** Row bytes of every open source transaction together. */
    long openSourceTxnBytes() {
        return openRowBytes;
    }

    /** Row bytes of each open source transaction, by partition, ascending. */
    Map<Integer, Long> openSourceTxnBytesByPartition() {
        Map<Integer, Long> result = new TreeMap<>();
        open.forEach((p, txn) -> result.put(p, txn.rowBytes()));
        return result;
    }

    PartitionStatus status(int partition) {
        return status.get(partition);
    }

    /** Ends the cycle: forgets every partition except those with an open source transaction (kept ACTIVE). */
    void reset() {
        status.clear();
        open.keySet().forEach(p -> status.put(p, PartitionStatus.ACTIVE));
    }

    /** Forgets everything (engine closing). */
    void clear() {
        status.clear();
        open.clear();
        openRowBytes = 0;
    }
}
