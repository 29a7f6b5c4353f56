package io.lockstep.emulator.txn;

import javax.annotation.concurrent.NotThreadSafe;

/**
 * One FE transaction: id, label, database, status and its timers.
 *
 * <p>Owned by {@link TransactionManager}: every field is read and written only under that manager's lock;
 * callers outside receive {@link TransactionSnapshot} copies.
 */
@NotThreadSafe
final class TransactionState {
    final long txnId;
    final String database;
    final String label;
    /** The single table of a single-table transaction; null for multi-table. */
    final String table;
    final boolean multiTable;
    /** begin → prepare budget (ms), from the begin {@code timeout} header. */
    final long timeoutMs;
    final long beginTimeMs;

    TransactionStatus status = TransactionStatus.PREPARE;
    /** prepare → commit budget (ms), from the prepare {@code prepared_timeout} header; set at prepare. */
    long preparedTimeoutMs = -1;
    long preparedTimeMs = -1;
    long commitTimeMs = -1;
    /** Time the transaction became VISIBLE or ABORTED; -1 before. Label retention counts from here. */
    long finishTimeMs = -1;
    /** Abort cause or other reason reported by get_load_state; null when none. */
    String reason;

    TransactionState(long txnId, String database, String label, String table, boolean multiTable,
                     long timeoutMs, long beginTimeMs) {
        this.txnId = txnId;
        this.database = database;
        this.label = label;
        this.table = table;
        this.multiTable = multiTable;
        this.timeoutMs = timeoutMs;
        this.beginTimeMs = beginTimeMs;
    }

    /**
     * Moves to {@code target}.
     *
     * @throws IllegalStateException naming both states when the move is not in the legal-move table
     */
    void moveTo(TransactionStatus target, long nowMs) {
        if (!status.canMoveTo(target)) {
            throw new IllegalStateException("transaction " + txnId + " (label " + label + "): illegal move "
                    + status + " -> " + target);
        }
        status = target;
        if (target == TransactionStatus.PREPARED) {
            preparedTimeMs = nowMs;
        } else if (target == TransactionStatus.COMMITTED) {
            commitTimeMs = nowMs;
        }
        if (target.isFinal()) {
            finishTimeMs = nowMs;
        }
    }

    TransactionSnapshot snapshot() {
        return new TransactionSnapshot(txnId, database, label, table, multiTable, status, timeoutMs,
                preparedTimeoutMs, beginTimeMs, reason);
    }
}
