package io.lockstep.core.client;

import java.io.IOException;
import java.net.Socket;
import java.util.Objects;
import java.util.function.Supplier;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The TLS of {@code https} connections, set up on the first one: HttpClient 5's connection manager builder otherwise
 * creates its default TLS strategy as it is built (httpclient5 {@code PoolingHttpClientConnectionManagerBuilder#build}
 * calls {@code DefaultClientTlsStrategy.createDefault()}), which initialises the JDK's TLS, reads the trust store and
 * loads the public suffix list, for every client, although the load URLs are usually {@code http}. The first
 * {@code https} connection (a load URL, or a 307 to an {@code https} address) creates the same default strategy, so
 * it trusts and verifies exactly as before; a failure of that set-up fails that request, naming its cause.
 */
@ThreadSafe
final class LazyTlsSocketStrategy implements TlsSocketStrategy {
    private final Supplier<TlsSocketStrategy> factory;
    @GuardedBy("this")
    private TlsSocketStrategy strategy;

    /** HttpClient's default: the JDK's default SSL context and trust store, hostname verification on. */
    LazyTlsSocketStrategy() {
        this(DefaultClientTlsStrategy::createDefault);
    }

    /** For tests: {@code factory} is called once, on the first upgrade. */
    LazyTlsSocketStrategy(Supplier<TlsSocketStrategy> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    @Override
    public SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
            throws IOException {
        return strategy().upgrade(socket, target, port, attachment, context);
    }

    /** True once an {@code https} connection set TLS up. */
    synchronized boolean initialised() {
        return strategy != null;
    }

    private synchronized TlsSocketStrategy strategy() {
        if (strategy == null) {
            strategy = Objects.requireNonNull(factory.get(), "TLS strategy");
        }
        return strategy;
    }
}
