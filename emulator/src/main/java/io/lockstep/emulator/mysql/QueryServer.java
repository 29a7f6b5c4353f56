package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.storage.TableStore;
import io.lockstep.emulator.txn.TransactionManager;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The emulator's MySQL-protocol query port (StarRocks' and Doris' FE {@code query_port}, 9030 by default): an accept
 * thread and one thread per connection ({@link MysqlConnection}), each with its own {@link SqlSession} over the
 * shared catalog and committed-data store. No well-kept Java library of the MySQL server protocol was found on Maven
 * Central, so the wire protocol is the small codec in this package ({@link PacketChannel}, {@link PacketWriter},
 * {@link PacketReader}, {@link NativePassword}, {@link TextResultSet}, {@link BinaryResultSet},
 * {@link PreparedStatements}).
 *
 * <p>Thread-safety: {@link #start} and {@link #close} are called by the emulator's owning thread; the accept thread
 * owns the server socket's accept loop; {@code open} (a concurrent set) holds the live connection sockets so that
 * {@link #close} can end them.
 */
public final class QueryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);

    private final String host;
    private final int requestedPort;
    private final Map<String, String> users;
    private final Catalog catalog;
    private final TableStore store;
    private final TransactionManager transactions;
    private final QueryDialect dialect;
    private final InformationSchema informationSchema;
    private final long createdMs = System.currentTimeMillis();
    /** The FE and BE HTTP base URLs, set by {@link #httpUrls} before {@link #start}; read by connection threads. */
    private volatile String feUrl;
    private volatile String beUrl;
    private final AtomicInteger nextConnectionId = new AtomicInteger(1);
    private final AtomicLong logins = new AtomicLong();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threadNumber = new AtomicInteger();
    private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "query-port-" + threadNumber.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    /** Set by {@link #start}, closed by {@link #close}; read by the accept thread. */
    private volatile ServerSocket server;
    private Thread acceptor;

    /**
     * @param host    interface to bind
     * @param port    port to bind; 0 = any free port
     * @param users   user name → password (the HTTP ports' accounts; a copy is kept)
     * @param catalog databases and tables
     * @param store        committed data
     * @param transactions the FE transactions, listed by {@code SHOW PROC '/transactions/...'}
     * @param dialect      the version strings the port reports
     */
    public QueryServer(String host, int port, Map<String, String> users, Catalog catalog, TableStore store,
                       TransactionManager transactions, QueryDialect dialect) {
        this.host = host;
        this.requestedPort = port;
        this.users = Map.copyOf(users);
        this.catalog = catalog;
        this.store = store;
        this.transactions = transactions;
        this.dialect = dialect;
        this.informationSchema = new InformationSchema(catalog, store, transactions);
    }

    /**
     * Names the HTTP listeners, for {@code SHOW FRONTENDS} / {@code SHOW BACKENDS} (call before {@link #start}).
     *
     * @param feUrl FE base URL, e.g. {@code http://127.0.0.1:8030}
     * @param beUrl BE base URL
     */
    public void httpUrls(String feUrl, String beUrl) {
        this.feUrl = feUrl;
        this.beUrl = beUrl;
    }

    private ClusterNodes nodes() {
        return new ClusterNodes(host, port(), portOf(feUrl), portOf(beUrl),
                dialect.currentVersion() != null ? dialect.currentVersion() : dialect.versionComment(), createdMs);
    }

    private static int portOf(String url) {
        return url == null ? -1 : java.net.URI.create(url).getPort();
    }

    /**
     * Binds the port and starts accepting connections.
     *
     * @throws IOException if the port cannot be bound
     */
    public void start() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        try {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), requestedPort), 50);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        server = socket;
        acceptor = new Thread(this::acceptLoop, "query-port-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The bound port (after {@link #start}). */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * The query port's SHOW/DESC/EXPLAIN statements and information-schema queries, for the HTTP SQL API to answer
     * them as this port does (this port's information schema; each request a session of its own, with the dialect's
     * default system variables, as an HTTP SQL API request is in StarRocks).
     */
    public CatalogQueries catalogQueries() {
        return new CatalogQueries(() -> new ShowStatements(catalog, store, transactions, new SystemVariables(dialect),
                informationSchema, this::nodes, dialect.isDoris()));
    }

    /** Connections that passed authentication since start (for tests that check a client got in). */
    public long logins() {
        return logins.get();
    }

    private void acceptLoop() {
        ServerSocket socket = server;
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                int id = nextConnectionId.getAndIncrement();
                open.add(client);
                SystemVariables variables = new SystemVariables(dialect); // one per connection: SET is per session
                SqlSession session = new SqlSession(catalog, store, transactions, dialect, variables, id,
                        new ShowStatements(catalog, store, transactions, variables, informationSchema, this::nodes,
                                dialect.isDoris()));
                connections.execute(new MysqlConnection(client, id, dialect, users, session,
                        logins::incrementAndGet, () -> open.remove(client)));
            } catch (SocketException e) {
                return; // closed
            } catch (IOException e) {
                LOG.warn("query port: accept failed: {}", e.getMessage());
            }
        }
    }

    /** Stops accepting, closes every connection and waits briefly for their threads. Idempotent. */
    @Override
    public void close() {
        ServerSocket socket = server;
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("query port: close: {}", e.getMessage());
        }
        for (Socket client : open) {
            try {
                client.close();
            } catch (IOException e) {
                LOG.debug("query port: closing a connection: {}", e.getMessage());
            }
        }
        connections.shutdown();
        informationSchema.close();
        try {
            if (acceptor != null) {
                acceptor.join(5_000);
            }
            connections.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
