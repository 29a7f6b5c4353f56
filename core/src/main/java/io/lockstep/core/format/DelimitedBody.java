package io.lockstep.core.format;

import io.lockstep.core.buffer.Chunk;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A body made of a prefix, the chunks' contents joined by a separator, and a suffix: {@code [} {@code ,} {@code ]}
 * for a JSON array. Chunks hold their rows already joined by the same separator, so each chunk's content is written as
 * it is, segment by segment, straight from the chunk to the request ({@link #body}). Immutable.
 */
final class DelimitedBody {
    private final byte[] prefix;
    private final byte[] separator;
    private final byte[] suffix;

    DelimitedBody(byte[] prefix, byte[] separator, byte[] suffix) {
        this.prefix = prefix.clone();
        this.separator = separator.clone();
        this.suffix = suffix.clone();
    }

    /** A copy of the separator. */
    byte[] separator() {
        return separator.clone();
    }

    /**
     * Bytes of the body of {@code chunks}; empty chunks count for nothing.
     *
     * @throws IllegalStateException if the body would pass the largest array (2 GiB)
     */
    int length(Iterable<Chunk> chunks) {
        long length = prefix.length + suffix.length;
        int nonEmpty = 0;
        for (Chunk chunk : chunks) {
            if (!chunk.isEmpty()) {
                length += chunk.contentBytes();
                nonEmpty++;
            }
        }
        length += (long) Math.max(0, nonEmpty - 1) * separator.length;
        if (length > Integer.MAX_VALUE - 8) { // past the largest array a JVM allocates
            throw new IllegalStateException("a body of " + length + " bytes would pass 2 GiB");
        }
        return (int) length;
    }

    /**
     * The body of {@code chunks}, in order, written from the chunks' segments as it is sent: prefix, each non-empty
     * chunk's content with the separator between two of them, suffix. The chunks are read, not copied, on every
     * {@link LoadBody#writeTo}; their list is copied.
     *
     * @throws IllegalStateException if the body would pass 2 GiB
     */
    LoadBody body(Iterable<Chunk> chunks) {
        int length = length(chunks);
        List<Chunk> nonEmpty = new ArrayList<>();
        for (Chunk chunk : chunks) {
            if (!chunk.isEmpty()) {
                nonEmpty.add(chunk);
            }
        }
        return new ChunksBody(List.copyOf(nonEmpty), length);
    }

    /** A body of non-empty chunks framed by this body's prefix, separator and suffix. */
    private final class ChunksBody extends LoadBody {
        private final List<Chunk> chunks;
        private final int length;

        ChunksBody(List<Chunk> chunks, int length) {
            this.chunks = chunks;
            this.length = length;
        }

        @Override
        public long contentLength() {
            return length;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            out.write(prefix);
            for (int i = 0; i < chunks.size(); i++) {
                if (i > 0) {
                    out.write(separator);
                }
                chunks.get(i).writeContentTo(out);
            }
            out.write(suffix);
        }

        @Override
        public String toString() {
            return "body of " + chunks.size() + " chunks, " + length + " bytes";
        }
    }
}
