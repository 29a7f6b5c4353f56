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
 * <p>The publish-timeout path (fault injection, docs/protocol.md#timeouts-limits-and-concurrency "FE commit timeout"):
 * the transaction stays COMMITTED and its data is published {@code publishDelayMs} later on the clock, by
 * {@link #publishDeferred()} (called by the sweeper and on every request), or at once when the faults are cleared.
 *
 * <p>Publish order: StarRocks gives each committed transaction the next version of its tablets and publishes
 * versions in order, so a transaction committed after one whose publish timed out cannot become visible before
 * it. Here a commit that touches a table of a still-deferred transaction is deferred behind it (its reply is
 * the publish timeout too), and deferred transactions are published in commit order. Without this, an older
 * transaction published late would overwrite a newer one's rows in a PRIMARY KEY table.
 *
 * <p>Thread-safe: the monitor {@code this} guards the two maps; {@code deferredPublishLock} serializes the
 * publishing of deferred transactions (so they reach the store in commit order); other store I/O happens
 * outside both.
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
    /** Deferred transactions in commit order. */
    @GuardedBy("this")
    private final Map<Long, Deferred> deferred = new LinkedHashMap<>();
    private final Object deferredPublishLock = new Object();

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
        faults.addClearListener(() -> publish(Long.MAX_VALUE));
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
        boolean publishTimeout = faults.takePublishTimeout();
        synchronized (this) {
            long behindMs = latestDeferredPublishOf(changes);
            if (publishTimeout || behindMs >= 0) {
                long publishAtMs = Math.max(publishTimeout ? clock.millis() + publishDelayMs : clock.millis(), behindMs);
                deferred.put(txnId, new Deferred(txnId, changes, publishAtMs));
                return Outcome.PUBLISH_TIMEOUT;
            }
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

    /** The latest publish time of a deferred transaction sharing a table with {@code changes}, or -1. */
    @GuardedBy("this")
    private long latestDeferredPublishOf(List<TableChanges> changes) {
        long latest = -1;
        for (Deferred d : deferred.values()) {
            for (TableChanges mine : changes) {
                for (TableChanges theirs : d.changes()) {
                    if (mine.table().qualifiedName().equals(theirs.table().qualifiedName())) {
                        latest = Math.max(latest, d.publishAtMs());
                    }
                }
            }
        }
        return latest;
    }

    /** Publishes the deferred transactions whose time has come, in commit order. */
    public void publishDeferred() {
        publish(clock.millis());
    }

    /** Publishes, in commit order, the deferred transactions due at {@code nowMs} (all: Long.MAX_VALUE). */
    private void publish(long nowMs) {
        synchronized (deferredPublishLock) {
            List<Deferred> due = new ArrayList<>();
            synchronized (this) {
                for (Deferred d : deferred.values()) {
                    if (d.publishAtMs() <= nowMs) {
                        due.add(d);
                    }
                }
            }
            for (Deferred d : due) {
                try {
                    store.publish(d.txnId(), d.changes());
                } catch (StoreException e) {
                    LOG.error("deferred publish of transaction {} failed, retrying later: {}", d.txnId(),
                            e.getMessage());
                    synchronized (this) {
                        // Later ones wait behind it (commit order): push them all back together.
                        long retryAtMs = clock.millis() + publishDelayMs;
                        deferred.replaceAll((id, later) -> new Deferred(id, later.changes(),
                                Math.max(later.publishAtMs(), retryAtMs)));
                    }
                    return;
                }
                synchronized (this) {
                    deferred.remove(d.txnId());
                }
                transactions.markVisible(d.txnId());
            }
        }
    }
}
