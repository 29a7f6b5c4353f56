package io.lockstep.emulator.multi;

import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * One multi-table transaction as the FE tracks it (StarRocks {@code StreamLoadMultiStmtTask}): label,
 * database, transaction id and task state. The monitor {@code this} guards the state and abort reason.
 */
@ThreadSafe
public final class MultiTableTask {
    private final String label;
    private final String database;
    private final long txnId;

    @GuardedBy("this")
    private MultiTaskState state = MultiTaskState.BEGIN;
    @GuardedBy("this")
    private String abortReason;

    MultiTableTask(String label, String database, long txnId) {
        this.label = label;
        this.database = database;
        this.txnId = txnId;
    }

    public String label() {
        return label;
    }

    public String database() {
        return database;
    }

    public long txnId() {
        return txnId;
    }

    public synchronized MultiTaskState state() {
        return state;
    }

    public synchronized String abortReason() {
        return abortReason;
    }

    /**
     * Moves to {@code target} if the move is legal.
     *
     * @return false (state unchanged) when it is not
     */
    public synchronized boolean moveTo(MultiTaskState target) {
        if (!state.canMoveTo(target)) {
            return false;
        }
        state = target;
        return true;
    }

    /** Ends the task as CANCELLED with a reason unless it already finished or was cancelled. */
    public synchronized void cancel(String reason) {
        if (state == MultiTaskState.COMMITED || state == MultiTaskState.FINISHED || state == MultiTaskState.CANCELLED) {
            return;
        }
        state = MultiTaskState.CANCELLED;
        if (abortReason == null) {
            abortReason = reason;
        }
    }
}
