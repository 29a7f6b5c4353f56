package io.lockstep.core.exactlyonce;

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
     * @throws TransactionException for the first label that cannot be committed (ABORTED, e.g. by the server's
     *                              prepared timeout, or UNKNOWN, i.e. forgotten): its message names the label, table
     *                              and checkpoint, and says that this checkpoint's rows for the table are lost
     */
    public static void commitAll(TransactionClient client, Collection<CheckpointedTransaction> restored)
            throws TransactionException {
        Objects.requireNonNull(client, "client");
        for (CheckpointedTransaction txn : restored) {
            try {
                client.commit(txn.ref());
            } catch (TransactionException e) {
                throw new TransactionException("restored " + txn + " cannot be committed: " + e.getMessage()
                        + " The rows this subtask prepared for that checkpoint are not in the target; restoring "
                        + "again fails the same way. Raise the server's prepared timeout if it expired (StarRocks: "
                        + "prepared_timeout, prepared_transaction_default_timeout_second; Doris: "
                        + "stream_load_default_precommit_timeout_second), and restore from a later checkpoint or "
                        + "replay the source.", e.serverStatus(), e);
            }
            LOG.info("committed restored {}", txn);
        }
    }
}
