package io.lockstep.emulator.txn;

/**
 * The FE transaction manager refused an operation. {@link #getMessage()} is the text StarRocks' FE puts in its
 * reply; {@link #reason()} says which refusal it is so callers can pick the status vocabulary of their path.
 */
public final class TransactionException extends Exception {

    /** Why the operation was refused. */
    public enum Reason {
        /** Label has a non-aborted transaction; {@link #existingJobStatus()} is RUNNING or FINISHED. */
        LABEL_ALREADY_USED,
        /** Label does not match {@code ^[-\w]{1,128}$}. */
        LABEL_FORMAT,
        /** {@code max_running_txn_num_per_db} reached. */
        TOO_MANY_RUNNING,
        /** No transaction with that id or label. */
        NOT_FOUND,
        /** The transaction is not in a status that allows the operation. */
        WRONG_STATUS
    }

    private final Reason reason;
    private final String existingJobStatus;
    private final TransactionSnapshot existing;

    /** A refusal without an existing job status. */
    public TransactionException(Reason reason, String message) {
        this(reason, message, "");
    }

    /** A refusal naming the existing job's status (LABEL_ALREADY_USED: RUNNING or FINISHED). */
    public TransactionException(Reason reason, String message, String existingJobStatus) {
        this(reason, message, existingJobStatus, null);
    }

    /**
     * A refusal naming the existing job's status and the transaction that holds the label (LABEL_ALREADY_USED).
     *
     * @param existing the label's non-aborted transaction, or null
     */
    public TransactionException(Reason reason, String message, String existingJobStatus, TransactionSnapshot existing) {
        super(message);
        this.reason = reason;
        this.existingJobStatus = existingJobStatus;
        this.existing = existing;
    }

    /** For {@link Reason#LABEL_ALREADY_USED}: the transaction holding the label; else null. */
    public TransactionSnapshot existing() {
        return existing;
    }

    public Reason reason() {
        return reason;
    }

    /** {@code RUNNING} or {@code FINISHED} for {@link Reason#LABEL_ALREADY_USED}; empty otherwise. */
    public String existingJobStatus() {
        return existingJobStatus;
    }
}
