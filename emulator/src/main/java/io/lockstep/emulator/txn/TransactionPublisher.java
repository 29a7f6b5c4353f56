package io.lockstep.emulator.txn;

import io.lockstep.emulator.fault.FaultInjector;
import io.lockstep.emulator.storage.StoreException;
import io.lockstep.emulator.storage.TableChanges;
import io.lockstep.emulator.storage.TableStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits transactions and publishes their data: COMMITTED, then one atomic {@link TableStore#publish} of
 * every table's rows, then VISIBLE. Also keeps the data of PREPARED transactions (written to "tablets" at
 * prepare in StarRocks, so it survives a BE restart) until commit or abort.
 *
 * <p>The publish-timeout path (fault injection, reference §4.5 "FE commit timeout"): the transaction stays
 * COMMITTED and its data is published {@code publishDelayMs} later on the clock, by {@link #publishDeferred()}
 * (called by the sweeper and on every request).
 *
 * <p>Thread-safe: the monitor {@code this} guards the two maps; store I/O happens outside it.
 */
@ThreadSafe
public final class TransactionPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionPublisher.class);

    /** How a commit ended. */
    public enum Outcome {
        /** Data published, transaction VISIBLE. */
        VISIBLE,
        /** Transaction COMMITTED; data becomes visible later (publish timeout). */
        PUBLISH_TIMEOUT
    }

    private record Deferred(long txnId, List<TableChanges> changes, long publishAtMs) {
    }

    private final TransactionManager transactions;
    private final TableStore store;
    private final FaultInjector faults;
    private final Clock clock;
    private final long publishDelayMs;

    @GuardedBy("this")
    private final Map<Long, List<TableChanges>> prepared = new HashMap<>();
    @GuardedBy("this")
    private final Map<Long, Deferred> deferred = new LinkedHashMap<>();

    /**
     * @param publishDelayMs how long after a publish timeout the data becomes visible (clock ms)
     */
    public TransactionPublisher(TransactionManager transactions, TableStore store, FaultInjector faults, Clock clock,
                                long publishDelayMs) {
        this.transactions = transactions;
        this.store = store;
        this.faults = faults;
        this.clock = clock;
        this.publishDelayMs = publishDelayMs;
        transactions.addAbortListener(t -> dropPrepared(t.txnId()));
    }

    /** Keeps the data of a transaction that was just prepared. */
    public synchronized void holdPrepared(long txnId, List<TableChanges> changes) {
        prepared.put(txnId, List.copyOf(changes));
    }

    /** The data of a PREPARED transaction (empty list when none was kept). */
    public synchronized List<TableChanges> preparedData(long txnId) {
        return prepared.getOrDefault(txnId, List.of());
    }

    /** Forgets the kept data of a transaction (called on abort). */
    public synchronized void dropPrepared(long txnId) {
        prepared.remove(txnId);
    }

    /**
     * Commits (PREPARE or PREPARED → COMMITTED) and publishes.
     *
     * @param changes every table's rows, published in one store transaction
     * @return VISIBLE, or PUBLISH_TIMEOUT when the publish-timeout fault took this commit
     * @throws TransactionException if the transaction cannot be committed (e.g. it was aborted meanwhile)
     */
    public Outcome commitAndPublish(long txnId, List<TableChanges> changes) throws TransactionException {
        transactions.commit(txnId);
        dropPrepared(txnId);
        if (faults.takePublishTimeout()) {
            synchronized (this) {
                deferred.put(txnId, new Deferred(txnId, changes, clock.millis() + publishDelayMs));
            }
            return Outcome.PUBLISH_TIMEOUT;
        }
        try {
            store.publish(txnId, changes);
        } catch (StoreException e) {
            LOG.error("publish of transaction {} failed; it stays COMMITTED and is retried: {}", txnId, e.getMessage());
            synchronized (this) {
                deferred.put(txnId, new Deferred(txnId, changes, clock.millis()));
            }
            return Outcome.PUBLISH_TIMEOUT;
        }
        transactions.markVisible(txnId);
        return Outcome.VISIBLE;
    }

    /** Publishes the deferred transactions whose time has come. */
    public void publishDeferred() {
        List<Deferred> due = new ArrayList<>();
        synchronized (this) {
            long nowMs = clock.millis();
            deferred.values().removeIf(d -> {
                if (d.publishAtMs() <= nowMs) {
                    due.add(d);
                    return true;
                }
                return false;
            });
        }
        for (Deferred d : due) {
            try {
                store.publish(d.txnId(), d.changes());
                transactions.markVisible(d.txnId());
            } catch (StoreException e) {
                LOG.error("deferred publish of transaction {} failed, retrying later: {}", d.txnId(), e.getMessage());
                synchronized (this) {
                    deferred.put(d.txnId(), new Deferred(d.txnId(), d.changes(), clock.millis() + publishDelayMs));
                }
            }
        }
    }
}
