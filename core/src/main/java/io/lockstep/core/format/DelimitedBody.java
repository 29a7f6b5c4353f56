package io.lockstep.core.format;

import io.lockstep.core.buffer.Chunk;

/**
 * A body made of a prefix, the chunks' contents joined by a separator, and a suffix: {@code [} {@code ,} {@code ]}
 * for a JSON array. Chunks hold their rows already joined by the same separator, so each chunk's content is copied
 * once, as it is. Immutable.
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

    /** The body of {@code chunks}, in order: one exact-size array, each chunk's content copied once. */
    byte[] write(Iterable<Chunk> chunks) {
        byte[] body = new byte[length(chunks)];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        int at = prefix.length;
        boolean first = true;
        for (Chunk chunk : chunks) {
            if (chunk.isEmpty()) {
                continue;
            }
            if (!first) {
                System.arraycopy(separator, 0, body, at, separator.length);
                at += separator.length;
            }
            at = chunk.copyContentTo(body, at);
            first = false;
        }
        System.arraycopy(suffix, 0, body, at, suffix.length);
        return body;
    }
}
