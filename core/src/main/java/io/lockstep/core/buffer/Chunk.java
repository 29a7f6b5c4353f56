package io.lockstep.core.buffer;

import java.util.Arrays;

/**
 * A batch of rows of one region, kept as the inside of a JSON array: rows (each a JSON object) separated by commas.
 * {@link #writeBody} frames one or more chunks as {@code [row,row,...]}.
 *
 * <p>Not thread-safe. While {@link ChunkState#ACTIVE} it is written by the task thread only, under the region
 * table's lock; once frozen it never changes again and is read by the manager thread, which took it under the same
 * lock.
 */
public final class Chunk {
    private final RegionKey region;
    private byte[] content = new byte[256];
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
     * @throws IllegalStateException if the chunk is not active
     */
    public void append(byte[] row) {
        requireState(ChunkState.ACTIVE, "append to");
        int needed = contentBytes + row.length + 1;
        if (needed > content.length) {
            content = Arrays.copyOf(content, Math.max(needed, content.length * 2));
        }
        if (rowCount > 0) {
            content[contentBytes++] = ',';
        }
        System.arraycopy(row, 0, content, contentBytes, row.length);
        contentBytes += row.length;
        rowCount++;
        rowBytes += row.length;
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
        if (next != ChunkState.ACTIVE) {
            // frozen content never grows again: drop the spare capacity
            content = contentBytes == content.length ? content : Arrays.copyOf(content, contentBytes);
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
            System.arraycopy(chunk.content, 0, body, at, chunk.contentBytes);
            at += chunk.contentBytes;
            first = false;
        }
        body[at] = ']';
        return body;
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

    /** The freeze sequence number, or -1 while active. */
    public long freezeSequence() {
        return freezeSequence;
    }
}
