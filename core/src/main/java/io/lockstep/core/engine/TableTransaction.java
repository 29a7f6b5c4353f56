package io.lockstep.core.engine;

import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;

import org.slf4j.Logger;

/**
 * One table's transaction in the current cycle of the single-table engine: its label and where it is
 * ({@link TableTransactionState}). Not thread-safe: confined to the manager thread.
 */
final class TableTransaction {
    private final TransactionRef ref;
    private TableTransactionState state = TableTransactionState.OPEN;

    TableTransaction(TransactionRef ref) {
        this.ref = ref;
    }

    TransactionRef ref() {
        return ref;
    }

    TableTransactionState state() {
        return state;
    }

    /**
     * Moves to {@code next}.
     *
     * @throws IllegalStateException naming the transaction and both states if the move is illegal
     */
    void moveTo(TableTransactionState next) {
        if (!state.canMoveTo(next)) {
            throw new IllegalStateException("transaction " + ref + ": illegal move " + state + " -> " + next);
        }
        state = next;
    }

    /**
     * Close or failure: rolls {@code ref} back and counts it; a failed rollback is logged at WARN with
     * {@code whoEndsIt} (what ends the label on the server instead). Never throws.
     *
     * @param what "rollback" or "abort of pre-committed", for the log
     */
    static void rollBackQuietly(TransactionClient client, TransactionRef ref, LoadMetrics metrics, Logger log,
                                String what, String when, String whoEndsIt) {
        try {
            client.rollback(ref);
            metrics.counter(MetricNames.ROLLBACKS).inc();
        } catch (TransactionException | RuntimeException e) {
            log.warn("{} {} {} failed ({} will end it): {}", what, ref, when, whoEndsIt, e.getMessage());
        }
    }
}
