package io.lockstep.emulator;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.be.BackendConfig;
import io.lockstep.emulator.be.ErrorLogStore;
import io.lockstep.emulator.be.LoadContextRegistry;
import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.fault.FaultInjector;
import io.lockstep.emulator.fault.Faults;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.mysql.QueryDialect;
import io.lockstep.emulator.load.LoadBodyParser;
import io.lockstep.emulator.load.StreamLoadBodyParser;
import io.lockstep.emulator.server.EmulatorServer;
import io.lockstep.emulator.server.RequestDispatcher;
import io.lockstep.emulator.server.ServerParts;
import io.lockstep.emulator.server.SqlAction;
import io.lockstep.emulator.storage.QueryResult;
import io.lockstep.emulator.txn.TransactionConfig;
import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionPublisher;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.nio.file.Path;
import java.util.Optional;

/**
 * An embedded server that speaks StarRocks' stream load and transaction stream load HTTP protocol: an FE
 * listener and a BE listener, 307 redirects (or direct mode), labels and transaction states, timeouts on an
 * injectable clock, multi-table transactions, fault injection, and committed data in H2 (or counted only).
 *
 * <pre>{@code
 * try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl("CREATE DATABASE d; CREATE TABLE d.t ...").build()) {
 *     sr.start();
 *     String loadUrl = sr.feUrl();   // http://127.0.0.1:<random port>
 *     ...
 *     sr.query("SELECT COUNT(*) FROM d.t");
 * }
 * }</pre>
 *
 * Thread-safe after {@link #start()}; {@link #start()} and {@link #close()} are called from one thread.
 */
public final class StarRocksEmulator implements AutoCloseable {
    /** Copied from the builder so that a builder changed or reused later cannot change this emulator. */
    private final boolean redirect;
    private final EmulatorRuntime runtime;
    private final TransactionManager transactions;
    private final LoadContextRegistry contexts = new LoadContextRegistry();
    private final ServerParts parts;
    private final Faults faults;

    private StarRocksEmulator(Builder b) throws DdlException {
        this.redirect = b.redirect;
        EmulatorRuntime rt = new EmulatorRuntime("the emulator", b, b.createData(), QueryDialect.starRocks());
        this.runtime = rt;
        this.transactions = new TransactionManager(b.clock, b.transactionConfig);
        FaultInjector injector = new FaultInjector();
        TransactionPublisher publisher = new TransactionPublisher(transactions, rt.store(), injector, b.clock,
                b.publishDelayMs);
        transactions.addAbortListener(t -> contexts.removeTxn(t.txnId()));
        Backend backend = new Backend(rt.catalog(), transactions, publisher, contexts, new ErrorLogStore(), b.parser,
                injector, new BasicAuth(b.users), b.backendConfig, b.clock,
                () -> redirect ? rt.beBaseUrl() : rt.feBaseUrl());
        this.faults = new Faults(injector, transactions, this::restartVolatileState);
        this.parts = new ServerParts(backend, rt.store(), faults, rt::catalogQueries);
        RequestDispatcher fe = new RequestDispatcher(RequestDispatcher.Role.FE, redirect, parts, rt::beBaseUrl);
        RequestDispatcher be = new RequestDispatcher(RequestDispatcher.Role.BE, false, parts, rt::beBaseUrl);
        rt.listen(fe, be, b.tls, transactions);
    }

    /** A builder with StarRocks' defaults: random ports, redirect mode, user root with empty password, H2. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds both ports and starts the timer sweeper.
     *
     * @return this
     * @throws IllegalStateException if a port cannot be bound
     */
    public StarRocksEmulator start() {
        runtime.start(parts::tick);
        return this;
    }

    /** The FE base URL, e.g. {@code http://127.0.0.1:8030} (the {@code load-url} clients use). */
    public String feUrl() {
        return runtime.feUrl();
    }

    /** The BE base URL, the target of redirects. */
    public String beUrl() {
        return runtime.beUrl();
    }

    /** The MySQL-protocol query port (the FE's {@code query_port}) once started. */
    public int queryPort() {
        return runtime.queryPort();
    }

    /** Query-port connections that authenticated since start (e.g. to check that a job's {@code jdbc-url} probe ran). */
    public long queryPortLogins() {
        return runtime.queryPortLogins();
    }

    /**
     * A JDBC URL of the query port, {@code jdbc:mysql://host:port} (MySQL Connector/J; append {@code /db} for a
     * default database).
     */
    public String jdbcUrl() {
        return "jdbc:mysql://" + runtime.advertisedHost() + ":" + runtime.queryPort();
    }

    /**
     * Runs DDL ({@code CREATE DATABASE}, {@code CREATE TABLE ...}).
     *
     * @throws DdlException naming the statement and what was wrong
     */
    public void executeDdl(String ddl) throws DdlException {
        runtime.catalog().execute(ddl);
    }

