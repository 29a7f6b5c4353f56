package io.lockstep.core.engine;

import io.lockstep.core.buffer.Region;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.buffer.SegmentPool;
import io.lockstep.core.format.JsonLoadFormat;
import io.lockstep.core.progress.CommitPosition;
import io.lockstep.core.progress.SourcePartition;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Task and manager threads, under one lock: every region of one engine (the region map), the writes into them and
 * their freezing under the freeze sequence, for both engines. Taking frozen chunks for loads is the table's load side,
 * {@link FrozenChunks} ({@link #frozen()}), under the same lock.
 *
 * <p>Threads: the task thread appends and switches ({@link #write}, {@link #txnEnd}, {@link #freezeForFlush});
 * the manager thread freezes idle clean regions and takes frozen chunks for loads ({@link FrozenChunks}). Both go
 * through {@code lock}; a critical section only moves rows and chunk references, never does I/O or waits, so neither
 * thread holds the other up for long.
 *
 * <p>Freeze sequence: every frozen chunk gets the next number. A commit covers the chunks up to a cut (the sequence
 * at commit start); chunks frozen later wait for the next shared label.
 *
 * <p>The bookkeeping that must change in the same critical section as a write, transaction end or freeze lives in
 * classes of its own, each owned by this table and used under its lock: {@link PartitionRegions} (the regions of a
 * partition, which reach a clean boundary and switch together), {@link PartitionCommitTracker} (open source
 * transactions and transaction ends within a commit cycle), {@link SourceTransactionEndCounts} (the ends a commit
 * cut covers) and {@link SourcePositionsByFreeze} (the source positions a commit cut covers, exactly-once mode).
 */
@ThreadSafe
final class RegionTable {
    /** Read-only view of a region, for tests and diagnostics. */
    record RegionView(boolean cleanBoundary, boolean activeHasData, long activeRowBytes, int frozenChunks,
                      long lastSwitchTimeMs) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    /** The engine's segment pool, handed to every region (thread-safe on its own). */
    private final SegmentPool pool;
    /** The load format's row separator, handed to every region. */
    private final byte[] rowSeparator;
    /** In creation order; {@link #frozen} reads it under {@code lock} too. */
    @GuardedBy("lock")
    private final Map<RegionKey, Region> regions = new LinkedHashMap<>();
    /** The load side, over {@code regions} under {@code lock} (thread-safe on its own). */
    private final FrozenChunks frozen = new FrozenChunks(lock, regions);
    @GuardedBy("lock")
    private final Map<Integer, PartitionRegions> regionsByPartition = new HashMap<>();
    /**
     * The partition of the last write or transaction end and its regions (null before the first): rows of one source
     * transaction come in a run, so most calls skip the map lookup.
     */
    @GuardedBy("lock")
    private int lastPartition;
    @GuardedBy("lock")
    private PartitionRegions lastPartitionRegions;
    /** Stands in for a partition without regions at its transaction end; always empty. */
    @GuardedBy("lock")
    private final PartitionRegions noRegions = new PartitionRegions();
    @GuardedBy("lock")
    private final PartitionCommitTracker tracker = new PartitionCommitTracker();
    /** Sequence of the last frozen chunk; 0 before the first freeze. */
    @GuardedBy("lock")
    private long lastFreezeSequence;
    @GuardedBy("lock")
    private final SourceTransactionEndCounts ends = new SourceTransactionEndCounts();
    /** Exactly-once mode only; empty otherwise. */
    @GuardedBy("lock")
    private final SourcePositionsByFreeze positions = new SourcePositionsByFreeze();

    /** A table whose chunks allocate every segment plainly (tests). */
    RegionTable() {
        this(SegmentPool.none(), JsonLoadFormat.INSTANCE.rowSeparator());
    }

    /** A table whose chunks take their larger segments from {@code pool} and join rows by {@code rowSeparator}. */
    RegionTable(SegmentPool pool, byte[] rowSeparator) {
        this.pool = pool;
        this.rowSeparator = rowSeparator;
    }

    /** Task thread: appends {@code row} to the region's active chunk, creating the region on first use. */
    void write(RegionKey key, byte[] row, long nowMs) {
        write(key.partition(), key.database(), key.table(), row, nowMs);
    }

    /**
     * Task thread, once per row: {@link #write(RegionKey, byte[], long)} with the region's key in parts; an existing
     * region is found by partition and table name without allocating a key.
     */
    void write(int partition, String database, String table, byte[] row, long nowMs) {
        lock.lock();
        try {
            PartitionRegions partitionRegions = partitionLocked(partition);
            Region region = partitionRegions == null ? null : partitionRegions.find(database, table);
            if (region == null) {
                region = regionLocked(new RegionKey(partition, database, table));
            }
            region.write(row);
            tracker.onWrite(partition, row.length, nowMs);
        } finally {
            lock.unlock();
        }
    }

    /** The regions of {@code partition}, or null if it has none yet. */
    @GuardedBy("lock")
    private PartitionRegions partitionLocked(int partition) {
        if (lastPartitionRegions == null || lastPartition != partition) {
            PartitionRegions partitionRegions = regionsByPartition.get(partition);
            if (partitionRegions == null) {
                return null;
            }
            lastPartition = partition;
            lastPartitionRegions = partitionRegions;
        }
        return lastPartitionRegions;
    }

    /**
     * Task thread, single-table modes: appends {@code row} as a unit of its own, leaving the region clean, so that
     * any freeze may cut after it. No partition bookkeeping.
     */
    void writeUnit(RegionKey key, byte[] row) {
        lock.lock();
        try {
            Region region = regionLocked(key);
            region.write(row);
            region.markClean();
        } finally {
            lock.unlock();
        }
    }

    /** The region of {@code key}, created (with the engine's segment pool) on first use. */
    @GuardedBy("lock")
    private Region regionLocked(RegionKey key) {
        Region region = regions.get(key);
        if (region == null) {
            region = new Region(key, pool, rowSeparator);
            regions.put(key, region);
            regionsByPartition.computeIfAbsent(key.partition(), p -> new PartitionRegions()).add(region);
        }
        return region;
    }

    /** {@link #txnEnd}'s answer when chunks froze: the manager has work now. */
    static final long FROZE = Long.MIN_VALUE;

    /**
     * Task thread: the source transaction of {@code partition} ended. Every region of the partition becomes clean;
     * if at least {@code miniIntervalMs} passed since the partition last switched, or the partition's active chunks
     * hold at least {@code switchBytes} row bytes together (under memory pressure: whole source transactions become
     * loadable without a chunk per transaction), all its regions with data freeze together. In exactly-once mode it
     * also records that the source transaction at {@code position} of {@code source} ended; a commit whose cut covers
     * the freeze of this end carries the position into the progress table.
     *
     * @param source          null when positions are not tracked; {@code commit}: the end's commit position, or null;
     *                        {@code covered}: the positions the end covers without rows of its own, or null
     * @param switchBytes     row bytes of the partition's active chunks that switch at once; {@code Long.MAX_VALUE}:
     *                        only the mini interval decides
     * @param idleFreezeAfterMs the idle freeze's delay after a partition's last switch ({@link #nextIdleFreezeMs})
     * @return {@link #FROZE} if chunks froze; else when the partition, clean now, falls due for the idle freeze
     *         (ticker ms, as {@link #nextIdleFreezeMs} for this partition), {@code Long.MAX_VALUE} if it has nothing
     *         to freeze
     */
    long txnEnd(int partition, SourcePartition source, long position, CommitPosition commit,
                Map<SourcePartition, Long> covered, long nowMs, long miniIntervalMs, long switchBytes,
                long idleFreezeAfterMs) {
        lock.lock();
        try {
            if (source != null) {
                positions.onTxnEnd(partition, source, position, commit, covered);
            }
            tracker.onTxnEnd(partition);
            ends.onTxnEnd(partition);
            PartitionRegions partitionRegions = partitionLocked(partition);
            if (partitionRegions == null) {
                partitionRegions = noRegions; // none yet: nothing to mark or freeze, but the ends move with a switch
            }
            partitionRegions.markClean();
            if (partitionRegions.switchDueAtTxnEnd(nowMs, miniIntervalMs, switchBytes)
                    && switchPartitionLocked(partition, partitionRegions, nowMs) > 0) {
                return FROZE;
            }
            return idleFreezeDueLocked(partition, idleFreezeAfterMs);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Manager thread, source-idle fallback: for every partition whose regions are all clean and that last switched at
     * least {@code miniIntervalMs} ago ({@code anyAge}: regardless, under memory pressure), freezes all its regions
     * with data together. Never touches a partition in the middle of a source transaction.
     *
     * @return chunks frozen
     */
    int freezeIdleClean(long nowMs, long miniIntervalMs, boolean anyAge) {
        return locked(() -> {
            int frozen = 0;
            for (Map.Entry<Integer, PartitionRegions> partition : regionsByPartition.entrySet()) {
                PartitionRegions partitionRegions = partition.getValue();
                if (partitionRegions.switchDueWhileIdle(nowMs, miniIntervalMs, anyAge)) {
                    frozen += switchPartitionLocked(partition.getKey(), partitionRegions, nowMs);
                }
            }
            return frozen;
        });
    }

    /**
     * Freezes every region of one partition that has data, in one critical section: a source transaction that wrote
     * several tables lands in chunks with adjacent freeze sequences, so a commit cut takes all of them or none (all
     * tables of a partition freeze at the same transaction end: docs/architecture.md#rules-from-field-reports). The
     * partition's transaction ends and source positions move to the freeze sequence that now covers them.
     */
    @GuardedBy("lock")
    private int switchPartitionLocked(int partition, PartitionRegions partitionRegions, long nowMs) {
        int frozen = 0;
        for (Region region : partitionRegions) {
            if (region.activeHasData()) {
                frozen += switchLocked(region, nowMs);
            }
        }
        ends.onPartitionFrozen(partition, lastFreezeSequence);
        positions.onPartitionFrozen(partition, lastFreezeSequence);
        return frozen;
    }

    /**
     * Task thread, at a flush: fails if any partition is in the middle of a source transaction, else freezes the
     * active chunk of every region with data.
     *
     * @return the freeze sequence a commit must cover for the flush to be durable
     * @throws LoadEngineException naming the partitions mid-transaction; nothing is frozen then
     */
    long freezeForFlush(long nowMs) {
        return locked(() -> {
            SortedSet<Integer> mid = tracker.partitionsMidTransactionSince(Long.MAX_VALUE);
            if (!mid.isEmpty()) {
                throw new LoadEngineException("flush refused: source partitions " + mid + " are in the middle "
                        + "of a source transaction (rows written without a following transactionEnd=true); a "
                        + "checkpoint must fall between source transactions (emit all rows of a source "
                        + "transaction in one call, the last one with transactionEnd=true)");
            }
            for (Region region : regions.values()) {
                if (region.activeHasData()) {
                    switchLocked(region, nowMs);
                }
            }
            ends.onAllFrozen(lastFreezeSequence);
            positions.onAllFrozen(lastFreezeSequence);
            return lastFreezeSequence;
        });
    }

    @GuardedBy("lock")
    private int switchLocked(Region region, long nowMs) {
        if (region.switchChunk(lastFreezeSequence + 1, nowMs)) {
            lastFreezeSequence++;
            return 1;
        }
        return 0;
    }

    /**
     * Manager thread, for its next deadline: the earliest time a partition that is clean and has something to freeze
     * (active rows, or source transaction ends not yet covered by a freeze) becomes due for the idle freeze
     * ({@link #freezeIdleClean}): its last switch plus {@code afterMs}; {@code Long.MAX_VALUE} if none.
     */
    long nextIdleFreezeMs(long afterMs) {
        lock.lock();
        try {
            long next = Long.MAX_VALUE;
            for (Integer partition : regionsByPartition.keySet()) {
                next = Math.min(next, idleFreezeDueLocked(partition, afterMs));
            }
            return next;
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private long idleFreezeDueLocked(int partition, long afterMs) {
        PartitionRegions partitionRegions = partitionLocked(partition);
        if (partitionRegions == null) {
            return Long.MAX_VALUE;
        }
        boolean endsPending = ends.hasNotFrozen(partition) || positions.hasNotFrozen(partition);
        return partitionRegions.idleSwitchDueMs(afterMs, endsPending);
    }

    /** The load side of this table: taking frozen chunks for loads (manager thread). */
    FrozenChunks frozen() {
        return frozen;
    }

    long lastFreezeSequence() {
        return locked(() -> lastFreezeSequence);
    }

    /** Partitions whose open source transaction began at or before {@code sinceMs}. */
    SortedSet<Integer> partitionsMidTransactionSince(long sinceMs) {
        return locked(() -> tracker.partitionsMidTransactionSince(sinceMs));
    }

    /** Partitions that wrote in this cycle without a transaction end. */
    SortedSet<Integer> partitionsWithoutTxnEnd() {
        return locked(() -> tracker.partitionsWithoutTxnEnd());
    }

    /** Row bytes of all open source transactions together. */
    long openSourceTxnBytes() {
        return tracker.openSourceTxnBytes(); // a volatile read: no lock, the task thread asks once per row
    }

    /** Row bytes of each open source transaction, by partition. */
    Map<Integer, Long> openSourceTxnBytesByPartition() {
        return locked(() -> tracker.openSourceTxnBytesByPartition());
    }

    /**
     * Manager thread, at a commit: removes and counts the source transaction ends whose rows are all in chunks of
     * sequence at most {@code cutSequence} (the commit makes them visible).
     */
    long takeEndsCovered(long cutSequence) {
        return locked(() -> ends.takeCovered(cutSequence));
    }

    /**
     * Manager thread, at a commit (exactly-once mode): removes and returns the highest source position per (source,
     * source partition), and the last commit position per (commit source, source partition), of the transaction ends
     * covered by chunks of sequence at most {@code cutSequence}.
     */
    SourcePositionsByFreeze.Covered takePositionsCovered(long cutSequence) {
        return locked(() -> positions.takeCovered(cutSequence));
    }

    /** Manager thread, after a commit: ends the tracker's cycle. */
    void resetTracker() {
        lock.lock();
        try {
            tracker.reset();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Discards every chunk still in the table (engine closing).
     *
     * @return row bytes discarded, to release from the budget
     */
    long discardAll() {
        return locked(() -> {
            long bytes = 0;
            for (Region region : regions.values()) {
                bytes += region.discardAll();
            }
            tracker.clear();
            ends.clear();
            positions.clear();
            return bytes;
        });
    }

    /** A view of one region, or null if it does not exist. */
    RegionView view(RegionKey key) {
        return locked(() -> {
            Region region = regions.get(key);
            return region == null ? null : new RegionView(region.cleanBoundary(), region.activeHasData(),
                    region.activeRowBytes(), region.frozenCount(), region.lastSwitchTimeMs());
        });
    }

    /**
     * Runs {@code section} under the lock and returns its result: the table's state read or changed in one critical
     * section (the per-row task-thread methods lock explicitly instead, allocating nothing).
     */
    private <T> T locked(Supplier<T> section) {
        lock.lock();
        try {
            return section.get();
        } finally {
            lock.unlock();
        }
    }
}
