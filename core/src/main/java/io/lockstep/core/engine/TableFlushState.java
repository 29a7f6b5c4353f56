package io.lockstep.core.engine;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * State of the flush cycle of the single-table engine. Moved only by the manager thread through {@link #checkMove}.
 * Legal moves:
 * <pre>
 *   ACCEPTING -&gt; FLUSHING   a flush or checkpoint cut was taken: load what it covers, then prepare (and commit)
 *   FLUSHING  -&gt; ACCEPTING  every per-table transaction of the cut was prepared (exactly-once) or committed
 *   ACCEPTING, FLUSHING -&gt; FAILED   a begin, load, prepare or commit failed
 *   any       -&gt; CLOSED     close()
 * </pre>
 */
public enum TableFlushState implements ManagerCycle.State<TableFlushState> {
    ACCEPTING, FLUSHING, FAILED, CLOSED;

    private static final Map<TableFlushState, Set<TableFlushState>> LEGAL = Map.of(
            ACCEPTING, EnumSet.of(FLUSHING, FAILED, CLOSED),
            FLUSHING, EnumSet.of(ACCEPTING, FAILED, CLOSED),
            FAILED, EnumSet.of(CLOSED),
            CLOSED, EnumSet.noneOf(TableFlushState.class));

    /** True if this state may move to {@code next}. */
    @Override
    public boolean canMoveTo(TableFlushState next) {
        return LEGAL.get(this).contains(next);
    }

    /**
     * @return {@code next}
     * @throws IllegalStateException naming both states if the move is illegal
     */
    @Override
    public TableFlushState checkMove(TableFlushState next) {
        if (!canMoveTo(next)) {
            throw new IllegalStateException("table flush cycle: illegal move " + this + " -> " + next);
        }
        return next;
    }
}
