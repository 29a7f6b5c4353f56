package io.lockstep.core.engine;

import java.util.Set;

/**
 * Multi-table engine, manager thread: how frozen chunks batch into loads under the open shared transaction
 * (docs/architecture.md#the-multi-table-commit-cycle). A load takes at most {@code maxLoadRowBytes} row bytes of one
 * table; while no commit is due, a table loads only once its frozen chunks hold {@code minLoadRowBytes} or one of them
 * has waited the load hold, or at once under memory pressure. A commit loads everything of its cut regardless (the
 * cycle asks {@link FrozenChunks#tablesWithFrozen} then, not this class). Units: row bytes and milliseconds.
 *
 * <p>Why: each subtask freezes every mini interval, so loading every frozen chunk at once sent up to one load per
 * table per mini interval and subtask (two subtasks sent almost twice the loads of one); the hold keeps a long commit
 * interval from holding rows back from the server until the commit (they would all load at once then).
 *
 * <p>Immutable; used by the manager thread only.
 */
final class LoadBatching {
    /** Longest time a frozen chunk waits for the minimum load while no commit is due, ms. */
    static final long MAX_LOAD_HOLD_MS = 1000;

    /** Row bytes one load takes at most ({@link LoadEngineConfig#maxLoadRowBytes()}). */
    private final long maxLoadRowBytes;
    /** Row bytes a table's frozen chunks must hold before they load ({@link LoadEngineConfig#minLoadRowBytes()}). */
    private final long minLoadRowBytes;
    /** How long a frozen chunk below the minimum load waits while no commit is due, ms ({@link #loadHoldMs}). */
    private final long loadHoldMs;

    /** The batching of the engine configured by {@code config}. */
    LoadBatching(LoadEngineConfig config) {
        this.maxLoadRowBytes = config.maxLoadRowBytes();
        this.minLoadRowBytes = config.minLoadRowBytes();
        this.loadHoldMs = loadHoldMs(config);
    }

    /**
     * How long a frozen chunk below the minimum load waits for more rows while no commit is due, ms: a quarter of the
     * commit interval, at least the mini interval and at most {@value #MAX_LOAD_HOLD_MS} ms. Whatever has not loaded
     * when the commit falls due loads before it, so the hold bounds how many rows the commit waits to load (at a 1 s
     * commit interval, 250 ms of rows at most), which keeps freshness within commit interval + mini interval.
     *
     * @param config the engine's configuration
     * @return the hold, ms
     */
    static long loadHoldMs(LoadEngineConfig config) {
        return Math.min(MAX_LOAD_HOLD_MS, Math.max(config.miniIntervalMs(), config.commitIntervalMs() / 4));
    }

    /** Row bytes one load takes at most (at least one chunk is taken). */
    long maxLoadRowBytes() {
        return maxLoadRowBytes;
    }

    /**
     * While the shared transaction is open and no commit is due: the tables whose frozen chunks load now, in region
     * order: they hold the minimum load, or one has waited the load hold at {@code nowMs}; every table with a frozen
     * chunk under memory pressure.
     *
     * @param nowMs         the scan's time, ticker ms
     * @param underPressure whether the memory budget is past its soft limit
     */
    Set<String> tablesReadyToLoad(FrozenChunks frozen, long nowMs, boolean underPressure) {
        return frozen.tablesReadyToLoad(underPressure ? 0 : minLoadRowBytes, nowMs - loadHoldMs);
    }

    /**
     * For the manager's next deadline while the shared transaction is open: when the load hold of the oldest frozen
     * chunk of a table not in {@code tablesInFlight} ends (ticker ms); {@code Long.MAX_VALUE} if no such chunk waits
     * (a load reply wakes the manager for the tables in flight).
     */
    long nextLoadHoldEndMs(FrozenChunks frozen, Set<String> tablesInFlight) {
        long oldest = frozen.oldestFrozenSinceMs(tablesInFlight);
        return oldest == Long.MAX_VALUE ? Long.MAX_VALUE : oldest + loadHoldMs;
    }
}
