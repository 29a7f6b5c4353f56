package io.lockstep.emulator.txn;

import java.util.EnumSet;
import java.util.Set;

/**
 * FE transaction status, with the legal moves between them.
 *
 * <p>Source: StarRocks {@code fe/fe-core/src/main/java/com/starrocks/transaction/TransactionStatus.java}
 * (docs/protocol.md#the-emulators-state-tables). Naming trap kept from StarRocks: {@link #PREPARE} is the open, running
 * transaction (after begin); {@link #PREPARED} is pre-committed (after {@code /api/transaction/prepare}).
 * {@link #UNKNOWN} is never stored: it is what a label the FE does not remember reports.
 */
public enum TransactionStatus {
    UNKNOWN,
    PREPARE,
    PREPARED,
    COMMITTED,
    VISIBLE,
    ABORTED;

    /**
     * The legal-move table. PREPARE → COMMITTED is the one-phase commit through the BE (classic stream load,
     * commit without prepare, multi-table commit).
     */
    private Set<TransactionStatus> next() {
        switch (this) {
            case PREPARE:
                return EnumSet.of(PREPARED, COMMITTED, ABORTED);
            case PREPARED:
                return EnumSet.of(COMMITTED, ABORTED);
            case COMMITTED:
                return EnumSet.of(VISIBLE);
            default:
                return EnumSet.noneOf(TransactionStatus.class);
        }
    }

    /** True when a transaction in this status may move to {@code target}. */
    public boolean canMoveTo(TransactionStatus target) {
        return next().contains(target);
    }

    /** VISIBLE and ABORTED are final: they never change again (the label may then only expire). */
    public boolean isFinal() {
        return this == VISIBLE || this == ABORTED;
    }

    /**
     * Counted against {@code max_running_txn_num_per_db}: PREPARE, PREPARED and COMMITTED
     * (docs/protocol.md#timeouts-limits-and-concurrency).
     */
    public boolean isRunning() {
        return this == PREPARE || this == PREPARED || this == COMMITTED;
    }
}
