package io.lockstep.core.buffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A batch of rows of one region, kept as the inside of a JSON array: rows (each a JSON object) separated by commas.
 * {@link #writeBody} frames one or more chunks as {@code [row,row,...]}.
 *
 * <p>The content lives in segments that are filled in turn and never copied while the chunk grows: each new segment
 * is as large as the content so far (256 bytes first, at most {@value #MAX_SEGMENT_BYTES} bytes), so the spare
 * capacity stays below half the content or one segment, and no row is copied twice on its way into the chunk. (A
 * single array doubled on growth held up to twice a chunk's bytes and, while growing, three times: with a 128 MiB
 * buffer that alone could pass the heap a 2 x buffer-size bound allows; see bench/README.md.)
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

    private final RegionKey region;
    /** Full segments, in order; {@code current} follows them. */
    private final List<byte[]> fullSegments = new ArrayList<>(4);
    private byte[] current = new byte[FIRST_SEGMENT_BYTES];
    private int currentBytes;
    private int contentBytes;
    private int rowCount;
    private long rowBytes;
    private long freezeSequence = -1;
    private ChunkState state = ChunkState.ACTIVE;

    /** An empty active chunk of {@code region}. */
    public Chunk(RegionKey region) {
        this.region = region;
    }

    /**
     * Appends one row.
     *
     * @throws IllegalStateException if the chunk is not active, or if its content would pass 2 GiB
     */
    public void append(byte[] row) {
        requireState(ChunkState.ACTIVE, "append to");
        if ((long) contentBytes + row.length + 1 > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("chunk of " + region + " would pass 2 GiB with a row of " + row.length
                    + " bytes");
        }
        if (rowCount > 0) {
            if (currentBytes == current.length) {
                nextSegment();
            }
            current[currentBytes++] = ',';
            contentBytes++;
        }
        int copied = 0;
        while (copied < row.length) {
            if (currentBytes == current.length) {
                nextSegment();
            }
            int n = Math.min(row.length - copied, current.length - currentBytes);
            System.arraycopy(row, copied, current, currentBytes, n);
            copied += n;
            currentBytes += n;
        }
        contentBytes += row.length;
        rowCount++;
        rowBytes += row.length;
    }

    private void nextSegment() {
        fullSegments.add(current);
        current = new byte[Math.min(MAX_SEGMENT_BYTES, Math.max(FIRST_SEGMENT_BYTES, contentBytes))];
        currentBytes = 0;
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
        if (next != ChunkState.ACTIVE && currentBytes < current.length) {
            // frozen content never grows again: drop the spare capacity of the last segment (at most 256 KiB copied)
            current = Arrays.copyOf(current, currentBytes);
        }
    }

    /** Freezes the chunk and stamps it with the engine-wide freeze sequence number. */
    public void freeze(long sequence) {
        moveTo(ChunkState.FROZEN);
        this.freezeSequence = sequence;
    }

    /** Total length of the JSON array body {@code [..]} for these chunks, bytes. */
    public static int bodyLength(Iterable<Chunk> chunks) {
        int length = 2;
        int nonEmpty = 0;
        for (Chunk chunk : chunks) {
            if (chunk.rowCount > 0) {
                length += chunk.contentBytes;
                nonEmpty++;
            }
        }
        return length + Math.max(0, nonEmpty - 1);
    }

    /** The JSON array {@code [row,row,...]} holding every row of {@code chunks}, in order. */
    public static byte[] writeBody(Iterable<Chunk> chunks) {
        byte[] body = new byte[bodyLength(chunks)];
        int at = 0;
        body[at++] = '[';
        boolean first = true;
        for (Chunk chunk : chunks) {
            if (chunk.rowCount == 0) {
                continue;
            }
            if (!first) {
                body[at++] = ',';
            }
            at = chunk.copyContentTo(body, at);
            first = false;
        }
        body[at] = ']';
        return body;
    }

    /** Copies the content (rows and their separating commas) into {@code target} at {@code at}; returns the end. */
    private int copyContentTo(byte[] target, int at) {
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
