package io.lockstep.emulator.server;

import java.nio.file.Path;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The two Jetty listeners of the emulator: the FE port and the BE port
 * (docs/protocol.md#redirects-failover-and-probes). Port 0 binds a random free port. Not thread-safe: start and stop
 * from one thread.
 */
public final class EmulatorServer implements AutoCloseable {
    private final JettyHandler feHandler;
    private final JettyHandler beHandler;
    private final Server fe;
    private final Server be;
    private final ServerConnector feConnector;
    private final ServerConnector beConnector;
    private final String advertisedHost;
    private final String scheme;

    /**
     * A key store for TLS listeners.
     *
     * @param path     key store file (PKCS12 or JKS) holding the server's key and certificate
     * @param password password of the store and of its key
     */
    public record TlsKeyStore(Path path, String password) {
    }

    /**
     * @param host           interface to bind (e.g. 127.0.0.1, or 0.0.0.0 for all)
     * @param advertisedHost host named in {@link #feUrl()}, {@link #beUrl()} and so in 307 {@code Location}s
     * @param fePort   FE port, 0 = random
     * @param bePort   BE port, 0 = random
     * @param feRouter dispatcher of the FE role
     * @param beRouter dispatcher of the BE role
     */
    public EmulatorServer(String host, String advertisedHost, int fePort, int bePort, RequestHandler feRouter,
            RequestHandler beRouter) {
        this(host, advertisedHost, fePort, bePort, feRouter, beRouter, null);
    }

    /**
     * As above; with a key store both listeners speak HTTPS (TLS) only, and the URLs (and so the redirects)
     * name {@code https}.
     *
     * @param tls the key store, or null for plain HTTP
     */
    public EmulatorServer(String host, String advertisedHost, int fePort, int bePort, RequestHandler feRouter,
            RequestHandler beRouter, TlsKeyStore tls) {
        this.advertisedHost = advertisedHost;
        this.scheme = tls == null ? "http" : "https";
        this.fe = newServer("lockstep-fe");
        this.be = newServer("lockstep-be");
        this.feConnector = connector(fe, host, fePort, tls);
        this.beConnector = connector(be, host, bePort, tls);
        this.feHandler = new JettyHandler(feRouter);
        this.beHandler = new JettyHandler(beRouter);
        fe.setHandler(feHandler);
        be.setHandler(beHandler);
    }

    /**
     * HTTP requests the FE and BE listeners took since start (any thread): a request the FE redirects counts once at
     * the FE and once at the BE, as on the wire.
     */
    public long requestsServed() {
        return feHandler.requests() + beHandler.requests();
    }

    /**
     * Binds both ports and starts serving.
     *
     * @throws Exception if a port cannot be bound
     */
    public void start() throws Exception {
        be.start();
        try {
            fe.start();
        } catch (Exception e) {
            be.stop();
            throw e;
        }
    }

    /** {@code http://advertisedHost:fePort} (the bound port; {@code https} with TLS). */
    public String feUrl() {
        return scheme + "://" + advertisedHost + ":" + feConnector.getLocalPort();
    }

    /** {@code http://advertisedHost:bePort} (the bound port; {@code https} with TLS); the target of FE redirects. */
    public String beUrl() {
        return scheme + "://" + advertisedHost + ":" + beConnector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            fe.stop();
        } catch (Exception e) {
            // best effort
        }
        try {
            be.stop();
        } catch (Exception e) {
            // best effort
        }
    }

    private static Server newServer(String name) {
        QueuedThreadPool pool = new QueuedThreadPool(64, 4);
        pool.setName(name);
        Server server = new Server(pool);
        server.setStopTimeout(1000);
        server.setErrorHandler(new JsonErrorHandler());
        return server;
    }

    private static ServerConnector connector(Server server, String host, int port, TlsKeyStore tls) {
        ServerConnector c;
        if (tls == null) {
            c = new ServerConnector(server);
        } else {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(tls.path().toString());
            ssl.setKeyStorePassword(tls.password());
            ssl.setKeyManagerPassword(tls.password());
            HttpConnectionFactory http = new HttpConnectionFactory();
            c = new ServerConnector(server, new SslConnectionFactory(ssl, http.getProtocol()), http);
        }
        c.setHost(host);
        c.setPort(port);
        server.addConnector(c);
        return c;
    }
}
