package io.lockstep.core.engine;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.Region;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.buffer.SegmentPool;
import io.lockstep.core.progress.SourcePartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Every region of one engine, the partition commit tracker and the freeze sequence, under one lock.
 *
 * <p>Threads: the task thread appends and switches ({@link #write}, {@link #txnEnd}, {@link #freezeForFlush});
 * the manager thread freezes idle clean regions and takes frozen chunks for loads. Both go through {@code lock}; a
 * critical section only moves rows and chunk references, never does I/O or waits, so neither thread holds the other
 * up for long. A chunk leaves the table when the manager takes it; from then on the manager owns it.
 *
 * <p>Freeze sequence: every frozen chunk gets the next number. A commit covers the chunks up to a cut (the sequence
 * at commit start); chunks frozen later wait for the next shared label.
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
    @GuardedBy("lock")
    private final Map<RegionKey, Region> regions = new LinkedHashMap<>();
    @GuardedBy("lock")
    private final Map<Integer, List<Region>> regionsByPartition = new HashMap<>();
    @GuardedBy("lock")
    private final PartitionCommitTracker tracker = new PartitionCommitTracker();
    /** Sequence of the last frozen chunk; 0 before the first freeze. */
    @GuardedBy("lock")
    private long lastFreezeSequence;
    /** Source transaction ends per partition not yet covered by a freeze (for the committed-transactions metric). */
    @GuardedBy("lock")
    private final Map<Integer, Long> endsNotFrozen = new HashMap<>();
    /** Source transaction ends by the freeze sequence that covers them; a commit up to a cut takes them. */
    @GuardedBy("lock")
    private final TreeMap<Long, Long> endsByFreezeSequence = new TreeMap<>();

    /**
     * Exactly-once mode: the highest source position per (source, source partition) whose transaction ended on an
     * engine partition but is not yet covered by a freeze, by engine partition.
     */
    @GuardedBy("lock")
    private final Map<Integer, Map<SourcePartition, Long>> positionsNotFrozen = new HashMap<>();
    /** Exactly-once mode: those positions by the freeze sequence that covers them; a commit up to a cut takes them. */
    @GuardedBy("lock")
    private final TreeMap<Long, Map<SourcePartition, Long>> positionsByFreezeSequence = new TreeMap<>();

    /** A table whose chunks allocate every segment plainly (tests). */
    RegionTable() {
        this(SegmentPool.none());
    }

    /** A table whose chunks take their larger segments from {@code pool}. */
    RegionTable(SegmentPool pool) {
        this.pool = pool;
    }

    /** Task thread: appends {@code row} to the region's active chunk, creating the region on first use. */
    void write(RegionKey key, byte[] row, long nowMs) {
        lock.lock();
        try {
            Region region = regionLocked(key);
            region.write(row);
            tracker.onWrite(key.partition(), row.length, nowMs);
        } finally {
            lock.unlock();
        }
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
            region = new Region(key, pool);
            regions.put(key, region);
            regionsByPartition.computeIfAbsent(key.partition(), p -> new ArrayList<>()).add(region);
        }
        return region;
    }

    /**
     * Task thread: the source transaction of {@code partition} ended. Every region of the partition becomes clean;
     * if at least {@code miniIntervalMs} passed since the partition last switched, all its regions with data freeze
     * together.
     *
     * @return chunks frozen
     */
    int txnEnd(int partition, long nowMs, long miniIntervalMs) {
        return txnEnd(partition, null, -1L, nowMs, miniIntervalMs);
    }

    /**
     * Task thread, exactly-once mode: like {@link #txnEnd(int, long, long)}, also recording that the source
     * transaction at {@code position} of {@code source} ended; a commit whose cut covers the freeze of this end
     * carries the position into the progress table.
     *
     * @param source null when positions are not tracked
     */
    int txnEnd(int partition, SourcePartition source, long position, long nowMs, long miniIntervalMs) {
        return txnEnd(partition, source, position, nowMs, miniIntervalMs, Long.MAX_VALUE);
    }

    /**
     * Like {@link #txnEnd(int, SourcePartition, long, long, long)}, also switching inside the mini interval once the
     * partition's active chunks hold at least {@code switchBytes} row bytes together (under memory pressure: whole
     * source transactions become loadable without a chunk per transaction).
     *
     * @param switchBytes row bytes of the partition's active chunks that switch at once; {@code Long.MAX_VALUE}: only
     *                    the mini interval decides
     */
    int txnEnd(int partition, SourcePartition source, long position, long nowMs, long miniIntervalMs,
               long switchBytes) {
        lock.lock();
        try {
            if (source != null) {
                positionsNotFrozen.computeIfAbsent(partition, p -> new HashMap<>()).merge(source, position, Math::max);
            }
            List<Region> partitionRegions = regionsByPartition.getOrDefault(partition, List.of());
            for (Region region : partitionRegions) {
                region.markClean();
            }
            tracker.onTxnEnd(partition);
            endsNotFrozen.merge(partition, 1L, Long::sum);
            boolean due = nowMs - lastSwitchTimeMs(partitionRegions) >= miniIntervalMs
                    || switchBytes != Long.MAX_VALUE && activeRowBytes(partitionRegions) >= switchBytes;
            return due ? switchPartitionLocked(partition, partitionRegions, nowMs) : 0;
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
        lock.lock();
        try {
            int frozen = 0;
            for (Map.Entry<Integer, List<Region>> partition : regionsByPartition.entrySet()) {
                List<Region> partitionRegions = partition.getValue();
                boolean clean = true;
                for (Region region : partitionRegions) {
                    clean &= region.cleanBoundary();
                }
                if (clean && (anyAge || nowMs - lastSwitchTimeMs(partitionRegions) >= miniIntervalMs)) {
                    frozen += switchPartitionLocked(partition.getKey(), partitionRegions, nowMs);
                }
            }
            return frozen;
        } finally {
            lock.unlock();
        }
    }

    private static long activeRowBytes(List<Region> partitionRegions) {
        long bytes = 0;
        for (Region region : partitionRegions) {
            bytes += region.activeRowBytes();
        }
        return bytes;
    }

    /**
     * A partition's last switch: the latest of its regions'. Its regions always switch together, so every region
     * with data carries this time; a region created since has 0.
     */
    private static long lastSwitchTimeMs(List<Region> partitionRegions) {
        long last = 0;
        for (Region region : partitionRegions) {
            last = Math.max(last, region.lastSwitchTimeMs());
        }
        return last;
    }

    /**
     * Freezes every region of one partition that has data, in one critical section: a source transaction that wrote
     * several tables lands in chunks with adjacent freeze sequences, so a commit cut takes all of them or none (all
     * tables of a partition freeze at the same transaction end: docs/architecture.md#rules-from-field-reports).
     */
    @GuardedBy("lock")
    private int switchPartitionLocked(int partition, List<Region> partitionRegions, long nowMs) {
        int frozen = 0;
        for (Region region : partitionRegions) {
            if (region.activeHasData()) {
                frozen += switchLocked(region, nowMs);
            }
        }
        Long ends = endsNotFrozen.remove(partition);
        if (ends != null) {
            endsByFreezeSequence.merge(lastFreezeSequence, ends, Long::sum);
        }
        Map<SourcePartition, Long> positions = positionsNotFrozen.remove(partition);
        if (positions != null) {
            mergePositionsLocked(lastFreezeSequence, positions);
        }
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
        lock.lock();
        try {
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
            for (Long ends : endsNotFrozen.values()) {
                endsByFreezeSequence.merge(lastFreezeSequence, ends, Long::sum);
            }
            endsNotFrozen.clear();
            for (Map<SourcePartition, Long> positions : positionsNotFrozen.values()) {
                mergePositionsLocked(lastFreezeSequence, positions);
            }
            positionsNotFrozen.clear();
            return lastFreezeSequence;
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void mergePositionsLocked(long sequence, Map<SourcePartition, Long> positions) {
        Map<SourcePartition, Long> at = positionsByFreezeSequence.computeIfAbsent(sequence, s -> new HashMap<>());
        positions.forEach((source, position) -> at.merge(source, position, Math::max));
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
     * Manager thread: the tables whose frozen chunks (every partition) hold at least {@code minRowBytes} row bytes
     * together, or of which a chunk has waited since {@code waitedSinceMs} or earlier, in region order; with
     * {@code minRowBytes} 0, every table with a frozen chunk. No sequence cut: for the open shared transaction, which
     * takes every frozen chunk.
     */
    Set<String> tablesReadyToLoad(long minRowBytes, long waitedSinceMs) {
        lock.lock();
        try {
            Map<String, Long> bytes = new LinkedHashMap<>();
            Set<String> waited = new LinkedHashSet<>();
            for (Region region : regions.values()) {
                if (region.frozenCount() > 0) {
                    bytes.merge(region.key().table(), region.frozenRowBytes(), Long::sum);
                    if (region.frozenSinceMs() <= waitedSinceMs) {
                        waited.add(region.key().table());
                    }
                }
            }
            Set<String> tables = new LinkedHashSet<>();
            bytes.forEach((table, b) -> {
                if (b >= minRowBytes || waited.contains(table)) {
                    tables.add(table);
                }
            });
            return tables;
        } finally {
            lock.unlock();
        }
    }

    /** Manager thread: the tables with a frozen chunk of sequence at most {@code maxSequence}, in region order. */
    Set<String> tablesWithFrozen(long maxSequence) {
        lock.lock();
        try {
            Set<String> tables = new LinkedHashSet<>();
            for (Region region : regions.values()) {
                if (region.hasFrozen(maxSequence)) {
                    tables.add(region.key().table());
                }
            }
            return tables;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Manager thread: removes and returns the frozen chunks of {@code table} (every partition) with sequence at most
     * {@code maxSequence}, each region's in FIFO order, moved to LOADING.
     */
    List<Chunk> takeFrozen(String table, long maxSequence) {
        return takeFrozen(table, maxSequence, Long.MAX_VALUE);
    }

    /**
     * Like {@link #takeFrozen(String, long)}, but stops once the chunks taken hold at least {@code maxRowBytes} row
     * bytes (at least one chunk is taken); each region's remaining chunks keep their FIFO order for the next load.
     */
    List<Chunk> takeFrozen(String table, long maxSequence, long maxRowBytes) {
        lock.lock();
        try {
            List<Chunk> taken = new ArrayList<>();
            long takenBytes = 0;
            for (Region region : regions.values()) {
                if (takenBytes >= maxRowBytes) {
                    break;
                }
                if (region.key().table().equals(table)) {
                    for (Chunk chunk : region.takeFrozen(maxSequence, maxRowBytes - takenBytes)) {
                        taken.add(chunk);
                        takenBytes += chunk.rowBytes();
                    }
                }
            }
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /** Manager thread, single-table modes: the regions with a frozen chunk of sequence at most {@code maxSequence}. */
    Set<RegionKey> regionsWithFrozen(long maxSequence) {
        lock.lock();
        try {
            Set<RegionKey> keys = new LinkedHashSet<>();
            for (Region region : regions.values()) {
                if (region.hasFrozen(maxSequence)) {
                    keys.add(region.key());
                }
            }
            return keys;
        } finally {
            lock.unlock();
        }
    }

    /** Manager thread, single-table modes: like {@link #takeFrozen(String, long)} for one region. */
    List<Chunk> takeFrozen(RegionKey key, long maxSequence) {
        lock.lock();
        try {
            Region region = regions.get(key);
            return region == null ? List.of() : region.takeFrozen(maxSequence);
        } finally {
            lock.unlock();
        }
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

    /** Task thread, after a transaction end that froze nothing: {@link #nextIdleFreezeMs} of one partition. */
    long idleFreezeDueMs(int partition, long afterMs) {
        lock.lock();
        try {
            return idleFreezeDueLocked(partition, afterMs);
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private long idleFreezeDueLocked(int partition, long afterMs) {
        List<Region> partitionRegions = regionsByPartition.getOrDefault(partition, List.of());
        boolean pending = endsNotFrozen.containsKey(partition) || positionsNotFrozen.containsKey(partition);
        for (Region region : partitionRegions) {
            if (!region.cleanBoundary()) {
                return Long.MAX_VALUE; // only the partition's transaction end (task thread) makes it freezable
            }
            pending |= region.activeHasData();
        }
        return pending ? lastSwitchTimeMs(partitionRegions) + afterMs : Long.MAX_VALUE;
    }

    /**
     * Manager thread, for its next deadline: the earliest time a frozen chunk of a table not in {@code skipTables}
     * (those with a load in flight: its reply wakes the manager) has waited since; {@code Long.MAX_VALUE} if none.
     */
    long oldestFrozenSinceMs(Set<String> skipTables) {
        lock.lock();
        try {
            long oldest = Long.MAX_VALUE;
            for (Region region : regions.values()) {
                if (region.frozenCount() > 0 && !skipTables.contains(region.key().table())) {
                    oldest = Math.min(oldest, region.frozenSinceMs());
                }
            }
            return oldest;
        } finally {
            lock.unlock();
        }
    }

    /** True if any frozen chunk of sequence at most {@code maxSequence} waits. */
    boolean hasFrozen(long maxSequence) {
        lock.lock();
        try {
            for (Region region : regions.values()) {
                if (region.hasFrozen(maxSequence)) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    long lastFreezeSequence() {
        lock.lock();
        try {
            return lastFreezeSequence;
        } finally {
            lock.unlock();
        }
    }

    /** Partitions whose open source transaction began at or before {@code sinceMs}. */
    SortedSet<Integer> partitionsMidTransactionSince(long sinceMs) {
        lock.lock();
        try {
            return tracker.partitionsMidTransactionSince(sinceMs);
        } finally {
            lock.unlock();
        }
    }

    /** Partitions that wrote in this cycle without a transaction end. */
    SortedSet<Integer> partitionsWithoutTxnEnd() {
        lock.lock();
        try {
            return tracker.partitionsWithoutTxnEnd();
        } finally {
            lock.unlock();
        }
    }

    /** Row bytes of all open source transactions together. */
    long openSourceTxnBytes() {
        return tracker.openSourceTxnBytes(); // a volatile read: no lock, the task thread asks once per row
    }

    /** Row bytes of each open source transaction, by partition. */
    Map<Integer, Long> openSourceTxnBytesByPartition() {
        lock.lock();
        try {
            return tracker.openSourceTxnBytesByPartition();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Manager thread, at a commit: removes and counts the source transaction ends whose rows are all in chunks of
     * sequence at most {@code cutSequence} (the commit makes them visible).
     */
    long takeEndsCovered(long cutSequence) {
        lock.lock();
        try {
            Map<Long, Long> covered = endsByFreezeSequence.headMap(cutSequence, true);
            long ends = 0;
            for (long n : covered.values()) {
                ends += n;
            }
            covered.clear();
            return ends;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Manager thread, at a commit (exactly-once mode): removes and returns the highest source position per (source,
     * source partition) of the transaction ends covered by chunks of sequence at most {@code cutSequence}.
     */
    Map<SourcePartition, Long> takePositionsCovered(long cutSequence) {
        lock.lock();
        try {
            Map<Long, Map<SourcePartition, Long>> covered = positionsByFreezeSequence.headMap(cutSequence, true);
            Map<SourcePartition, Long> positions = new HashMap<>();
            for (Map<SourcePartition, Long> at : covered.values()) {
                at.forEach((source, position) -> positions.merge(source, position, Math::max));
            }
            covered.clear();
            return positions;
        } finally {
            lock.unlock();
        }
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
        lock.lock();
        try {
            long bytes = 0;
            for (Region region : regions.values()) {
                bytes += region.discardAll();
            }
            tracker.clear();
            endsNotFrozen.clear();
            endsByFreezeSequence.clear();
            positionsNotFrozen.clear();
            positionsByFreezeSequence.clear();
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** A view of one region, or null if it does not exist. */
    RegionView view(RegionKey key) {
        lock.lock();
        try {
            Region region = regions.get(key);
            return region == null ? null : new RegionView(region.cleanBoundary(), region.activeHasData(),
                    region.activeRowBytes(), region.frozenCount(), region.lastSwitchTimeMs());
        } finally {
            lock.unlock();
        }
    }
}
