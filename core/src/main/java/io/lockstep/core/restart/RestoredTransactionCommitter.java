package io.lockstep.core.restart;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;

import java.util.Collection;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the transactions held in a restored checkpoint state, before anything else happens on restore
 * (docs/exactly-once.md#restore): the checkpoint completed, so its prepared data must become visible. Commit is
 * idempotent (docs/protocol.md#the-emulators-state-tables: COMMITTED/VISIBLE answer "already committed", and the client
 * settles unclear replies by label state), so a label committed before the failure counts as done.
 *
 * <p>Stateless; any thread.
 */
public final class RestoredTransactionCommitter {
    private static final Logger LOG = LoggerFactory.getLogger(RestoredTransactionCommitter.class);

    private RestoredTransactionCommitter() {
    }

    /**
     * Commits each restored transaction, in the given order.
     *
     * @throws LostPreparedTransactionException for the first label the server ended before its commit (ABORTED,
     *                                          e.g. by its prepared timeout, or UNKNOWN, i.e. forgotten): no restart
     *                                          can heal it; its one-line message names the label, table, checkpoint
     *                                          and state, and says that this checkpoint's rows for the table are lost
     * @throws TransactionException             for the first label whose commit failed otherwise (the server could
     *                                          not be reached, the label is still open, its state cannot be read):
     *                                          a later restore may succeed
     */
    public static void commitAll(TransactionClient client, Collection<CheckpointedTransaction> restored)
            throws TransactionException {
        Objects.requireNonNull(client, "client");
        for (CheckpointedTransaction txn : restored) {
            try {
                client.commit(txn.ref());
            } catch (TransactionException e) {
                LabelState state = stateAfterFailedCommit(client, txn);
                if (state != null && state.isCommitted()) {
                    LOG.info("restored {} is {} although its commit reported a failure ({}); counted as committed",
                            txn, state, e.getMessage());
                    continue;
                }
                if (state != null && LostPreparedTransactionException.isLost(state)) {
                    throw LostPreparedTransactionException.restored(txn, state, e);
                }
                throw new TransactionException("restored " + txn + " cannot be committed yet ("
                        + (state == null ? "label state unreadable" : "label state " + state) + "): "
                        + e.getMessage() + " A later restore commits it again.", e.serverStatus(), e);
            }
            LOG.info("committed restored {}", txn);
        }
    }

    /** The label's state after its commit failed, or null when it cannot be read. */
    private static LabelState stateAfterFailedCommit(TransactionClient client, CheckpointedTransaction txn) {
        try {
            return client.labelState(txn.database(), txn.label());
        } catch (TransactionException e) {
            LOG.warn("cannot read the state of restored {} after its commit failed: {}", txn, e.getMessage());
            return null;
        }
    }
}
