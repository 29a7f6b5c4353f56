package io.lockstep.emulator.doris;

import io.lockstep.emulator.txn.TransactionStatus;

/**
 * A Doris load transaction's status as {@code get_load_state} names it (docs/protocol.md#doris-replies,
 * #doris-states-labels-and-timers; FE {@code TransactionStatus}): UNKNOWN (label not known or already forgotten),
 * PREPARE (load running), PRECOMMITTED (2PC load finished, waiting for commit or abort), COMMITTED, VISIBLE, ABORTED.
 */
public enum DorisTxnStatus {
    UNKNOWN, PREPARE, PRECOMMITTED, COMMITTED, VISIBLE, ABORTED;

    /** The Doris name of a transaction manager status (the manager's PREPARED is Doris' PRECOMMITTED). */
    public static DorisTxnStatus of(TransactionStatus status) {
        return switch (status) {
            case UNKNOWN -> UNKNOWN;
            case PREPARE -> PREPARE;
            case PREPARED -> PRECOMMITTED;
            case COMMITTED -> COMMITTED;
            case VISIBLE -> VISIBLE;
            case ABORTED -> ABORTED;
        };
    }
}