    /**
     * Runs a read-only SQL query on committed data in one snapshot; tables are named {@code db.table}.
     *
     * @throws io.lockstep.emulator.storage.StoreException for invalid SQL or with the {@code none} store
     */
    public QueryResult query(String sql) {
        return runtime.store().query(sql);
    }

    /**
     * HTTP requests the FE and BE listeners took since start: a request the FE redirects to the BE counts twice, as
     * on the wire (benchmarks count a client's requests with it).
     */
    public long httpRequests() {
        return runtime.requestsServed();
    }

    /** Committed rows of a table (with the {@code none} store: rows published). */
    public long rowCount(String database, String table) {
        return runtime.store().rowCount(database, table);
    }

    /** The status {@code get_load_state} would report: the latest transaction of the label, or UNKNOWN. */
    public TransactionStatus labelState(String database, String label) {
        parts.tick();
        return transactions.latest(database, label).map(TransactionSnapshot::status).orElse(TransactionStatus.UNKNOWN);
    }

    /** The latest transaction of a label, for assertions on ids, reasons and timeouts. */
    public Optional<TransactionSnapshot> transaction(String database, String label) {
        return transactions.latest(database, label);
    }

    /**
     * Every transaction of a database the FE remembers (running and finished, until their labels are forgotten), by
     * id, after evaluating timers: what {@code SHOW PROC '/transactions/<db>'} lists.
     */
    public java.util.List<TransactionSnapshot> transactions(String database) {
        parts.tick();
        return transactions.transactions(database);
    }

    /**
     * Transactions of a database that are still open or not yet visible (PREPARE, PREPARED, COMMITTED): what
     * counts against StarRocks' {@code max_running_txn_num_per_db}. A client that stopped cleanly leaves none.
     */
    public int runningTransactions(String database) {
        parts.tick();
        return transactions.runningCount(database);
    }

    /** Evaluates every timer now (the sweeper and every request do this too). */
    public void tick() {
        parts.tick();
    }

    /** The HTTP SQL API endpoint, e.g. to make it answer like a lagging follower FE ({@link SqlAction#answerStale}). */
    public SqlAction sql() {
        return parts.sql();
    }

    /** Fault injection of this emulator. */
    public Faults faults() {
        return faults;
    }

    /** The catalog (databases and tables). */
    public Catalog catalog() {
        return runtime.catalog();
    }

    /** Number of BE load contexts alive (volatile state lost on {@link Faults#restart()}). */
    public int liveLoadContexts() {
        return contexts.all().size();
    }

    private void restartVolatileState() {
        contexts.clear();
        parts.multi().restart();
    }

    /** Stops both listeners and the sweeper and closes the store. */
    @Override
    public void close() {
        runtime.close();
    }

    /** Configuration of a {@link StarRocksEmulator}; the shared options are in {@link EmulatorOptions}. Not thread-safe. */
    public static final class Builder extends EmulatorOptions<Builder> {
        private boolean redirect = true;
        private TransactionConfig transactionConfig = TransactionConfig.defaults();
        private BackendConfig backendConfig = BackendConfig.defaults();
        private LoadBodyParser parser = new StreamLoadBodyParser();
        /** Null: plain HTTP. */
        private EmulatorServer.TlsKeyStore tls;

        private Builder() {
        }

        /** Redirect mode (default): the FE answers BE work with 307 to the BE port. */
        public Builder redirect() {
            this.redirect = true;
            return this;
        }

        /** Direct mode: the FE port executes everything (for clients that cannot follow redirects). */
        public Builder direct() {
            this.redirect = false;
            return this;
        }

        /** Transaction timers and limits (defaults are StarRocks'). */
        public Builder transactionConfig(TransactionConfig value) {
            this.transactionConfig = value;
            return this;
        }

        /** BE size limits. */
        public Builder backendConfig(BackendConfig value) {
            this.backendConfig = value;
            return this;
        }

        /** The body parser (default: the data plane's StarRocks-compatible CSV/JSON parser). */
        public Builder parser(LoadBodyParser value) {
            this.parser = value;
            return this;
        }

        /**
         * Serves both ports over HTTPS only, with the key and certificate of a key store (PKCS12 or JKS). Clients
         * must trust the certificate (e.g. the JVM's {@code javax.net.ssl.trustStore}); the URLs name https.
         *
         * @param keyStore the key store file
         * @param password the password of the store and its key
         */
        public Builder tls(Path keyStore, String password) {
            this.tls = new EmulatorServer.TlsKeyStore(keyStore, password);
            return this;
        }

        /**
         * Creates the emulator (not yet listening; call {@link StarRocksEmulator#start()}).
         *
         * @throws DdlException if the DDL is invalid
         */
        public StarRocksEmulator build() throws DdlException {
            return new StarRocksEmulator(this);
        }
    }
}
