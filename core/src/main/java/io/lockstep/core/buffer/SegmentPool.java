package io.lockstep.core.buffer;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.LongSupplier;

import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The segments of {@value #SEGMENT_BYTES} bytes of one engine's chunks, kept for reuse once their rows are loaded or
 * discarded, so that a buffer held at its limit is not re-allocated for every load and young collections find old
 * segments instead of copying fresh ones (docs/architecture.md#the-buffer-chunks-segments-and-their-pool). A chunk
 * takes pooled segments once its content passes {@value #SEGMENT_BYTES} bytes; its first, smaller segments are plain
 * allocations: they are short-lived and cheap, and a chunk that stays small never holds a pooled one.
 *
 * <p>Bounds: at most {@code hardLimitBytes / segment} segments are owned by the pool at a time (in use by chunks or
 * free); past that, {@link #take} returns null and the chunk allocates a plain segment. At most
 * {@code bufferSizeBytes / segment} free segments are kept; a segment returned beyond that is left to the garbage
 * collector. The trade-off: after a burst, up to buffer-size of free segments stays on the heap while the buffer is
 * low. They never push the heap past the engine's memory bound: before a chunk allocates a plain segment it calls
 * {@link #makeRoomForPlain}, which drops free segments until the bytes buffered (the {@link MemoryBudget}'s count)
 * plus the free segments fit under the hard limit, the same room that buffered rows alone may take. (Kafka's
 * producer {@code BufferPool} counts its free buffers against {@code buffer.memory} likewise.)
 *
 * <p>Threads: the task thread takes segments, while it appends under the region table's lock (and returns the
 * partly filled last segment of a chunk it freezes); the manager thread returns them after a load succeeded or
 * failed, an I/O thread after a load abandoned by a closing engine, the manager or closing thread when chunks are
 * discarded (engine close or failure). Every one of them goes through {@link Chunk#moveTo}, which returns a chunk's
 * segments only when it becomes {@link ChunkState#LOADED} or {@link ChunkState#DISCARDED}: after the load's I/O
 * thread finished with the body (retries and redirects re-send the body built from the chunks, never the chunks).
 * All state is guarded by the pool's monitor ({@code this}); {@code freeCount} mirrors the free list's size for a
 * lock-free fast path.
 *
 * <p>Checks: a segment returned twice, or never taken from this pool, fails with {@link IllegalStateException} (the
 * pool tracks the segments in use by identity). With Java assertions enabled (tests), a returned segment is filled
 * with {@code '#'} and checked when it is taken again: a write after the return fails the assertion, and a read
 * after the return sends {@code #} bytes that no server parses as JSON.
 */
@ThreadSafe
public final class SegmentPool {
    /**
     * Bytes of a pooled segment: 8 KiB with the array header. Small, because the engine's chunks are often only 100
     * KB to 1 MB (under memory pressure a partition's chunks switch once they hold 1 MiB over all its tables), and
     * what a chunk holds outside the pool is young memory that every young collection copies while the chunk waits
     * for its load: its plain first segments (as large as the content before them, so about one pooled segment in
     * all) and, once frozen, the exact-size copy of its last pooled segment's content. With 8 KiB that is at most
     * about 16 KiB per chunk; the spare capacity of a pooled segment stays below its chunk's content; a take and a
     * return (one uncontended lock each) per 8 KiB written cost little next to writing the 8 KiB.
     */
    public static final int SEGMENT_BYTES = (1 << 13) - 16;
    private static final byte POISON = '#';

    private final int maxOwned;
    private final int maxFree;
    private final long hardLimitBytes;
    private final LongSupplier bufferedBytes;
    @GuardedBy("this")
    private final ArrayDeque<byte[]> free = new ArrayDeque<>();
    @GuardedBy("this")
    private final Set<byte[]> inUse = Collections.newSetFromMap(new IdentityHashMap<>());
    @GuardedBy("this")
    private long reused;
    @GuardedBy("this")
    private long allocated;
    /** The free list's size, written under the monitor; read without it only to skip {@link #makeRoomForPlain}. */
    private volatile int freeCount;

    /**
     * A pool for an engine with the given limits.
     *
     * @param bufferSizeBytes {@code buffer-size}, bytes: at most this much is kept in free segments
     * @param hardLimitBytes  the hard limit (2 × buffer-size), bytes: at most this much is owned by the pool, and
     *                        buffered rows plus free segments stay under it
     * @param bufferedBytes   the bytes buffered now ({@link MemoryBudget#usedBytes}); called without the pool's lock
     * @throws IllegalArgumentException unless {@code 0 <= bufferSizeBytes <= hardLimitBytes}
     */
    public SegmentPool(long bufferSizeBytes, long hardLimitBytes, LongSupplier bufferedBytes) {
        if (bufferSizeBytes < 0 || hardLimitBytes < bufferSizeBytes) {
            throw new IllegalArgumentException("need 0 <= bufferSizeBytes <= hardLimitBytes, got "
                    + bufferSizeBytes + " and " + hardLimitBytes);
        }
        this.maxOwned = (int) Math.min(Integer.MAX_VALUE, hardLimitBytes / SEGMENT_BYTES);
        this.maxFree = (int) Math.min(maxOwned, bufferSizeBytes / SEGMENT_BYTES);
        this.hardLimitBytes = hardLimitBytes;
        this.bufferedBytes = bufferedBytes;
    }

    /** A pool that owns nothing: every segment is a plain allocation (chunks outside an engine, tests). */
    public static SegmentPool none() {
        return new SegmentPool(0, 0, () -> 0);
    }

    /**
     * Task thread: a segment of {@value #SEGMENT_BYTES} bytes for a chunk, free or new, now in use; null if the pool owns its maximum
     * already (the caller allocates a plain one). The content of a reused segment is undefined.
     */
    public synchronized byte[] take() {
        byte[] segment = free.pollFirst();
        if (segment != null) {
            freeCount = free.size();
            assert isPoisoned(segment) : "a segment was written after it was returned to the pool";
            reused++;
        } else if (inUse.size() < maxOwned) {
            segment = new byte[SEGMENT_BYTES];
            allocated++;
        } else {
            return null;
        }
        inUse.add(segment);
        return segment;
    }

    /**
     * Returns a segment taken from this pool; the caller must hold no reference to it afterwards.
     *
     * @throws IllegalStateException if the segment is not in use: returned twice, or not taken from this pool
     */
    public synchronized void giveBack(byte[] segment) {
        if (!inUse.remove(segment)) {
            throw new IllegalStateException("a segment of " + segment.length + " bytes was returned to the pool"
                    + " twice, or was never taken from it: its rows may have been loaded from reused memory");
        }
        if (free.size() < maxFree) {
            assert poison(segment);
            free.addFirst(segment); // last in, first out: the segment most recently touched is reused first
            freeCount = free.size();
        }
    }

    /**
     * Task thread, before a chunk allocates a plain segment: drops free segments while they and the bytes buffered
     * would pass the hard limit, so that the pool never holds memory that rows may need.
     */
    public void makeRoomForPlain() {
        if (freeCount == 0) {
            return;
        }
        long buffered = bufferedBytes.getAsLong();
        synchronized (this) {
            while (!free.isEmpty() && buffered + (long) free.size() * SEGMENT_BYTES > hardLimitBytes) {
                free.pollLast(); // the least recently used goes
            }
            freeCount = free.size();
        }
    }

    /** Segments owned now: in use by chunks, and free. */
    public synchronized int ownedSegments() {
        return inUse.size() + free.size();
    }

    /** Segments in use by chunks now. */
    public synchronized int inUseSegments() {
        return inUse.size();
    }

    /** Free segments kept now. */
    public synchronized int freeSegments() {
        return free.size();
    }

    /** Takes served by a free segment, since the pool was created. */
    public synchronized long reusedSegments() {
        return reused;
    }

    /** Takes served by a new segment, since the pool was created. */
    public synchronized long allocatedSegments() {
        return allocated;
    }

    /** Most segments owned at a time: hard limit / segment size. */
    public int maxOwnedSegments() {
        return maxOwned;
    }

    /** Most free segments kept: buffer-size / segment size. */
    public int maxFreeSegments() {
        return maxFree;
    }

    private static boolean poison(byte[] segment) {
        Arrays.fill(segment, POISON);
        return true;
    }

    private static boolean isPoisoned(byte[] segment) {
        for (byte b : segment) {
            if (b != POISON) {
                return false;
            }
        }
        return true;
    }
}
