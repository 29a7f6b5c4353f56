package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.progress.SourcePartition;

import java.util.Map;

import org.junit.jupiter.api.Test;

class SourcePositionsByFreezeTest {
    private static final SourcePartition TOPIC_0 = new SourcePartition("topic", 0);
    private static final SourcePartition TOPIC_1 = new SourcePartition("topic", 1);
    private final SourcePositionsByFreeze positions = new SourcePositionsByFreeze();

    @Test
    void aCutCarriesTheHighestPositionPerSourcePartitionFrozenAtOrBelowIt() {
        positions.onTxnEnd(0, TOPIC_0, 7);
        positions.onTxnEnd(0, TOPIC_0, 5); // lower: never moves a position back
        positions.onPartitionFrozen(0, 2);
        positions.onTxnEnd(0, TOPIC_0, 9);
        positions.onTxnEnd(1, TOPIC_1, 3);
        positions.onPartitionFrozen(0, 4);
        assertThat(positions.takeCovered(3).positions()).isEqualTo(Map.of(TOPIC_0, 7L));
        assertThat(positions.takeCovered(4).positions()).as("partition 1 is not frozen yet").isEqualTo(Map.of(TOPIC_0, 9L));
        positions.onPartitionFrozen(1, 6);
        assertThat(positions.takeCovered(6).positions()).isEqualTo(Map.of(TOPIC_1, 3L));
        assertThat(positions.takeCovered(Long.MAX_VALUE).positions()).as("taken once").isEmpty();
    }

    @Test
    void aFlushCoversEveryPartitionAndClearForgetsEverything() {
        positions.onTxnEnd(0, TOPIC_0, 1);
        positions.onTxnEnd(1, TOPIC_1, 2);
        positions.onAllFrozen(5);
        assertThat(positions.takeCovered(5).positions()).isEqualTo(Map.of(TOPIC_0, 1L, TOPIC_1, 2L));
        positions.onTxnEnd(0, TOPIC_0, 3);
        positions.onAllFrozen(6);
        positions.clear();
        assertThat(positions.takeCovered(Long.MAX_VALUE).positions()).isEmpty();
    }

    @Test
    void coveredPositionsJoinTheirEndsPositionsHighestWinsAndMoveWithItsFreeze() {
        SourcePartition table0 = new SourcePartition("table", 0);
        positions.onTxnEnd(0, TOPIC_0, 1, null, Map.of(table0, 12L, TOPIC_0, 0L)); // lower than the end's own: 1 stays
        positions.onTxnEnd(0, TOPIC_0, 2, null, Map.of(table0, 9L));
        assertThat(positions.takeCovered(Long.MAX_VALUE).positions()).as("not frozen yet").isEmpty();
        positions.onPartitionFrozen(0, 3);
        positions.onTxnEnd(0, TOPIC_0, 3, null, Map.of(table0, 30L));
        assertThat(positions.takeCovered(3).positions()).isEqualTo(Map.of(TOPIC_0, 2L, table0, 12L));
        positions.onAllFrozen(4);
        assertThat(positions.takeCovered(4).positions()).isEqualTo(Map.of(TOPIC_0, 3L, table0, 30L));
    }
}
