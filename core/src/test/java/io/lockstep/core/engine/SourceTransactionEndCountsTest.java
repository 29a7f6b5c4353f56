package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SourceTransactionEndCountsTest {
    private final SourceTransactionEndCounts ends = new SourceTransactionEndCounts();

    @Test
    void aCutCountsOnlyTheEndsFrozenAtOrBelowIt() {
        ends.onTxnEnd(0);
        ends.onTxnEnd(0);
        ends.onTxnEnd(1);
        ends.onPartitionFrozen(0, 3);
        assertThat(ends.takeCovered(10)).as("partition 1's end is not frozen yet").isEqualTo(2);
        ends.onPartitionFrozen(1, 5);
        ends.onTxnEnd(1);
        ends.onPartitionFrozen(1, 8);
        assertThat(ends.takeCovered(7)).isEqualTo(1);
        assertThat(ends.takeCovered(7)).as("taken once").isZero();
        assertThat(ends.takeCovered(8)).isEqualTo(1);
    }

    @Test
    void aFlushCoversEveryPartitionAndClearForgetsEverything() {
        ends.onTxnEnd(0);
        ends.onTxnEnd(2);
        ends.onAllFrozen(4);
        assertThat(ends.takeCovered(3)).isZero();
        assertThat(ends.takeCovered(4)).isEqualTo(2);
        ends.onTxnEnd(0);
        ends.onAllFrozen(6);
        ends.clear();
        assertThat(ends.takeCovered(Long.MAX_VALUE)).isZero();
    }
}
