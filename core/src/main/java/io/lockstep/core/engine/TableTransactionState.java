package io.lockstep.core.engine;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * State of one table's transaction in the single-table engine ({@link TableTransaction}). Moved only by the manager
 * thread through {@link #checkMove}. Legal moves:
 * <pre>
 *   OPEN     -&gt; LOADED       its first load succeeded (transaction stream load: more loads may follow)
 *   OPEN     -&gt; PREPARED     its one load pre-committed it (Doris two-phase stream load)
 *   LOADED   -&gt; PREPARED     prepare succeeded at a flush
 *   PREPARED -&gt; COMMITTED    committed at the flush (at-least-once)
 *   OPEN, LOADED, PREPARED -&gt; ROLLED_BACK
 *                            nothing was loaded at the flush, a prepare or commit was given up, or close / failure
 *                            (never a prepared transaction handed to a checkpoint: the Flink layer owns those)
 * </pre>
 */
enum TableTransactionState {
    OPEN, LOADED, PREPARED, COMMITTED, ROLLED_BACK;

    private static final Map<TableTransactionState, Set<TableTransactionState>> LEGAL = Map.of(
            OPEN, EnumSet.of(LOADED, PREPARED, ROLLED_BACK),
            LOADED, EnumSet.of(PREPARED, ROLLED_BACK),
            PREPARED, EnumSet.of(COMMITTED, ROLLED_BACK),
            COMMITTED, EnumSet.noneOf(TableTransactionState.class),
            ROLLED_BACK, EnumSet.noneOf(TableTransactionState.class));

    /** True if this state may move to {@code next}. */
    boolean canMoveTo(TableTransactionState next) {
        return LEGAL.get(this).contains(next);
    }
}
