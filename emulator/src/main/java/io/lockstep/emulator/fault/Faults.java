package io.lockstep.emulator.fault;

import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.time.Duration;
import java.util.Optional;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Fault injection, the Java face ({@code StarRocksEmulator.faults()}); the same actions are reachable over
 * HTTP at {@code POST /api/_fault/{action}} on the FE port. Thread-safe.
 */
@ThreadSafe
public final class Faults {
    private final FaultInjector injector;
    private final TransactionManager transactions;
    private final Runnable restart;

    /**
     * @param restart drops the volatile BE state (load contexts) and aborts unfinished multi-table tasks
     */
    public Faults(FaultInjector injector, TransactionManager transactions, Runnable restart) {
        this.injector = injector;
        this.transactions = transactions;
        this.restart = restart;
    }

    /** Delays every request of {@code op} (while it is in flight) by {@code delay}; ZERO clears. */
    public Faults delay(FaultOp op, Duration delay) {
        injector.delay(op, delay);
        return this;
    }

    /** Holds the next request of {@code op} in flight until {@link OpHold#release()}. */
    public OpHold hold(FaultOp op) {
        return injector.hold(op);
    }

    /**
     * Answers the next {@code count} requests of {@code op} with {@code {"Status":status,"Message":message}}
     * (HTTP 200) without executing them: no transaction state changes.
     */
    public Faults failNext(FaultOp op, int count, String status, String message) {
        injector.failNext(op, count, status, message);
        return this;
    }

    /** Answers the next {@code count} requests of {@code op} with HTTP {@code httpStatus} (e.g. 500, 503). */
    public Faults failNextHttp(FaultOp op, int count, int httpStatus) {
        injector.failNextHttp(op, count, httpStatus);
        return this;
    }

    /** Closes the connection in the middle of the body of the next {@code count} requests of {@code op}. */
    public Faults dropConnectionMidBody(FaultOp op, int count) {
        injector.dropConnectionMidBody(op, count);
        return this;
    }

    /**
     * The next {@code count} commits miss the publish wait: the transaction is COMMITTED, the reply is the
     * publish-timeout one of its path (FE: FAILED "publish timeout: ms"; BE: PUBLISH_TIMEOUT; classic:
     * "Publish Timeout"), and the data becomes VISIBLE later.
     */
    public Faults publishTimeoutNext(int count) {
        injector.publishTimeoutNext(count);
        return this;
    }

    /**
     * Expires the latest transaction of a label now, as its timer would (aborted, reason "timeout by txn
     * manager"; the BE context is dropped).
     *
     * @return true when a running transaction was aborted
     */
    public boolean forceExpire(String database, String label) {
        Optional<TransactionSnapshot> txn = transactions.latest(database, label);
        return txn.isPresent() && transactions.forceExpire(txn.get().txnId());
    }

    /** Sets {@code max_running_txn_num_per_db}. */
    public Faults setMaxRunningTxnPerDb(int limit) {
        transactions.setMaxRunningTxnPerDb(limit);
        return this;
    }

    /**
     * Restarts the server: volatile BE load contexts are lost (later loads and BE-side ops get
     * TXN_NOT_EXISTS), unfinished multi-table tasks are aborted; committed data and FE transaction states stay.
     */
    public void restart() {
        restart.run();
    }

    /** Removes all rules and releases all holds. */
    public void clear() {
        injector.clear();
    }
}
