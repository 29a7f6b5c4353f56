package io.lockstep.emulator.server;

import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * Adapts Jetty 12's core handler API to a {@link RequestHandler}. Blocking: each request runs on a Jetty
 * pool thread. The body is read only if the dispatcher asks for it, so Jetty sends {@code 100 Continue} only
 * then — an FE redirect is answered before the client sends any body bytes.
 */
final class JettyHandler extends Handler.Abstract {
    private final RequestHandler dispatcher;
    /** Requests handled since start; any Jetty thread adds. */
    private final java.util.concurrent.atomic.LongAdder requests = new java.util.concurrent.atomic.LongAdder();

    JettyHandler(RequestHandler dispatcher) {
        this.dispatcher = dispatcher;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        requests.increment();
        Map<String, String> headers = new HashMap<>();
        for (HttpField f : request.getHeaders()) {
            headers.putIfAbsent(f.getName().toLowerCase(Locale.ROOT), utf8Value(f.getValue()));
        }
        Map<String, String> query = new HashMap<>();
        Fields fields = Request.extractQueryParameters(request);
        for (Fields.Field f : fields) {
            query.put(f.getName(), f.getValue());
        }
        boolean http11 = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_1_1;
        ServerRequest req = new ServerRequest(request.getMethod(), request.getHttpURI().getPath(),
                request.getHttpURI().getQuery(), query, headers, new OnceBody(request), http11);
        Reply reply = dispatcher.dispatch(req);
        if (reply.httpStatus() == 0) {
            dropMidBody(request, headers);
            callback.failed(new IOException("connection dropped by fault injection"));
            return true;
        }
        if (reply.httpStatus() == 307 && !"100-continue".equalsIgnoreCase(headers.getOrDefault("expect", "").trim())) {
            // Without Expect the client is already sending the body: read it as StarRocks' netty FE does, so the
            // client can finish writing and follow the redirect on a healthy connection.
            discardBody(req);
        }
        response.setStatus(reply.httpStatus());
        reply.headers().forEach((k, v) -> response.getHeaders().put(k, v));
        if (!reply.body().isEmpty()) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType() + "; charset=utf-8");
        }
        if (reply.closeConnection()) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        Content.Sink.write(response, true, reply.body(), callback);
        return true;
    }

    /** Requests this handler took since start (any thread). */
    long requests() {
        return requests.sum();
    }

    /**
     * Jetty reads header bytes as ISO-8859-1; clients (curl, the StarRocks SDKs) send UTF-8, as StarRocks' servers
     * read it. A value whose bytes are valid UTF-8 is re-decoded as UTF-8 (so a label {@code läbel} stays
     * {@code läbel}); any other value is kept as Jetty read it.
     */
    static String utf8Value(String latin1) {
        boolean ascii = true;
        for (int i = 0; i < latin1.length(); i++) {
            char c = latin1.charAt(i);
            if (c > 0xFF) {
                return latin1;
            }
            ascii &= c < 0x80;
        }
        if (ascii) {
            return latin1;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(latin1.getBytes(StandardCharsets.ISO_8859_1))).toString();
        } catch (CharacterCodingException e) {
            return latin1;
        }
    }

    private static void discardBody(ServerRequest req) {
        try {
            req.body();
        } catch (IOException e) {
            // the client went away; nothing to answer
        }
    }

    /** Largest declared body read into one array of its length (above it: the stream's own growing read). */
    static final long MAX_KNOWN_LENGTH = Integer.MAX_VALUE - 8;

    /**
     * A body of declared length {@code length} read straight into one array of that size (one copy from the
     * connection's buffers; {@code readAllBytes} would copy it twice).
     *
     * @throws IOException if the stream ends before {@code length} bytes, naming both counts
     */
    static byte[] readKnownLength(InputStream in, int length) throws IOException {
        byte[] body = new byte[length];
        int read = in.readNBytes(body, 0, length);
        if (read != length) {
            throw new IOException("request body ended after " + read + " of its Content-Length " + length + " bytes");
        }
        return body;
    }

    /** Reads the body on first use and returns the same bytes afterwards; used by one request thread. */
    private static final class OnceBody implements ServerRequest.BodySource {
        private final Request request;
        private byte[] bytes;

        OnceBody(Request request) {
            this.request = request;
        }

        @Override
        public byte[] read() throws IOException {
            if (bytes == null) {
                long length = request.getLength();
                try (InputStream in = Request.asInputStream(request)) {
                    bytes = length >= 0 && length <= MAX_KNOWN_LENGTH ? readKnownLength(in, (int) length)
                            : in.readAllBytes();
                }
            }
            return bytes;
        }
    }

    /** Reads about half of the declared body, then closes the connection under the client. */
    private static void dropMidBody(Request request, Map<String, String> headers) {
        long half = 1;
        try {
            half = Math.max(1, Long.parseLong(headers.getOrDefault("content-length", "2").trim()) / 2);
        } catch (NumberFormatException e) {
            // chunked or bad length: read one byte
        }
        try {
            InputStream in = Request.asInputStream(request);
            byte[] buf = new byte[8192];
            long read = 0;
            while (read < half) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, half - read));
                if (n < 0) {
                    break;
                }
                read += n;
            }
        } catch (IOException e) {
            // the client may already be gone
        }
        request.getConnectionMetaData().getConnection().getEndPoint().close();
    }
}
