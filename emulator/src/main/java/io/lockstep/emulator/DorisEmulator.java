package io.lockstep.emulator;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.be.BackendConfig;
import io.lockstep.emulator.be.ErrorLogStore;
import io.lockstep.emulator.be.LoadContextRegistry;
import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.doris.DorisConfig;
import io.lockstep.emulator.doris.DorisListeners;
import io.lockstep.emulator.doris.DorisTransaction;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.fault.FaultInjector;
import io.lockstep.emulator.fault.Faults;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.mysql.QueryDialect;
import io.lockstep.emulator.load.StreamLoadBodyParser;
import io.lockstep.emulator.storage.QueryResult;
import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionPublisher;
import java.util.Optional;

/**
 * An embedded server that speaks Apache Doris' Stream Load protocol
 * (docs/protocol.md#apache-doris-stream-load-with-two-phase-commit): an FE listener that authenticates and answers 307
 * to the BE listener for {@code PUT /api/{db}/{table}/_stream_load} and {@code PUT /api/{db}/_stream_load_2pc}, and
 * answers {@code GET /api/{db}/get_load_state}; a BE listener that executes them. One load is one transaction: without
 * {@code two_phase_commit: true} it ends VISIBLE, with it PRECOMMITTED until a {@code _stream_load_2pc} commit or abort
 * (by {@code txn_id} or {@code label}) or the pre-commit timeout. Labels, limits and timers follow Doris; committed
 * data is in H2 (or counted only), shared machinery with {@link StarRocksEmulator}.
 *
 * <pre>{@code
 * try (DorisEmulator doris = DorisEmulator.builder()
 *         .ddl("CREATE DATABASE d; CREATE TABLE d.t (id INT, v STRING) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1")
 *         .build().start()) {
 *     String fenodes = doris.feUrl();   // http://127.0.0.1:<random port>
 *     ...
 *     doris.rowCount("d", "t");
 * }
 * }</pre>
 *
 * Thread-safe after {@link #start()}; {@link #start()} and {@link #close()} are called from one thread.
 */
public final class DorisEmulator implements AutoCloseable {
    private final EmulatorRuntime runtime;
    private final TransactionManager transactions;
    private final TransactionPublisher publisher;
    private final Faults faults;

    private DorisEmulator(Builder b) throws DdlException {
        EmulatorRuntime rt = new EmulatorRuntime("the Doris emulator", b, b.createData(), QueryDialect.doris());
        this.runtime = rt;
        this.transactions = new TransactionManager(b.clock, b.config.transactionConfig());
        FaultInjector injector = new FaultInjector();
        this.publisher = new TransactionPublisher(transactions, rt.store(), injector, b.clock, b.publishDelayMs);
        BackendConfig limits = new BackendConfig(b.config.maxBodyBytes(), b.config.maxBodyBytes());
        Backend backend = new Backend(rt.catalog(), transactions, publisher, new LoadContextRegistry(),
                new ErrorLogStore(), new StreamLoadBodyParser(), injector, new BasicAuth(b.users), limits, b.clock,
                rt::beBaseUrl);
        this.faults = new Faults(injector, transactions, this::restartBackend);
        DorisListeners listeners = new DorisListeners(backend, b.config, rt.store(), faults, rt::beBaseUrl,
                b.credentialsInLocation, this::tick);
        rt.listen(listeners.fe(), listeners.be(), null, transactions);
    }

    /** A builder with Doris' defaults: random ports, user root with empty password, H2, {@link DorisConfig#defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds both ports and starts the timer sweeper.
     *
     * @return this
     * @throws IllegalStateException if a port cannot be bound
     */
    public DorisEmulator start() {
        runtime.start(this::tick);
        return this;
    }

    /** The FE base URL, e.g. {@code http://127.0.0.1:8030} (what Doris clients call {@code fenodes}). */
    public String feUrl() {
        return runtime.feUrl();
    }

    /** The BE base URL, the target of the FE's 307 (what Doris clients call {@code benodes}). */
    public String beUrl() {
        return runtime.beUrl();
    }

    /** {@code host:port} of the FE, the form of the Flink connector's {@code fenodes} option. */
    public String feHostPort() {
        return feUrl().substring("http://".length());
    }

