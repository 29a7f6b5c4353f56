package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.AbstractHttpEntity;

/**
 * A request entity over a {@link LoadBody}: sent with {@code Content-Length}, as the byte-array entity before it (never
 * chunked transfer encoding: the length is known up front), written straight from the body's source (the chunks'
 * segments) to the connection, and repeatable, so {@link StarRocksHttp} re-sends the same bytes on a 307 hop and the
 * clients on a retry. No content type, as before.
 *
 * <p>Immutable; used by one request at a time.
 */
final class LoadBodyEntity extends AbstractHttpEntity {
    private final LoadBody body;

    LoadBodyEntity(LoadBody body) {
        super((ContentType) null, null, false);
        this.body = Objects.requireNonNull(body, "body");
    }

    @Override
    public long getContentLength() {
        return body.contentLength();
    }

    /**
     * The body as a stream over one array of it: HttpClient sends through {@link #writeTo}; this is only for a reader
     * that asks for the content (none on the load path), so the copy is paid only then.
     */
    @Override
    public InputStream getContent() {
        return new ByteArrayInputStream(body.toByteArray());
    }

    /** Writes the whole body and flushes {@code out}. */
    @Override
    public void writeTo(OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        body.writeTo(out);
        out.flush();
    }

    @Override
    public boolean isRepeatable() {
        return true;
    }

    @Override
    public boolean isStreaming() {
        return false;
    }

    @Override
    public void close() {
        // nothing held: the body's source belongs to the load
    }
}
