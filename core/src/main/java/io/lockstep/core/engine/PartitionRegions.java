package io.lockstep.core.engine;

import io.lockstep.core.buffer.Region;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Task and manager threads, under the {@link RegionTable} lock: the regions of one engine partition, which reach a
 * clean boundary and switch together, because one source transaction may write several tables (all tables of a
 * partition freeze at the same transaction end: docs/architecture.md#rules-from-field-reports).
 *
 * <p>Not thread-safe: owned by {@link RegionTable}, which calls every method under its lock.
 */
final class PartitionRegions implements Iterable<Region> {
    private final List<Region> regions = new ArrayList<>();
    /**
     * The partition's regions by table name, the first region of each table name (a multi-table engine has one
     * database, so one per table): the task thread finds a row's region with one string lookup, allocating nothing.
     */
    private final Map<String, Region> byTable = new HashMap<>();

    /** Adds a region created for this partition. */
    void add(Region region) {
        regions.add(region);
        byTable.putIfAbsent(region.key().table(), region);
    }

    /**
     * The region of {@code database.table} in this partition, or null if it has none (or, rarely, only a region of
     * the same table name in another database: the caller then looks it up by its full key).
     */
    Region find(String database, String table) {
        Region region = byTable.get(table);
        return region != null && region.key().database().equals(database) ? region : null;
    }

    /** The source transaction of this partition ended: every region's active chunk holds only whole transactions. */
    void markClean() {
        for (Region region : regions) {
            region.markClean();
        }
    }

    /**
     * At a transaction end (the regions just marked clean): whether the partition switches now, because at least
     * {@code miniIntervalMs} passed since its last switch, or its active chunks hold at least {@code switchBytes} row
     * bytes together ({@code Long.MAX_VALUE}: only the mini interval decides).
     */
    boolean switchDueAtTxnEnd(long nowMs, long miniIntervalMs, long switchBytes) {
        return nowMs - lastSwitchTimeMs() >= miniIntervalMs
                || switchBytes != Long.MAX_VALUE && activeRowBytes() >= switchBytes;
    }

    /**
     * Source-idle fallback: whether the partition switches although no transaction end arrived, because every region
     * is clean and at least {@code miniIntervalMs} passed since its last switch ({@code anyAge}: regardless).
     */
    boolean switchDueWhileIdle(long nowMs, long miniIntervalMs, boolean anyAge) {
        return allClean() && (anyAge || nowMs - lastSwitchTimeMs() >= miniIntervalMs);
    }

    /**
     * For the manager's next deadline: when the source-idle fallback ({@link #switchDueWhileIdle}) becomes due, i.e.
     * the last switch plus {@code afterMs}, if every region is clean and there is something to freeze (an active
     * chunk with rows, or {@code endsPending}: transaction ends no freeze covers yet); else {@code Long.MAX_VALUE}
     * (only the partition's next transaction end, on the task thread, makes it freezable).
     */
    long idleSwitchDueMs(long afterMs, boolean endsPending) {
        boolean pending = endsPending;
        long lastSwitchTimeMs = 0;
        for (Region region : regions) { // one pass: the task thread asks at most transaction ends
            if (!region.cleanBoundary()) {
                return Long.MAX_VALUE;
            }
            pending |= region.activeHasData();
            lastSwitchTimeMs = Math.max(lastSwitchTimeMs, region.lastSwitchTimeMs());
        }
        return pending ? lastSwitchTimeMs + afterMs : Long.MAX_VALUE;
    }

    /** True if every region is at a clean boundary (no source transaction open on this partition). */
    private boolean allClean() {
        for (Region region : regions) {
            if (!region.cleanBoundary()) {
                return false;
            }
        }
        return true;
    }

    /** Row bytes of the regions' active chunks together. */
    private long activeRowBytes() {
        long bytes = 0;
        for (Region region : regions) {
            bytes += region.activeRowBytes();
        }
        return bytes;
    }

    /**
     * The partition's last switch (ticker ms): the latest of its regions'. Its regions always switch together, so
     * every region with data carries this time; a region created since has 0.
     */
    private long lastSwitchTimeMs() {
        long last = 0;
        for (Region region : regions) {
            last = Math.max(last, region.lastSwitchTimeMs());
        }
        return last;
    }

    @Override
    public Iterator<Region> iterator() {
        return regions.iterator();
    }
}
