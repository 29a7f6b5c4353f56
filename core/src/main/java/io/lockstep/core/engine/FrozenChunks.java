package io.lockstep.core.engine;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.Region;
import io.lockstep.core.buffer.RegionKey;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Manager thread, under the {@link RegionTable} lock: the load side of the region table, for both engines. It picks
 * the tables or regions whose frozen chunks are ready to load (by size, age or freeze sequence), takes their frozen
 * chunks for a load, and reports the oldest waiting chunk for the manager's next deadline. A chunk leaves the table
 * when the manager takes it; from then on the manager owns it. Freezing (what makes a chunk frozen, and its freeze
 * sequence) stays with {@link RegionTable}.
 *
 * <p>Threads: the manager thread calls every method; each runs in one critical section of the region table's lock,
 * which the task thread takes to append and switch, so a take never sees a region mid-switch. Sections only move
 * chunk references, never do I/O or wait.
 */
@ThreadSafe
final class FrozenChunks {
    /** The {@link RegionTable}'s lock: guards its region map, which this class reads and takes chunks from. */
    private final ReentrantLock lock;
    /** The {@link RegionTable}'s region map (the table adds regions, under {@code lock}); in creation order. */
    @GuardedBy("lock")
    private final Map<RegionKey, Region> regions;

    /**
     * @param lock    the region table's lock
     * @param regions the region table's region map, guarded by {@code lock}
     */
    FrozenChunks(ReentrantLock lock, Map<RegionKey, Region> regions) {
        this.lock = lock;
        this.regions = regions;
    }

    /**
     * Manager thread: the tables whose frozen chunks (every partition) hold at least {@code minRowBytes} row bytes
     * together, or of which a chunk has waited since {@code waitedSinceMs} or earlier, in region order; with
     * {@code minRowBytes} 0, every table with a frozen chunk. No sequence cut: for the open shared transaction, which
     * takes every frozen chunk.
     */
    Set<String> tablesReadyToLoad(long minRowBytes, long waitedSinceMs) {
        return locked(() -> {
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
        });
    }

    /** Manager thread: the tables with a frozen chunk of sequence at most {@code maxSequence}, in region order. */
    Set<String> tablesWithFrozen(long maxSequence) {
        return locked(() -> {
            Set<String> tables = new LinkedHashSet<>();
            for (Region region : regions.values()) {
                if (region.hasFrozen(maxSequence)) {
                    tables.add(region.key().table());
                }
            }
            return tables;
        });
    }

    /**
     * Manager thread: removes and returns the frozen chunks of {@code table} (every partition) with sequence at most
     * {@code maxSequence}, each region's in FIFO order, moved to LOADING; stops once the chunks taken hold at least
     * {@code maxRowBytes} row bytes (at least one chunk is taken); each region's remaining chunks keep their FIFO
     * order for the next load.
     */
    List<Chunk> takeFrozen(String table, long maxSequence, long maxRowBytes) {
        return locked(() -> {
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
        });
    }

    /** Manager thread, single-table modes: the regions with a frozen chunk of sequence at most {@code maxSequence}. */
    Set<RegionKey> regionsWithFrozen(long maxSequence) {
        return locked(() -> {
            Set<RegionKey> keys = new LinkedHashSet<>();
            for (Region region : regions.values()) {
                if (region.hasFrozen(maxSequence)) {
                    keys.add(region.key());
                }
            }
            return keys;
        });
    }

    /** Manager thread, single-table modes: every frozen chunk of one region up to {@code maxSequence}, FIFO. */
    List<Chunk> takeFrozen(RegionKey key, long maxSequence) {
        return locked(() -> {
            Region region = regions.get(key);
            return region == null ? List.<Chunk>of() : region.takeFrozen(maxSequence);
        });
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
        return locked(() -> {
            for (Region region : regions.values()) {
                if (region.hasFrozen(maxSequence)) {
                    return true;
                }
            }
            return false;
        });
    }

    /** Runs {@code section} under the region table's lock and returns its result. */
    private <T> T locked(Supplier<T> section) {
        lock.lock();
        try {
            return section.get();
        } finally {
            lock.unlock();
        }
    }
}
