package io.lockstep.core.engine;

import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LoadMethod#TWO_PHASE_STREAM_LOAD} (Doris, exactly-once only): nothing loads before a cut (memory pressure or
 * the barrier); each table's rows up to the cut go out as ONE load that is its own pre-committed transaction
 * (docs/protocol.md#apache-doris-stream-load-with-two-phase-commit), labelled {@code ...-{checkpoint}_{flush}}. Loaded
 * ones wait in a {@link TwoPhaseEpoch} until the barrier hands the whole epoch out, and are aborted at close or failure
 * if it never does.
 *
 * <p>Not thread-safe: confined to the manager thread.
 */
final class TwoPhaseTableLoads implements TableLoads {
    private static final Logger LOG = LoggerFactory.getLogger(TwoPhaseTableLoads.class);

    private final LoadEngineConfig config;
    private final TransactionClient client;
    private final LabelGenerator labels;
    private final LoadMetrics metrics;
    /** Manager thread only: the transaction per {@code database.table} whose load is in flight. */
    private final Map<String, TableTransaction> loading = new LinkedHashMap<>();
    /** Manager thread only: the epoch's pre-committed transactions, not yet handed out. */
    private final TwoPhaseEpoch epoch = new TwoPhaseEpoch();
    /** Transactions begun now belong to the epoch of the checkpoint after the last one handed out. */
    private long labelCheckpointId;

    TwoPhaseTableLoads(LoadEngineConfig config, TransactionClient client, LabelGenerator labels, LoadMetrics metrics,
                       long restoredCheckpointId) {
        this.config = config;
        this.client = client;
        this.labels = labels;
        this.metrics = metrics;
        this.labelCheckpointId = restoredCheckpointId + 1;
    }

    @Override
    public boolean loadsBeforeCut() {
        return false;
    }

    @Override
    public TransactionRef nextLoad(RegionKey key) throws TransactionException {
        TransactionRef ref = epoch.nextTransaction(labels, key.database(), key.table(), labelCheckpointId);
        client.begin(ref, config.serverTimeoutSeconds());
        loading.put(key.database() + "." + key.table(), new TableTransaction(ref));
        return ref;
    }

    @Override
    public void loaded(String key, TransactionRef txn) {
        TableTransaction done = loading.remove(key);
        if (done != null) { // the load pre-committed its own transaction
            done.moveTo(TableTransactionState.PREPARED);
            epoch.loaded(done.ref());
        }
    }

    @Override
    public int openTransactions() {
        return loading.size();
    }

    @Override
    public List<PreparedTransaction> finishFlush(long checkpointId) {
        if (checkpointId < 0) {
            return List.of(); // a pressure flush: the epoch goes on
        }
        labelCheckpointId = checkpointId + 1;
        return epoch.handOut(); // the barrier hands out the whole epoch
    }

    @Override
    public void rollbackOpen(String when) {
        for (PreparedTransaction txn : epoch.takeUnhandedOut()) { // pre-committed, not handed out yet
            TableTransaction.rollBackQuietly(client, txn.ref(), metrics, LOG, "abort of pre-committed", when,
                    "the server's pre-commit timeout");
        }
        for (TableTransaction txn : loading.values()) {
            TableTransaction.rollBackQuietly(client, txn.ref(), metrics, LOG, "rollback of", when,
                    "the server timeout");
        }
        loading.clear();
    }
}
