package io.lockstep.emulator.multi;

import java.util.EnumSet;
import java.util.Set;

/**
 * States of a multi-table stream load task, spelled as StarRocks spells them
 * (docs/protocol.md#multi-table-transactions, FE {@code StreamLoadMgr}): BEGIN → COMMITING → COMMITED → FINISHED, or →
 * ABORTING → CANCELLED.
 */
public enum MultiTaskState {
    BEGIN, COMMITING, COMMITED, FINISHED, ABORTING, CANCELLED;

    private Set<MultiTaskState> next() {
        switch (this) {
            case BEGIN:
                return EnumSet.of(COMMITING, ABORTING, CANCELLED);
            case COMMITING:
                return EnumSet.of(COMMITED, FINISHED, ABORTING, CANCELLED);
            case COMMITED:
                return EnumSet.of(FINISHED);
            case ABORTING:
                return EnumSet.of(CANCELLED);
            default:
                return EnumSet.noneOf(MultiTaskState.class);
        }
    }

    /** True when this state may move to {@code target}. */
    public boolean canMoveTo(MultiTaskState target) {
        return next().contains(target);
    }
}
