package io.lockstep.core.format;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * One stream load request body, written to the request's stream as it is sent rather than assembled first: its
 * length is known before a byte is written (the {@code Content-Length} header), and it is repeatable, each
 * {@link #writeTo} writing the same bytes again, so a retry or a 307 redirect re-sends exactly what the first attempt
 * sent (docs/protocol.md#redirects-failover-and-probes). A body of chunks ({@link LoadFormat#body}) reads the chunks'
 * segments in place: it must be written only while the chunks are frozen or loading, which the engine guarantees until
 * the load's outcome is known (they move to LOADED or DISCARDED only after the send returned).
 *
 * <p>Immutable; {@link #writeTo} may run on any thread that owns the body's chunks (the load's I/O thread).
 */
public abstract class LoadBody {
    /** Implementations live in this package. */
    LoadBody() {
    }

    /**
     * A body of the given bytes, e.g. the progress table's rows or a test's array; the array is not copied and must
     * not change afterwards.
     */
    public static LoadBody of(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        return new LoadBody() {
            @Override
            public long contentLength() {
                return bytes.length;
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                out.write(bytes);
            }
        };
    }

    /** Length of the body, bytes: exactly what {@link #writeTo} writes, every time. */
    public abstract long contentLength();

    /**
     * Writes the whole body to {@code out}; does not flush or close it. May be called any number of times.
     *
     * @throws IOException           from {@code out}
     * @throws IllegalStateException if a chunk of the body was loaded or discarded (its rows are gone)
     */
    public abstract void writeTo(OutputStream out) throws IOException;

    /**
     * The body as one exact-size array: for callers that need the bytes at once (tests, a transaction client that
     * takes arrays), not for the load path, which streams.
     *
     * @throws IllegalStateException if the body passes the largest array (2 GiB), or from {@link #writeTo}
     */
    public final byte[] toByteArray() {
        long length = contentLength();
        if (length > Integer.MAX_VALUE - 8) { // past the largest array a JVM allocates
            throw new IllegalStateException("a body of " + length + " bytes does not fit one array (2 GiB)");
        }
        ExactArray array = new ExactArray((int) length);
        try {
            writeTo(array);
        } catch (IOException e) {
            throw new UncheckedIOException("writing a body into memory failed", e); // ExactArray does not throw
        }
        if (array.at != array.bytes.length) {
            throw new IllegalStateException("the body wrote " + array.at + " bytes, not the " + length
                    + " it declared");
        }
        return array.bytes;
    }

    /** A fixed-size array filled by {@link #writeTo}; refuses to pass its end. */
    private static final class ExactArray extends OutputStream {
        final byte[] bytes;
        int at;

        ExactArray(int length) {
            this.bytes = new byte[length];
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] source, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, source.length);
            if (length > bytes.length - at) {
                throw new IllegalStateException("the body wrote more than the " + bytes.length
                        + " bytes it declared");
            }
            System.arraycopy(source, offset, bytes, at, length);
            at += length;
        }
    }

    @Override
    public String toString() {
        return "body of " + contentLength() + " bytes";
    }
}
