package io.lockstep.core.buffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The buffer of one (source partition, database, table): an active chunk the task thread appends to, and a FIFO of
 * frozen chunks waiting for a load (docs/architecture.md#data-flow).
 *
 * <p>Two fields drive the switch decisions: {@code cleanBoundary} is true when the last event the task thread
 * gave this region was a transaction end (or a switch), so the active chunk holds only whole source transactions;
 * {@code lastSwitchTimeMs} starts at 0, so the first transaction end of a new partition always switches. The
 * decisions are taken per source partition (the engine's region table): all regions of a partition switch together,
 * and only when all of them are clean, because one source transaction may write several tables.
 *
 * <p>Not thread-safe: every method runs under the lock of the {@code RegionTable} that owns the region (task thread
 * for writes and transaction ends, manager thread for idle freezes and taking frozen chunks).
 */
public final class Region {
    private final RegionKey key;
    /** The engine's pool, shared by every region's chunks (thread-safe on its own). */
    private final SegmentPool pool;
    /** The load format's row separator, handed to every chunk of this region. */
    private final byte[] rowSeparator;
    private Chunk active;
    private final Deque<Chunk> frozen = new ArrayDeque<>();
    private boolean cleanBoundary = true;
    private long lastSwitchTimeMs;
    /** Row bytes of the frozen chunks. */
    private long frozenRowBytes;
    /**
     * When the frozen FIFO last became non-empty (ticker ms): its oldest chunk froze then or later, so "waited at least
     * since" is never overstated in the wrong direction (a load cut short keeps the older time).
     */
    private long frozenSinceMs;

    /**
     * An empty region: clean, last switched at 0; its chunks allocate every segment plainly.
     *
     * @param rowSeparator the bytes its chunks write between two rows (the load format's)
     */
    public Region(RegionKey key, byte[] rowSeparator) {
        this(key, SegmentPool.none(), rowSeparator);
    }

    /**
     * An empty region whose chunks take their larger segments from {@code pool}.
     *
     * @param rowSeparator the bytes its chunks write between two rows (the load format's)
     */
    public Region(RegionKey key, SegmentPool pool, byte[] rowSeparator) {
        this.key = key;
        this.pool = pool;
        this.rowSeparator = rowSeparator.clone();
        this.active = new Chunk(key, pool, this.rowSeparator);
    }

    /** Appends a row to the active chunk and marks the boundary unclean. Never freezes (multi-table rule). */
    public void write(byte[] row) {
        active.append(row);
        cleanBoundary = false;
    }

    /** Marks the boundary clean: the task thread saw a transaction end for this region's partition. */
    public void markClean() {
        cleanBoundary = true;
    }

    /**
     * Freezes the active chunk if it has data and the boundary is clean, and starts a new active chunk.
     *
     * @param sequence the freeze sequence number to stamp
     * @return true if a chunk was frozen
     * @throws IllegalStateException if the boundary is unclean: freezing would split a source transaction
     */
    public boolean switchChunk(long sequence, long nowMs) {
        if (!cleanBoundary) {
            throw new IllegalStateException("region " + key + " holds a partial source transaction; it cannot switch");
        }
        if (active.isEmpty()) {
            return false;
        }
        active.freeze(sequence);
        if (frozen.isEmpty()) {
            frozenSinceMs = nowMs;
        }
        frozen.addLast(active);
        frozenRowBytes += active.rowBytes();
        active = new Chunk(key, pool, rowSeparator);
        lastSwitchTimeMs = nowMs;
        return true;
    }

    /**
     * Removes frozen chunks from the head of the FIFO while their freeze sequence is at most {@code maxSequence},
     * moving each to {@link ChunkState#LOADING}.
     */
    public List<Chunk> takeFrozen(long maxSequence) {
        return takeFrozen(maxSequence, Long.MAX_VALUE);
    }

    /**
     * Like {@link #takeFrozen(long)}, but stops once the chunks taken hold at least {@code maxRowBytes} row bytes
     * (the first chunk is always taken, however large): the rest waits, in order, for a later load.
     */
    public List<Chunk> takeFrozen(long maxSequence, long maxRowBytes) {
        List<Chunk> taken = new ArrayList<>();
        long takenBytes = 0;
        while (!frozen.isEmpty() && frozen.peekFirst().freezeSequence() <= maxSequence && takenBytes < maxRowBytes) {
            Chunk chunk = frozen.pollFirst();
            chunk.moveTo(ChunkState.LOADING);
            taken.add(chunk);
            takenBytes += chunk.rowBytes();
        }
        frozenRowBytes -= takenBytes;
        return taken;
    }

    /** True if a frozen chunk with freeze sequence at most {@code maxSequence} waits. */
    public boolean hasFrozen(long maxSequence) {
        return !frozen.isEmpty() && frozen.peekFirst().freezeSequence() <= maxSequence;
    }

    /**
     * Discards every chunk (engine closing or failed).
     *
     * @return the row bytes discarded, to release from the {@link MemoryBudget}
     */
    public long discardAll() {
        long bytes = 0;
        for (Chunk chunk : frozen) {
            bytes += chunk.rowBytes();
            chunk.moveTo(ChunkState.DISCARDED);
        }
        frozen.clear();
        frozenRowBytes = 0;
        bytes += active.rowBytes();
        active.moveTo(ChunkState.DISCARDED);
        active = new Chunk(key, pool, rowSeparator);
        return bytes;
    }

    /** The (partition, database, table) of this region. */
    public RegionKey key() {
        return key;
    }

    /** True if the active chunk holds only whole source transactions. */
    public boolean cleanBoundary() {
        return cleanBoundary;
    }

    /** True if the active chunk has a row. */
    public boolean activeHasData() {
        return !active.isEmpty();
    }

    /** Row bytes in the active chunk. */
    public long activeRowBytes() {
        return active.rowBytes();
    }

    /** Row bytes of the frozen chunks waiting for a load. */
    public long frozenRowBytes() {
        return frozenRowBytes;
    }

    /** When the oldest frozen chunk waiting froze, at the latest (ticker ms); meaningless without frozen chunks. */
    public long frozenSinceMs() {
        return frozenSinceMs;
    }

    /** Frozen chunks waiting for a load. */
    public int frozenCount() {
        return frozen.size();
    }

    /** When the active chunk was last frozen (ticker ms); 0 if never. */
    public long lastSwitchTimeMs() {
        return lastSwitchTimeMs;
    }
}
