package io.lockstep.emulator.txn;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The FE transaction manager: per-database label → transaction history, transaction ids, statuses and timers
 * (docs/protocol.md#the-emulators-state-tables, #labels-and-label-state, #timeouts-limits-and-concurrency; StarRocks
 * {@code DatabaseTransactionMgr}).
 *
 * <p>Rules kept: a label may be reused only when every transaction it had is ABORTED; a finished label is
 * forgotten {@code labelKeepMs} after it finished; PREPARE transactions older than their begin timeout and
 * PREPARED transactions older than their prepared timeout are aborted ("timeout by txn manager");
 * {@code max_running_txn_num_per_db} counts PREPARE + PREPARED + COMMITTED. Timers run on the injected
 * {@link Clock} and are evaluated by {@link #expire()} (called on every request and by a sweeper).
 *
 * <p>Thread-safe: one monitor ({@code this}) guards all state; no I/O happens under it. Abort listeners
 * are called after the monitor is released.
 */
@ThreadSafe
public final class TransactionManager {
    /** Abort reason for timer expiry, as StarRocks' FE writes it. */
    public static final String TIMEOUT_REASON = "timeout by txn manager";

    private final Clock clock;
    private final TransactionConfig config;
    private final java.util.regex.Pattern labelPattern;
    private final AtomicLong nextTxnId = new AtomicLong(1000);
    private final List<Consumer<TransactionSnapshot>> abortListeners = new CopyOnWriteArrayList<>();

    /** database → label → transactions of that label in begin order. */
    @GuardedBy("this")
    private final Map<String, Map<String, List<TransactionState>>> labels = new HashMap<>();
    /** Transactions not yet final, by id. */
    @GuardedBy("this")
    private final Map<Long, TransactionState> running = new LinkedHashMap<>();
    /** Every remembered transaction by id (removed when its label is forgotten). */
    @GuardedBy("this")
    private final Map<Long, TransactionState> byId = new HashMap<>();
    /** Final transactions in finish order (the clock never goes back), so retention pops from the head. */
    @GuardedBy("this")
    private final ArrayDeque<TransactionState> finished = new ArrayDeque<>();
    @GuardedBy("this")
    private int maxRunningTxnPerDb;

    /**
     * @param clock  the clock all timers read
     * @param config timers and limits
     */
    public TransactionManager(Clock clock, TransactionConfig config) {
        this.clock = clock;
        this.config = config;
        this.labelPattern = java.util.regex.Pattern.compile(config.labelRegex());
        this.maxRunningTxnPerDb = config.maxRunningTxnPerDb();
    }

    public TransactionConfig config() {
        return config;
    }

    /** Registers a callback told of every abort (user, load failure or timer); runs on the aborting thread. */
    public void addAbortListener(Consumer<TransactionSnapshot> listener) {
        abortListeners.add(listener);
    }

    /** Changes {@code max_running_txn_num_per_db} (fault injection and tests). */
    public synchronized void setMaxRunningTxnPerDb(int limit) {
        this.maxRunningTxnPerDb = limit;
    }

    /**
     * Begins a transaction (status PREPARE).
     *
     * @param database  database name
     * @param dbId      database id (named by the running-txn limit error)
     * @param label     label, checked against the configured {@link TransactionConfig#labelRegex()}
     * @param table     the table of a single-table transaction, or null for multi-table
     * @param timeoutMs begin → prepare budget in ms
     * @return the new transaction
     * @throws TransactionException LABEL_FORMAT, LABEL_ALREADY_USED ("Label [L] has already been used.", with
     *                              RUNNING or FINISHED), or TOO_MANY_RUNNING ("current running txns on db
     *                              {dbId} is {n}, larger than limit {limit}")
     */
    public TransactionSnapshot begin(String database, long dbId, String label, String table, long timeoutMs)
            throws TransactionException {
        LabelFormat.check(label, labelPattern, config.labelRegex());
        expire();
        synchronized (this) {
            List<TransactionState> history = history(database, label);
            for (TransactionState existing : history) {
                if (existing.status != TransactionStatus.ABORTED) {
                    String jobStatus = existing.status.isFinal() || existing.status == TransactionStatus.COMMITTED
                            ? "FINISHED" : "RUNNING";
                    throw new TransactionException(TransactionException.Reason.LABEL_ALREADY_USED,
                            "Label [" + label + "] has already been used.", jobStatus, existing.snapshot());
                }
            }
            int runningInDb = 0;
            for (TransactionState t : running.values()) {
                if (t.database.equals(database) && t.status.isRunning()) {
                    runningInDb++;
                }
            }
            if (runningInDb >= maxRunningTxnPerDb) {
                throw new TransactionException(TransactionException.Reason.TOO_MANY_RUNNING,
                        "current running txns on db " + dbId + " is " + runningInDb + ", larger than limit "
                                + maxRunningTxnPerDb);
            }
            TransactionState txn = new TransactionState(nextTxnId.getAndIncrement(), database, label, table,
                    table == null, timeoutMs, clock.millis());
            history.add(txn);
            running.put(txn.txnId, txn);
            byId.put(txn.txnId, txn);
            return txn.snapshot();
        }
    }

    /** The latest (largest id) transaction of a label, after evaluating timers; empty when UNKNOWN. */
    public Optional<TransactionSnapshot> latest(String database, String label) {
        expire();
        synchronized (this) {
            Map<String, List<TransactionState>> db = labels.get(database);
            List<TransactionState> history = db == null ? null : db.get(label);
            if (history == null || history.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(history.get(history.size() - 1).snapshot());
        }
    }

    /**
     * Every remembered transaction of a database (running and finished, until their labels are forgotten), by id,
     * after evaluating timers.
     */
    public List<TransactionSnapshot> transactions(String database) {
        expire();
        synchronized (this) {
            List<TransactionSnapshot> all = new ArrayList<>();
            for (TransactionState txn : byId.values()) {
                TransactionSnapshot snapshot = txn.snapshot();
                if (snapshot.database().equals(database)) {
                    all.add(snapshot);
                }
            }
            all.sort(java.util.Comparator.comparingLong(TransactionSnapshot::txnId));
            return all;
        }
    }

    /** A transaction by id, after evaluating timers; empty when forgotten or never begun. */
    public Optional<TransactionSnapshot> get(long txnId) {
        expire();
        synchronized (this) {
            TransactionState txn = byId.get(txnId);
            return txn == null ? Optional.empty() : Optional.of(txn.snapshot());
        }
    }

    /**
     * PREPARE → PREPARED.
     *
     * @param preparedTimeoutMs prepare → commit budget in ms; non-positive = the configured default
     * @throws TransactionException NOT_FOUND or WRONG_STATUS (e.g. the begin timeout aborted it meanwhile)
     */
    public TransactionSnapshot prepare(long txnId, long preparedTimeoutMs) throws TransactionException {
        synchronized (this) {
            TransactionState txn = require(txnId);
            requireStatus(txn, TransactionStatus.PREPARED);
            txn.moveTo(TransactionStatus.PREPARED, clock.millis());
            txn.preparedTimeoutMs = preparedTimeoutMs > 0 ? preparedTimeoutMs : config.defaultPreparedTimeoutMs();
            return txn.snapshot();
        }
    }

    /**
     * PREPARE or PREPARED → COMMITTED. The caller publishes the data, then calls {@link #markVisible}.
     *
     * @throws TransactionException NOT_FOUND or WRONG_STATUS ("Can not commit ABORTED transaction N, label is L")
     */
    public TransactionSnapshot commit(long txnId) throws TransactionException {
        synchronized (this) {
            TransactionState txn = require(txnId);
            if (!txn.status.canMoveTo(TransactionStatus.COMMITTED)) {
                throw new TransactionException(TransactionException.Reason.WRONG_STATUS,
                        "Can not commit " + txn.status + " transaction " + txnId + ", label is " + txn.label);
            }
            txn.moveTo(TransactionStatus.COMMITTED, clock.millis());
            return txn.snapshot();
        }
    }

    /** COMMITTED → VISIBLE, after the data was published. No effect if already VISIBLE. */
    public void markVisible(long txnId) {
        synchronized (this) {
            TransactionState txn = byId.get(txnId);
            if (txn == null || txn.status != TransactionStatus.COMMITTED) {
                return;
            }
            txn.moveTo(TransactionStatus.VISIBLE, clock.millis());
            running.remove(txnId);
            finished.add(txn);
        }
    }

    /**
     * Aborts a PREPARE or PREPARED transaction.
     *
     * @param reason the cause reported by get_load_state
     * @return the aborted transaction
     * @throws TransactionException NOT_FOUND, or WRONG_STATUS when COMMITTED/VISIBLE
     *                              ("Can not abort VISIBLE transaction N, label is L") or already ABORTED
     */
    public TransactionSnapshot abort(long txnId, String reason) throws TransactionException {
        TransactionSnapshot aborted;
        synchronized (this) {
            TransactionState txn = require(txnId);
            if (!txn.status.canMoveTo(TransactionStatus.ABORTED)) {
                throw new TransactionException(TransactionException.Reason.WRONG_STATUS,
                        "Can not abort " + txn.status + " transaction " + txnId + ", label is " + txn.label);
            }
            aborted = abortLocked(txn, reason);
        }
        abortListeners.forEach(l -> l.accept(aborted));
        return aborted;
    }

    /** Aborts if still abortable; returns whether it did. Used by load failures and faults. */
    public boolean abortIfRunning(long txnId, String reason) {
        try {
            abort(txnId, reason);
            return true;
        } catch (TransactionException e) {
            return false;
        }
    }

    /**
     * Evaluates every timer on the current clock: aborts expired PREPARE/PREPARED transactions and forgets
     * labels whose final transaction finished more than {@code labelKeepMs} ago.
     *
     * @return the transactions aborted by this call
     */
    public List<TransactionSnapshot> expire() {
        List<TransactionSnapshot> aborted = new ArrayList<>();
        synchronized (this) {
            long nowMs = clock.millis();
            for (TransactionState txn : new ArrayList<>(running.values())) {
                boolean beginExpired = txn.status == TransactionStatus.PREPARE
                        && nowMs - txn.beginTimeMs >= txn.timeoutMs;
                boolean preparedExpired = txn.status == TransactionStatus.PREPARED
                        && nowMs - txn.preparedTimeMs >= txn.preparedTimeoutMs;
                if (beginExpired || preparedExpired) {
                    aborted.add(abortLocked(txn, TIMEOUT_REASON));
                }
            }
            forgetExpiredLabels(nowMs);
        }
        for (TransactionSnapshot t : aborted) {
            abortListeners.forEach(l -> l.accept(t));
        }
        return aborted;
    }

    /**
     * Ends a transaction now as if its timer had expired (fault injection): PREPARE/PREPARED → ABORTED with
     * the timeout reason.
     *
     * @return true when it was running and is now aborted
     */
    public boolean forceExpire(long txnId) {
        return abortIfRunning(txnId, TIMEOUT_REASON);
    }

    /**
     * Aborts every PREPARE transaction (loads in flight) with {@code reason}: what happens to them when the BE
     * coordinating them restarts. PREPARED and COMMITTED transactions are kept.
     *
     * @return the transactions aborted
     */
    public List<TransactionSnapshot> abortRunningLoads(String reason) {
        List<TransactionSnapshot> aborted = new ArrayList<>();
        synchronized (this) {
            for (TransactionState txn : new ArrayList<>(running.values())) {
                if (txn.status == TransactionStatus.PREPARE) {
                    aborted.add(abortLocked(txn, reason));
                }
            }
        }
        for (TransactionSnapshot t : aborted) {
            abortListeners.forEach(l -> l.accept(t));
        }
        return aborted;
    }

    /** Number of PREPARE + PREPARED + COMMITTED transactions in a database. */
    public synchronized int runningCount(String database) {
        int n = 0;
        for (TransactionState t : running.values()) {
            if (t.database.equals(database)) {
                n++;
            }
        }
        return n;
    }

    @GuardedBy("this")
    private TransactionSnapshot abortLocked(TransactionState txn, String reason) {
        txn.moveTo(TransactionStatus.ABORTED, clock.millis());
        txn.reason = reason;
        running.remove(txn.txnId);
        finished.add(txn);
        return txn.snapshot();
    }

    @GuardedBy("this")
    private void forgetExpiredLabels(long nowMs) {
        while (!finished.isEmpty() && nowMs - finished.peekFirst().finishTimeMs >= config.labelKeepMs()) {
            forget(finished.pollFirst());
        }
        if (config.labelNumThreshold() > 0) {
            forgetOverThreshold();
        }
    }

    /** Doris' count rule: per database, only the newest {@code labelNumThreshold} finished transactions stay. */
    @GuardedBy("this")
    private void forgetOverThreshold() {
        Map<String, Integer> perDb = new HashMap<>();
        for (TransactionState t : finished) {
            perDb.merge(t.database, 1, Integer::sum);
        }
        java.util.Iterator<TransactionState> oldestFirst = finished.iterator();
        while (oldestFirst.hasNext()) {
            TransactionState t = oldestFirst.next();
            int n = perDb.get(t.database);
            if (n > config.labelNumThreshold()) {
                perDb.put(t.database, n - 1);
                oldestFirst.remove();
                forget(t);
            }
        }
    }

    @GuardedBy("this")
    private void forget(TransactionState t) {
        byId.remove(t.txnId);
        Map<String, List<TransactionState>> db = labels.get(t.database);
        List<TransactionState> history = db == null ? null : db.get(t.label);
        if (history != null) {
            history.remove(t);
            if (history.isEmpty()) {
                db.remove(t.label);
            }
        }
    }

    @GuardedBy("this")
    private List<TransactionState> history(String database, String label) {
        return labels.computeIfAbsent(database, d -> new HashMap<>()).computeIfAbsent(label, l -> new ArrayList<>());
    }

    @GuardedBy("this")
    private TransactionState require(long txnId) throws TransactionException {
        TransactionState txn = byId.get(txnId);
        if (txn == null) {
            throw new TransactionException(TransactionException.Reason.NOT_FOUND,
                    "transaction not found, id=" + txnId);
        }
        return txn;
    }

    @GuardedBy("this")
    private static void requireStatus(TransactionState txn, TransactionStatus target) throws TransactionException {
        if (!txn.status.canMoveTo(target)) {
            throw new TransactionException(TransactionException.Reason.WRONG_STATUS,
                    "transaction " + txn.txnId + " (label " + txn.label + ") is " + txn.status + ", can not move to "
                            + target);
        }
    }
}
