package io.lockstep.core.client;

/**
 * The operations whose unclear outcomes are settled by a label-state query, with their path and the states that mean
 * success (docs/protocol.md#what-the-official-starrocks-connector-does): prepare → PREPARED (or already
 * COMMITTED/VISIBLE); commit → COMMITTED/VISIBLE; rollback → ABORTED, or UNKNOWN (nothing left to roll back).
 */
enum SettledOp {
    PREPARE("/api/transaction/prepare"),
    COMMIT("/api/transaction/commit"),
    ROLLBACK("/api/transaction/rollback");

    private final String path;

    SettledOp(String path) {
        this.path = path;
    }

    String path() {
        return path;
    }

    /** Whether the label being in {@code state} means this operation took effect. */
    boolean succeededIn(LabelState state) {
        switch (this) {
            case PREPARE:
                return state == LabelState.PREPARED || state.isCommitted();
            case COMMIT:
                return state.isCommitted();
            default:
                return state == LabelState.ABORTED || state == LabelState.UNKNOWN;
        }
    }
}
