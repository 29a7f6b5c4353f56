package io.lockstep.core.engine;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * State of the shared (multi-table) transaction of one commit cycle. Moved only by the manager thread through
 * {@link #checkMove}; readers on other threads see it through a volatile field. Legal moves:
 * <pre>
 *   NONE       -&gt; OPEN        begin succeeded (once a chunk waits to load, before its load)
 *   OPEN       -&gt; DRAINING    commit started (timer, flush or recycle): cut taken, loading what it covers
 *   OPEN       -&gt; NONE        recycled with nothing loaded: rolled back, a new label follows
 *   DRAINING   -&gt; COMMITTING  every chunk of the cut is loaded; commit sent (no prepare for multi-table
 *                              transactions: docs/protocol.md#multi-table-transactions)
 *   DRAINING   -&gt; NONE        the cut turned out empty: rolled back
 *   COMMITTING -&gt; NONE        committed; the next begin follows
 *   any but CLOSED -&gt; FAILED  a load, begin, commit or check failed
 *   any        -&gt; CLOSED      close()
 * </pre>
 */
public enum SharedTransactionState implements ManagerCycle.State<SharedTransactionState> {
    NONE, OPEN, DRAINING, COMMITTING, FAILED, CLOSED;

    private static final Map<SharedTransactionState, Set<SharedTransactionState>> LEGAL = Map.of(
            NONE, EnumSet.of(OPEN, FAILED, CLOSED),
            OPEN, EnumSet.of(DRAINING, NONE, FAILED, CLOSED),
            DRAINING, EnumSet.of(COMMITTING, NONE, FAILED, CLOSED),
            COMMITTING, EnumSet.of(NONE, FAILED, CLOSED),
            FAILED, EnumSet.of(CLOSED),
            CLOSED, EnumSet.noneOf(SharedTransactionState.class));

    /** True if this state may move to {@code next}. */
    @Override
    public boolean canMoveTo(SharedTransactionState next) {
        return LEGAL.get(this).contains(next);
    }

    /**
     * @return {@code next}
     * @throws IllegalStateException naming both states if the move is illegal
     */
    @Override
    public SharedTransactionState checkMove(SharedTransactionState next) {
        if (!canMoveTo(next)) {
            throw new IllegalStateException("shared transaction: illegal move " + this + " -> " + next);
        }
        return next;
    }
}
