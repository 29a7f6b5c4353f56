package io.lockstep.core.engine;

import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LoadMethod#TRANSACTION} (transaction stream load): each table's frozen chunks stream into its open transaction (begun at
 * its first load; docs/protocol.md#starrocks-transaction-stream-load). A flush prepares every open transaction and
 * commits it (at-least-once) or hands it out as a {@link PreparedTransaction} (exactly-once, for the checkpoint);
 * a transaction that received nothing is rolled back, since a prepare with no data fails on the server
 * (docs/protocol.md#the-emulators-state-tables). Labels: {@code ...-{table}-{subtask}-{runId}-{n}} per flush
 * (at-least-once) or per checkpoint (exactly-once, the checkpoint after the last prepared one).
 *
 * <p>Not thread-safe: confined to the manager thread.
 */
final class TransactionStreamTableLoads implements TableLoads {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionStreamTableLoads.class);

    private final LoadEngineConfig config;
    private final TransactionClient client;
    private final LabelGenerator labels;
    private final LoadMetrics metrics;
    private final DeliverySemantic semantic;
    private final Ticker ticker;
    /** Manager thread only: the open transaction per {@code database.table}, in begin order. */
    private final Map<String, TableTransaction> open = new LinkedHashMap<>();
    private long atLeastOnceSequence;
    /** Exactly-once: transactions begun now are named for the checkpoint after the last prepared one. */
    private long labelCheckpointId;

    TransactionStreamTableLoads(LoadEngineConfig config, TransactionClient client, LabelGenerator labels,
                                LoadMetrics metrics, DeliverySemantic semantic, long restoredCheckpointId,
                                Ticker ticker) {
        this.config = config;
        this.client = client;
        this.labels = labels;
        this.metrics = metrics;
        this.semantic = semantic;
        this.labelCheckpointId = restoredCheckpointId + 1;
        this.ticker = ticker;
    }

    @Override
    public boolean loadsBeforeCut() {
        return true;
    }

    @Override
    public TransactionRef nextLoad(RegionKey key) throws TransactionException {
        String id = key.database() + "." + key.table();
        TableTransaction txn = open.get(id);
        if (txn == null) {
            String label = semantic == DeliverySemantic.AT_LEAST_ONCE
                    ? labels.atLeastOnceLabel(key.table(), ++atLeastOnceSequence)
                    : labels.exactlyOnceLabel(key.table(), labelCheckpointId);
            TransactionRef ref = TransactionRef.singleTable(key.database(), key.table(), label);
            client.begin(ref, config.serverTimeoutSeconds());
            txn = new TableTransaction(ref);
            open.put(id, txn);
        }
        return txn.ref();
    }

    @Override
    public void loaded(String key, TransactionRef txn) {
        TableTransaction open = this.open.get(key);
        if (open != null && open.state() == TableTransactionState.OPEN) {
            open.moveTo(TableTransactionState.LOADED);
        }
    }

    @Override
    public int openTransactions() {
        return open.size();
    }

    @Override
    public List<PreparedTransaction> finishFlush(long checkpointId) throws TransactionException {
        List<PreparedTransaction> prepared = new ArrayList<>();
        for (Iterator<TableTransaction> it = open.values().iterator(); it.hasNext(); ) {
            TableTransaction txn = it.next();
            it.remove(); // settled below, or the engine fails; never retried under this cycle
            if (txn.state() == TableTransactionState.OPEN) {
                client.rollback(txn.ref()); // a prepare with no data fails on the server
                txn.moveTo(TableTransactionState.ROLLED_BACK);
                continue;
            }
            if (semantic == DeliverySemantic.AT_LEAST_ONCE) {
                long startMs = ticker.nowMs();
                prepareAndCommit(txn);
                metrics.histogram(MetricNames.COMMIT_LATENCY_MS).update(ticker.nowMs() - startMs);
                metrics.counter(MetricNames.COMMITS).inc();
            } else {
                prepareForCheckpoint(txn, prepared);
            }
        }
        if (semantic == DeliverySemantic.EXACTLY_ONCE && checkpointId >= 0) {
            labelCheckpointId = checkpointId + 1;
        }
        return prepared;
    }

    /**
     * Exactly-once: prepares {@code txn} and adds it to {@code prepared}, the transactions this flush hands out. When
     * the prepare fails, the flush hands nothing out, so nobody would ever commit or end the ones it already prepared
     * (they are in no checkpoint, and a restore probes only the tables its state names): they and the failed one are
     * rolled back before the failure goes on (the engine then rolls back the ones not reached yet).
     */
    private void prepareForCheckpoint(TableTransaction txn, List<PreparedTransaction> prepared)
            throws TransactionException {
        try {
            client.prepare(txn.ref());
        } catch (TransactionException | RuntimeException e) {
            TableTransaction.rollBackQuietly(client, txn.ref(), metrics, LOG, "rollback of", "after its prepare "
                    + "failed", "the server timeout");
            for (PreparedTransaction done : prepared) {
                TableTransaction.rollBackQuietly(client, done.ref(), metrics, LOG, "rollback of prepared", "after "
                        + "the prepare of " + txn.ref() + " in the same flush failed", "the server's prepared timeout");
            }
            prepared.clear();
            throw e;
        }
        txn.moveTo(TableTransactionState.PREPARED);
        prepared.add(new PreparedTransaction(txn.ref().database(), txn.ref().table(), txn.ref().label()));
    }

    /** At-least-once: prepare and commit; a transaction whose prepare or commit is given up is rolled back. */
    private void prepareAndCommit(TableTransaction txn) throws TransactionException {
        String step = "prepare";
        try {
            client.prepare(txn.ref());
            txn.moveTo(TableTransactionState.PREPARED);
            step = "commit";
            client.commit(txn.ref());
            txn.moveTo(TableTransactionState.COMMITTED);
        } catch (TransactionException e) {
            if (GivenUpCommit.rollBack(client, txn.ref(), step, e, metrics, LOG)) {
                txn.moveTo(TableTransactionState.ROLLED_BACK);
            }
            throw e;
        }
    }

    @Override
    public void rollbackOpen(String when) {
        for (TableTransaction txn : open.values()) {
            TableTransaction.rollBackQuietly(client, txn.ref(), metrics, LOG, "rollback of", when,
                    "the server timeout");
        }
        open.clear();
    }
}
