package io.lockstep.core.engine;

import static io.lockstep.core.engine.SharedTransactionState.CLOSED;
import static io.lockstep.core.engine.SharedTransactionState.COMMITTING;
import static io.lockstep.core.engine.SharedTransactionState.DRAINING;
import static io.lockstep.core.engine.SharedTransactionState.FAILED;
import static io.lockstep.core.engine.SharedTransactionState.NONE;
import static io.lockstep.core.engine.SharedTransactionState.OPEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class SharedTransactionStateTest {
    /** The table from the class Javadoc, written out independently. */
    private static final Map<SharedTransactionState, Set<SharedTransactionState>> EXPECTED = Map.of(
            NONE, EnumSet.of(OPEN, FAILED, CLOSED),
            OPEN, EnumSet.of(DRAINING, NONE, FAILED, CLOSED),
            DRAINING, EnumSet.of(COMMITTING, NONE, FAILED, CLOSED),
            COMMITTING, EnumSet.of(NONE, FAILED, CLOSED),
            FAILED, EnumSet.of(CLOSED),
            CLOSED, EnumSet.noneOf(SharedTransactionState.class));

    @Test
    void everyPairFollowsTheTable() {
        for (SharedTransactionState from : SharedTransactionState.values()) {
            for (SharedTransactionState to : SharedTransactionState.values()) {
                boolean legal = EXPECTED.get(from).contains(to);
                assertThat(from.canMoveTo(to)).as(from + " -> " + to).isEqualTo(legal);
                if (legal) {
                    assertThat(from.checkMove(to)).isEqualTo(to);
                } else {
                    assertThatThrownBy(() -> from.checkMove(to)).isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining(from + " -> " + to);
                }
            }
        }
    }

    @Test
    void theHappyCycleIsLegal() {
        SharedTransactionState s = NONE;
        for (SharedTransactionState next : new SharedTransactionState[] {OPEN, DRAINING, COMMITTING, NONE, OPEN}) {
            s = s.checkMove(next);
        }
        assertThat(s).isEqualTo(OPEN);
    }
}
