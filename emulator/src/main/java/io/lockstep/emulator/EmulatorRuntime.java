package io.lockstep.emulator;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.mysql.CatalogQueries;
import io.lockstep.emulator.mysql.QueryDialect;
import io.lockstep.emulator.mysql.QueryServer;
import io.lockstep.emulator.server.EmulatorServer;
import io.lockstep.emulator.server.RequestHandler;
import io.lockstep.emulator.storage.TableStore;
import io.lockstep.emulator.txn.TransactionManager;

/**
 * The running parts every emulator dialect shares ({@link StarRocksEmulator}, {@link DorisEmulator}): the FE and
 * BE listeners, the MySQL-protocol query port, the catalog, the committed-data store and the timer sweeper, with their start and close order.
 * The dialect builds its request handlers against {@link #beBaseUrl()} (known only after {@link #start}) and hands
 * them to {@link #listen} in its constructor.
 *
 * <p>{@link #listen}, {@link #start} and {@link #close} are called from the thread owning the emulator; the rest
 * is thread-safe after {@link #start}.
 */
final class EmulatorRuntime implements AutoCloseable {
    private final String name;
    private final String requestedHost;
    private final String advertisedHost;
    private final int requestedFePort;
    private final int requestedBePort;
    private final int requestedQueryPort;
    private final long sweepIntervalMs;
    private final Catalog catalog;
    private final TableStore store;
    private final EmulatorOptions<?> options;
    private final QueryDialect dialect;
    /** Created by {@link #listen}, bound by {@link #start}, closed by {@link #close} (owning thread only). */
    private QueryServer queryServer;
    private boolean queryServerStarted;
    /** Set once by {@link #listen} in the emulator's constructor, before any request thread exists. */
    private EmulatorServer server;
    /** Set once by {@link #start} before any request can arrive; read by request threads. */
    private volatile String feBaseUrl;
    private volatile String beBaseUrl;
    /** Owned by the thread calling start/close. */
    private TimerSweeper sweeper;

    /**
     * @param name    how errors name the emulator, e.g. {@code "the Doris emulator"}
     * @param options the builder's listener and timer options (copied, so a reused builder changes nothing)
     * @param data    the catalog and store created from the builder's DDL
     * @param dialect the version strings of the query port
     */
    EmulatorRuntime(String name, EmulatorOptions<?> options, EmulatorOptions.Data data, QueryDialect dialect) {
        this.name = name;
        this.requestedHost = options.host;
        this.advertisedHost = options.advertisedHost();
        this.requestedFePort = options.fePort;
        this.requestedBePort = options.bePort;
        this.requestedQueryPort = options.queryPort;
        this.sweepIntervalMs = options.sweepIntervalMs;
        this.catalog = data.catalog();
        this.store = data.store();
        this.options = options;
        this.dialect = dialect;
    }

    /**
     * Creates the (not yet bound) listeners with the dialect's handlers; {@code tls} null for plain HTTP;
     * {@code transactions} feeds the query port's {@code SHOW PROC '/transactions/...'}.
     */
    void listen(RequestHandler fe, RequestHandler be, EmulatorServer.TlsKeyStore tls, TransactionManager transactions) {
        if (server != null) {
            throw new IllegalStateException("the listeners of " + name + " are already created");
        }
        server = new EmulatorServer(requestedHost, advertisedHost, requestedFePort, requestedBePort, fe, be, tls);
        queryServer = new QueryServer(options.host, options.queryPort, options.users, catalog, store, transactions,
                dialect);
    }

    /**
     * Binds both ports and starts sweeping timers with {@code tick} every sweep interval.
     *
     * @throws IllegalStateException if a port cannot be bound, naming the host and the requested ports
     */
    void start(Runnable tick) {
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start " + name + " on host " + requestedHost + ", ports "
                    + requestedFePort + "/" + requestedBePort + ": " + e.getMessage(), e);
        }
        feBaseUrl = server.feUrl();
        beBaseUrl = server.beUrl();
        try {
            queryServer.httpUrls(feBaseUrl, beBaseUrl);
            queryServer.start();
            queryServerStarted = true;
        } catch (Exception e) {
            server.close();
            throw new IllegalStateException("cannot start the query port of " + name + " on host " + requestedHost
                    + ", port " + requestedQueryPort + ": " + e.getMessage(), e);
        }
        sweeper = new TimerSweeper(tick, sweepIntervalMs);
    }

    /** The query port's SHOW/DESC/EXPLAIN and information-schema answers (after {@link #listen}). */
    CatalogQueries catalogQueries() {
        if (queryServer == null) {
            throw new IllegalStateException("the listeners of " + name + " are not created yet");
        }
        return queryServer.catalogQueries();
    }

    /** The bound MySQL-protocol query port (after {@link #start}). */
    int queryPort() {
        if (!queryServerStarted) {
            throw new IllegalStateException(name + " is not started");
        }
        return queryServer.port();
    }

    /** Query-port connections that authenticated since start. */
    long queryPortLogins() {
        return queryServer.logins();
    }

    /** The host clients connect to (the advertised host). */
    String advertisedHost() {
        return advertisedHost;
    }

    /** The FE base URL once started, else null (for handlers that build redirect targets). */
    String feBaseUrl() {
        return feBaseUrl;
    }

    /** The BE base URL once started, else null (the target of the FE's 307). */
    String beBaseUrl() {
        return beBaseUrl;
    }

    /** The FE base URL with the bound port, e.g. {@code http://127.0.0.1:8030}. */
    String feUrl() {
        return server.feUrl();
    }

    /** The BE base URL with the bound port. */
    String beUrl() {
        return server.beUrl();
    }

    /** HTTP requests the FE and BE listeners took since start; 0 before start. */
    long requestsServed() {
        EmulatorServer s = server;
        return s == null ? 0 : s.requestsServed();
    }

    Catalog catalog() {
        return catalog;
    }

    TableStore store() {
        return store;
    }

    /** Stops the sweeper and both listeners, then closes the store. */
    @Override
    public void close() {
        if (sweeper != null) {
            sweeper.close();
        }
        if (queryServer != null) {
            queryServer.close();
        }
        if (server != null) {
            server.close();
        }
        store.close();
    }
}
