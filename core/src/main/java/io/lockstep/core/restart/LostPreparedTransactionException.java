package io.lockstep.core.restart;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.TransactionException;

/**
 * A transaction held in a completed checkpoint can no longer be committed: the server ended it before its commit
 * (ABORTED, e.g. by its prepared timeout, or UNKNOWN: forgotten). Its rows are not in the target, and no restart can
 * bring them back: every restore from that checkpoint finds the same label in the same state, so the sink fails the
 * job once instead of restoring again and again (docs/reliability.md#failures-that-cannot-heal).
 *
 * <p>The message is one line naming the label, table, checkpoint, state and the server settings to raise.
 */
public final class LostPreparedTransactionException extends TransactionException {
    private static final long serialVersionUID = 1L;

    private final transient CheckpointedTransaction transaction;
    private final LabelState state;

    private LostPreparedTransactionException(String what, String whoPrepared, CheckpointedTransaction transaction,
                                             LabelState state, TransactionException cause) {
        super(what + transaction + " cannot be committed: the label is " + state + ". The rows " + whoPrepared
                + " prepared for that checkpoint are not in the target, and every restore from it fails the same way,"
                + " so the job is not restarted. Raise the server's prepared timeout if it expired (StarRocks:"
                + " prepared_timeout, prepared_transaction_default_timeout_second; Doris:"
                + " stream_load_default_precommit_timeout_second), then restore from a later checkpoint or replay the"
                + " source. Commit failure: " + cause.getMessage(), cause.serverStatus(), cause);
        this.transaction = transaction;
        this.state = state;
    }

    /**
     * A transaction of a restored state that the restoring subtask cannot commit.
     *
     * @param transaction the checkpointed transaction
     * @param state       its label state, {@link LabelState#ABORTED} or {@link LabelState#UNKNOWN}
     * @param cause       the failed commit
     */
    public static LostPreparedTransactionException restored(CheckpointedTransaction transaction, LabelState state,
                                                            TransactionException cause) {
        return new LostPreparedTransactionException("restored ", "this subtask", transaction, state, cause);
    }

    /**
     * A committable a committer cannot commit (Sink V2: also after a restore, when Flink hands it back).
     *
     * @param transaction the checkpointed transaction
     * @param state       its label state, {@link LabelState#ABORTED} or {@link LabelState#UNKNOWN}
     * @param cause       the failed commit
     */
    public static LostPreparedTransactionException committable(CheckpointedTransaction transaction, LabelState state,
                                                               TransactionException cause) {
        return new LostPreparedTransactionException("", "the sink", transaction, state, cause);
    }

    /** The checkpointed transaction that cannot be committed; null after Java serialization (e.g. by Flink). */
    public CheckpointedTransaction transaction() {
        return transaction;
    }

    /** Its label state: ABORTED or UNKNOWN. */
    public LabelState state() {
        return state;
    }

    /** Whether a label in {@code state} can never be committed again: ABORTED, or UNKNOWN (forgotten, never begun). */
    public static boolean isLost(LabelState state) {
        return state == LabelState.ABORTED || state == LabelState.UNKNOWN;
    }
}
