package io.lockstep.emulator.fault;

import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Fault injection, the Java face ({@code StarRocksEmulator.faults()}, {@code DorisEmulator.faults()}); the same
 * actions are reachable over HTTP at {@code POST /api/_fault/{action}} on the FE port. Thread-safe.
 */
@ThreadSafe
public final class Faults {
    /**
     * Statuses a forced failure may carry: the BE's TStatusCode names (gensrc/thrift/StatusCode.thrift, the ones
     * docs/protocol.md#the-emulators-state-tables lists), the FE's RestBaseResult statuses and the classic stream
     * load's statuses.
     */
    public static final Set<String> KNOWN_STATUSES = Set.of("OK", "FAILED", "LABEL_ALREADY_EXISTS",
            "TXN_NOT_EXISTS", "TXN_IN_PROCESSING", "INVALID_ARGUMENT", "INTERNAL_ERROR", "ANALYSIS_ERROR",
            "ABORTED", "PUBLISH_TIMEOUT", "TIMEOUT", "SERVICE_UNAVAILABLE", "Success", "Fail", "Publish Timeout",
            "Label Already Exists");

    private final FaultInjector injector;
    private final TransactionManager transactions;
    private final Runnable restart;

    /**
     * @param restart the dialect's BE restart (see {@link #restart()})
     */
    public Faults(FaultInjector injector, TransactionManager transactions, Runnable restart) {
        this.injector = injector;
        this.transactions = transactions;
        this.restart = restart;
    }

    /** Delays every request of {@code op} (while it is in flight) by {@code delay}; ZERO clears. */
    public Faults delay(FaultOp op, Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must be >= 0 ms, got " + delay.toMillis() + " ms");
        }
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
     *
     * @throws IllegalArgumentException when {@code count < 1} or {@code status} is not in {@link #KNOWN_STATUSES}
     */
    public Faults failNext(FaultOp op, int count, String status, String message) {
        requireCount(count);
        if (!KNOWN_STATUSES.contains(status)) {
            throw new IllegalArgumentException("status '" + status + "' is not a known FE/BE status; expected one of "
                    + String.join(", ", KNOWN_STATUSES.stream().sorted().toList()));
        }
        injector.failNext(op, count, status, message);
        return this;
    }

    /**
     * Answers the next {@code count} requests of {@code op} with HTTP {@code httpStatus} (a server error,
     * 500-599, e.g. 500 or 503).
     *
     * @throws IllegalArgumentException when {@code count < 1} or {@code httpStatus} is outside 500-599
     */
    public Faults failNextHttp(FaultOp op, int count, int httpStatus) {
        requireCount(count);
        if (httpStatus < 500 || httpStatus > 599) {
            throw new IllegalArgumentException("http must be a server error code 500-599, got " + httpStatus);
        }
        injector.failNextHttp(op, count, httpStatus);
        return this;
    }

    /** Closes the connection in the middle of the body of the next {@code count} requests of {@code op}. */
    public Faults dropConnectionMidBody(FaultOp op, int count) {
        requireCount(count);
        injector.dropConnectionMidBody(op, count);
        return this;
    }

    /**
     * The next {@code count} requests of {@code op} are executed (a commit commits), then the connection is closed
     * instead of replying: a lost reply, whose outcome the client must settle (e.g. by label state).
     */
    public Faults dropReplyNext(FaultOp op, int count) {
        requireCount(count);
        injector.dropReplyNext(op, count);
        return this;
    }

    /**
     * The next {@code count} commits miss the publish wait: the transaction is COMMITTED, the reply is the
     * publish-timeout one of its path (FE: FAILED "publish timeout: ms"; BE: PUBLISH_TIMEOUT; classic:
     * "Publish Timeout"), and the data becomes VISIBLE later.
     */
    public Faults publishTimeoutNext(int count) {
        requireCount(count);
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

    /**
     * Sets {@code max_running_txn_num_per_db} until {@link #clear()} restores the configured value.
     *
     * @throws IllegalArgumentException when {@code limit < 0}
     */
    public Faults setMaxRunningTxnPerDb(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + limit);
        }
        transactions.setMaxRunningTxnPerDb(limit);
        return this;
    }

    /**
     * Restarts the server's BE. StarRocks mode: volatile BE load contexts are lost (later loads and BE-side ops get
     * TXN_NOT_EXISTS), unfinished multi-table tasks are aborted. Doris mode: loads in flight (PREPARE) are aborted
     * ("coordinate BE is down"); PRECOMMITTED transactions keep their rows. Committed data and FE transaction
     * states stay in both.
     */
    public void restart() {
        restart.run();
    }

    /**
     * How many forced actions of {@code op} ({@link #failNext}, {@link #failNextHttp}, {@link #dropConnectionMidBody},
     * {@link #dropReplyNext}) no request has taken yet: 0 proves an injected fault really hit.
     */
    public int pending(FaultOp op) {
        return injector.pending(op);
    }

    /** How many publish timeouts of {@link #publishTimeoutNext} no commit has taken yet (0: they all hit). */
    public int pendingPublishTimeouts() {
        return injector.pendingPublishTimeouts();
    }

    /**
     * Removes all rules, releases all holds, restores the configured {@code max_running_txn_num_per_db} and
     * publishes at once the transactions a publish timeout left COMMITTED (so no fault outlives the test that
     * injected it: later commits on their tables would wait behind them).
     */
    public void clear() {
        injector.clear();
        transactions.setMaxRunningTxnPerDb(transactions.config().maxRunningTxnPerDb());
    }

    private static void requireCount(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, got " + count);
        }
    }
}
