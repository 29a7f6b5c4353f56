package io.lockstep.emulator.server;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.be.BackendLoadOps;
import io.lockstep.emulator.be.BackendTransactionOps;
import io.lockstep.emulator.be.ClassicStreamLoad;
import io.lockstep.emulator.be.IdleTransactionCleaner;
import io.lockstep.emulator.be.TransactionList;
import io.lockstep.emulator.fault.Faults;
import io.lockstep.emulator.fe.FeRestActions;
import io.lockstep.emulator.fe.FeTransactionRouter;
import io.lockstep.emulator.multi.MultiTableService;
import io.lockstep.emulator.mysql.CatalogQueries;
import io.lockstep.emulator.storage.TableStore;
import java.util.function.Supplier;

/**
 * The wired FE and BE services both listeners dispatch to. Immutable; all parts thread-safe.
 */
public final class ServerParts {
    final Backend backend;
    final FeTransactionRouter feTransactions;
    final FeRestActions feRest;
    final BackendTransactionOps beTransactions;
    final BackendLoadOps beLoads;
    final ClassicStreamLoad classic;
    final MultiTableService multi;
    final QueryAction query;
    final SqlAction sql;
    final FaultAdminAction faultAdmin;
    final IdleTransactionCleaner idleCleaner;
    final TransactionList transactionList;

    /**
     * Wires every service around one {@link Backend}.
     *
     * @param catalogQueries the query port's SHOW statements and information schema, asked when the HTTP SQL API
     *     answers one (after the listeners exist)
     */
    public ServerParts(Backend backend, TableStore store, Faults faults, Supplier<CatalogQueries> catalogQueries) {
        this.backend = backend;
        this.multi = new MultiTableService(backend);
        this.feTransactions = new FeTransactionRouter(backend, multi);
        this.feRest = new FeRestActions(backend);
        this.beTransactions = new BackendTransactionOps(backend);
        this.beLoads = new BackendLoadOps(backend, beTransactions);
        this.classic = new ClassicStreamLoad(backend);
        this.query = new QueryAction(store);
        this.sql = new SqlAction(store, backend.catalog(), catalogQueries);
        this.faultAdmin = new FaultAdminAction(faults);
        this.idleCleaner = new IdleTransactionCleaner(backend);
        this.transactionList = new TransactionList(backend);
    }

    /** The HTTP SQL API (e.g. to simulate a lagging follower FE). */
    public SqlAction sql() {
        return sql;
    }

    public MultiTableService multi() {
        return multi;
    }

    /**
     * Evaluates timers: transaction expiry, BE idle timeouts and deferred publishes (on every request and by the
     * sweeper).
     */
    public void tick() {
        backend.transactions().expire();
        idleCleaner.clean();
        backend.publisher().publishDeferred();
    }
}
