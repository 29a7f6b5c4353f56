package io.lockstep.core.engine;

import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The transactions of one exactly-once epoch under {@link LoadMethod#TWO_PHASE_STREAM_LOAD} (Doris: one load per
 * transaction, pre-committed by the load): it numbers each table's flushes for their labels
 * ({@code {prefix}-{table}-{subtask}-{runId}-{checkpoint}_{flush}}) and keeps the loaded ones until the barrier
 * hands the epoch out, or a close or failure aborts them.
 *
 * <p>Not thread-safe: confined to the manager thread, like the rest of {@link TwoPhaseTableLoads}.
 */
final class TwoPhaseEpoch {
    /** Loaded (pre-committed) transactions of the epoch, in load order. */
    private final List<PreparedTransaction> loaded = new ArrayList<>();
    /** Flushes per table ("db.table") in the epoch. */
    private final Map<String, Integer> flushes = new HashMap<>();

    /** The transaction of the next flush of {@code database.table} in the epoch of {@code checkpointId}. */
    TransactionRef nextTransaction(LabelGenerator labels, String database, String table, long checkpointId) {
        int flush = flushes.merge(database + "." + table, 1, Integer::sum);
        return TransactionRef.singleTable(database, table, labels.exactlyOnceFlushLabel(table, checkpointId, flush));
    }

    /** Records a transaction whose load succeeded: it is pre-committed now. */
    void loaded(TransactionRef txn) {
        loaded.add(new PreparedTransaction(txn.database(), txn.table(), txn.label()));
    }

    /** The barrier: every loaded transaction of the epoch, in load order; the next epoch starts empty. */
    List<PreparedTransaction> handOut() {
        List<PreparedTransaction> all = List.copyOf(loaded);
        loaded.clear();
        flushes.clear();
        return all;
    }

    /** Close or failure: the loaded transactions nobody will commit; forgotten here (the caller aborts them). */
    List<PreparedTransaction> takeUnhandedOut() {
        List<PreparedTransaction> all = List.copyOf(loaded);
        loaded.clear();
        return all;
    }
}
