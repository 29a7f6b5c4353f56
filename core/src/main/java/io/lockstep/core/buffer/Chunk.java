package io.lockstep.core.buffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A batch of rows of one region, kept as their bytes joined by the load format's row separator (for JSON rows, the
 * inside of a JSON array: objects separated by commas). The chunk knows no format: the engine's
 * {@link io.lockstep.core.format.LoadFormat} checks the rows, gives the separator, and frames one or more chunks as a
 * request body from their {@link #contentBytes()} and {@link #copyContentTo}.
 *
 * <p>The content lives in segments that are filled in turn and never copied while the chunk grows: each new segment
 * is as large as the content so far (256 bytes first, at most {@value #MAX_SEGMENT_BYTES} bytes), so the spare
 * capacity stays below half the content or one segment, and no row is copied twice on its way into the chunk. (A
 * single array doubled on growth held up to twice a chunk's bytes and, while growing, three times: with a 128 MiB
 * buffer that alone could pass the heap a 2 x buffer-size bound allows; see bench/README.md.) Once the content passes
 * {@value SegmentPool#SEGMENT_BYTES} bytes, the next segments come from the engine's {@link SegmentPool} while it has
 * room (that size each, below the content, so the spare-capacity bound holds), and go back to it when the chunk becomes
 * {@link ChunkState#LOADED} or {@link ChunkState#DISCARDED}, its rows no longer needed by anyone; from then on the
 * chunk holds no segment and refuses to write a body. A chunk that freezes gives its partly filled last pooled
 * segment back at once, after copying its content to an exact-size array, so a frozen chunk holds no spare capacity.
 *
 * <p>Not thread-safe. While {@link ChunkState#ACTIVE} it is written by the task thread only, under the region
 * table's lock; once frozen it never changes again and is read by the manager thread, which took it under the same
 * lock.
 */
public final class Chunk {
    /**
     * Largest segment, bytes: just under 256 KiB, so that a segment stays below G1's humongous-object threshold (half
     * a region; regions are at least 1 MiB) instead of taking whole regions of its own, and four segments with their
     * array headers fill a 1 MiB region exactly instead of three leaving a quarter of it empty.
     */
    static final int MAX_SEGMENT_BYTES = (1 << 18) - 64;
    private static final int FIRST_SEGMENT_BYTES = 256;

    private static final byte[] NO_SEGMENT = new byte[0];

    private final RegionKey region;
    private final SegmentPool pool;
    /** Written between two rows; from the load format. */
    private final byte[] rowSeparator;
    /** Full segments, in order; {@code current} follows them. */
    private final List<byte[]> fullSegments = new ArrayList<>(4);
    /** The segments of {@code fullSegments} and {@code current} taken from {@code pool}; null while none. */
    private List<byte[]> pooledSegments;
    private byte[] current;
    private boolean currentPooled;
    private int currentBytes;
    private int contentBytes;
    private int rowCount;
    private long rowBytes;
    private long freezeSequence = -1;
    private ChunkState state = ChunkState.ACTIVE;

    /**
     * An empty active chunk of {@code region} whose segments are all plain allocations.
     *
     * @param rowSeparator the bytes written between two rows (the load format's), not copied, never changed
     */
    public Chunk(RegionKey region, byte[] rowSeparator) {
        this(region, SegmentPool.none(), rowSeparator);
    }

    /**
     * An empty active chunk of {@code region} that takes its larger segments from {@code pool} while it can.
     *
     * @param rowSeparator the bytes written between two rows (the load format's), not copied, never changed
     */
    public Chunk(RegionKey region, SegmentPool pool, byte[] rowSeparator) {
        this.region = region;
        this.pool = pool;
        this.rowSeparator = rowSeparator;
        this.current = plainSegment(FIRST_SEGMENT_BYTES);
    }

    /**
     * Appends one row, after the row separator unless it is the first.
     *
     * @throws IllegalStateException if the chunk is not active, or if its content would pass 2 GiB
     */
    public void append(byte[] row) {
        requireState(ChunkState.ACTIVE, "append to");
        if ((long) contentBytes + row.length + rowSeparator.length > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("chunk of " + region + " would pass 2 GiB with a row of " + row.length
                    + " bytes");
        }
        if (rowCount > 0) {
            if (rowSeparator.length == 1 && currentBytes < current.length) { // the common case, as cheap as before
                current[currentBytes++] = rowSeparator[0];
                contentBytes++;
            } else {
                put(rowSeparator);
            }
        }
        put(row);
        rowCount++;
        rowBytes += row.length;
    }

    /** Copies {@code bytes} to the end of the content, filling the current segment before taking the next. */
    private void put(byte[] bytes) {
        int copied = 0;
        while (copied < bytes.length) {
            if (currentBytes == current.length) {
                nextSegment();
            }
            int n = Math.min(bytes.length - copied, current.length - currentBytes);
            System.arraycopy(bytes, copied, current, currentBytes, n);
            copied += n;
            currentBytes += n;
        }
        contentBytes += bytes.length;
    }

    private void nextSegment() {
        fullSegments.add(current);
        int size = Math.min(MAX_SEGMENT_BYTES, Math.max(FIRST_SEGMENT_BYTES, contentBytes));
        byte[] pooled = size >= SegmentPool.SEGMENT_BYTES ? pool.take() : null;
        if (pooled != null) {
            if (pooledSegments == null) {
                pooledSegments = new ArrayList<>(8);
            }
            pooledSegments.add(pooled);
            current = pooled;
            currentPooled = true;
        } else {
            current = plainSegment(size);
            currentPooled = false;
        }
        currentBytes = 0;
    }

    private byte[] plainSegment(int size) {
        pool.makeRoomForPlain();
        return new byte[size];
    }

    /**
     * Moves to {@code next}.
     *
     * @throws IllegalStateException naming the region, the current and the requested state if the move is illegal
     */
    public void moveTo(ChunkState next) {
        if (!state.canMoveTo(next)) {
            throw new IllegalStateException("chunk of " + region + ": illegal move " + state + " -> " + next);
        }
        state = next;
        if (next == ChunkState.LOADED || next == ChunkState.DISCARDED) {
            releaseSegments();
        } else if (next != ChunkState.ACTIVE && currentBytes < current.length) {
            // frozen content never grows again: drop the spare capacity of the last segment (at most 256 KiB copied,
            // 8 KiB from a pooled one, which goes back to the pool for the next chunk)
            byte[] exact = plainSegment(currentBytes);
            System.arraycopy(current, 0, exact, 0, currentBytes);
            if (currentPooled) {
                pooledSegments.remove(pooledSegments.size() - 1); // current is always the last one taken
                pool.giveBack(current);
                currentPooled = false;
            }
            current = exact;
        }
    }

    /** Drops every segment, giving the pooled ones back: nobody reads this chunk's rows any more. */
    private void releaseSegments() {
        fullSegments.clear();
        current = NO_SEGMENT;
        currentBytes = 0;
        currentPooled = false;
        if (pooledSegments != null) {
            List<byte[]> pooled = pooledSegments;
            pooledSegments = null;
            for (byte[] segment : pooled) {
                pool.giveBack(segment);
            }
        }
    }

    /** Freezes the chunk and stamps it with the engine-wide freeze sequence number. */
    public void freeze(long sequence) {
        moveTo(ChunkState.FROZEN);
        this.freezeSequence = sequence;
    }

    /** Length of the content (rows and the separators between them), bytes; what {@link #copyContentTo} copies. */
    public int contentBytes() {
        return contentBytes;
    }

    /**
     * Copies the content (rows and the separators between them) into {@code target} at {@code at}; returns the end.
     *
     * @throws IllegalStateException     if the chunk is loaded or discarded: its segments may hold other rows now
     * @throws IndexOutOfBoundsException if {@code target} has less than {@link #contentBytes()} bytes from {@code at}
     */
    public int copyContentTo(byte[] target, int at) {
        if (state == ChunkState.LOADED || state == ChunkState.DISCARDED) {
            throw new IllegalStateException("cannot read the rows of chunk of " + region + " in state " + state
                    + ": its segments were released");
        }
        for (byte[] segment : fullSegments) {
            System.arraycopy(segment, 0, target, at, segment.length);
            at += segment.length;
        }
        System.arraycopy(current, 0, target, at, currentBytes);
        return at + currentBytes;
    }

    private void requireState(ChunkState expected, String action) {
        if (state != expected) {
            throw new IllegalStateException("cannot " + action + " chunk of " + region + " in state " + state);
        }
    }

    /** The region this chunk belongs to. */
    public RegionKey region() {
        return region;
    }

    /** The chunk's state. */
    public ChunkState state() {
        return state;
    }

    /** True if no row was appended. */
    public boolean isEmpty() {
        return rowCount == 0;
    }

    /** Rows appended. */
    public int rowCount() {
        return rowCount;
    }

    /** Sum of the rows' lengths, bytes: exactly what was reserved in the {@link MemoryBudget} for them. */
    public long rowBytes() {
        return rowBytes;
    }

    /** Segments taken from the pool and held now (for tests). */
    int pooledSegmentCount() {
        return pooledSegments == null ? 0 : pooledSegments.size();
    }

    /** Bytes of the segments held now, spare capacity included (for tests of the memory bound). */
    long capacityBytes() {
        long capacity = current.length;
        for (byte[] segment : fullSegments) {
            capacity += segment.length;
        }
        return capacity;
    }

    /** The freeze sequence number, or -1 while active. */
    public long freezeSequence() {
        return freezeSequence;
    }
}