    /** {@code host:port} of the BE, the form of the Flink connector's {@code benodes} option. */
    public String beHostPort() {
        return beUrl().substring("http://".length());
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
     * Runs DDL ({@code CREATE DATABASE}, {@code CREATE TABLE ... UNIQUE KEY|DUPLICATE KEY (...) DISTRIBUTED BY
     * HASH(...) BUCKETS n PROPERTIES (...)}).
     *
     * @throws DdlException naming the statement and what was wrong
     */
    public void executeDdl(String ddl) throws DdlException {
        runtime.catalog().execute(ddl);
    }

    /**
     * Runs a read-only SQL query on committed (VISIBLE) data in one snapshot; tables are named {@code db.table}.
     *
     * @throws io.lockstep.emulator.storage.StoreException for invalid SQL or with the {@code none} store
     */
    public QueryResult query(String sql) {
        return runtime.store().query(sql);
    }

    /** Committed (VISIBLE) rows of a table (with the {@code none} store: rows published). */
    public long rowCount(String database, String table) {
        return runtime.store().rowCount(database, table);
    }

    /** What {@code get_load_state} reports for a label: its newest transaction's status, or UNKNOWN. */
    public DorisTxnStatus labelState(String database, String label) {
        tick();
        return transactions.latest(database, label).map(t -> DorisTxnStatus.of(t.status()))
                .orElse(DorisTxnStatus.UNKNOWN);
    }

    /** The newest transaction of a label (empty when UNKNOWN), for assertions on ids, reasons and timeouts. */
    public Optional<DorisTransaction> transaction(String database, String label) {
        tick();
        return transactions.latest(database, label).map(DorisTransaction::of);
    }

    /** A transaction by id (empty when never begun or already forgotten). */
    public Optional<DorisTransaction> transaction(long txnId) {
        tick();
        return transactions.get(txnId).map(DorisTransaction::of);
    }

    /** Evaluates every timer now (the sweeper and every request do this too). */
    public void tick() {
        transactions.expire();
        publisher.publishDeferred();
    }

    /**
     * Fault injection. Ops in Doris mode: {@code STREAM_LOAD} (a load, at the BE), {@code COMMIT} and
     * {@code ABORT} ({@code _stream_load_2pc}, at the BE), {@code GET_LOAD_STATE} (at the FE).
     */
    public Faults faults() {
        return faults;
    }

    /** The catalog (databases and tables). */
    public Catalog catalog() {
        return runtime.catalog();
    }

    /**
     * A BE restart: the loads in flight lose their transaction (PREPARE → ABORTED, as the FE aborts the
     * transactions of a restarted coordinator BE); PRECOMMITTED, COMMITTED and finished transactions stay.
     */
    private void restartBackend() {
        transactions.abortRunningLoads("coordinate BE is down");
    }

    /** Stops both listeners and the sweeper and closes the store. */
    @Override
    public void close() {
        runtime.close();
    }

    /** Configuration of a {@link DorisEmulator}; the shared options are in {@link EmulatorOptions}. Not thread-safe. */
    public static final class Builder extends EmulatorOptions<Builder> {
        private DorisConfig config = DorisConfig.defaults();
        private boolean credentialsInLocation = true;

        private Builder() {
        }

        /** Doris' timers and limits (pre-commit timeout, label retention, running-txn limit, ...). */
        public Builder config(DorisConfig value) {
            this.config = value;
            return this;
        }

        /**
         * Whether the FE's 307 {@code Location} carries the caller's Basic credentials as URL userinfo
         * ({@code http://user:password@be:port/...}), as Doris does; default true. Turn off for clients that
         * refuse userinfo in URLs (they must then re-send {@code Authorization} themselves).
         */
        public Builder credentialsInLocation(boolean value) {
            this.credentialsInLocation = value;
            return this;
        }

        /**
         * Creates the emulator (not yet listening; call {@link DorisEmulator#start()}).
         *
         * @throws DdlException if the DDL is invalid
         */
        public DorisEmulator build() throws DdlException {
            return new DorisEmulator(this);
        }
    }
}
