package io.lockstep.core.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The task thread's position checks and drops (no server). */
class PositionGateTest {
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private final PositionGate gate = new PositionGate(new CommittedPositions(Map.of(
            new SourcePartition("topic-a", 0), 10L)), metrics);

    private PositionGate.Decision row(String source, int partition, long position, boolean end) {
        return gate.admit(source, partition, position, end, () -> "shop.orders");
    }

    @Test
    void transactionsAtOrBelowTheCommittedPositionAreDroppedWholeAndCounted() {
        assertThat(row("topic-a", 0, 3, false)).isEqualTo(PositionGate.Decision.DROP);
        assertThat(row("topic-a", 0, 3, true)).isEqualTo(PositionGate.Decision.DROP);
        assertThat(row("topic-a", 0, 10, true)).isEqualTo(PositionGate.Decision.DROP);
        assertThat(row("topic-a", 0, 11, false)).isEqualTo(PositionGate.Decision.KEEP);
        assertThat(row("topic-a", 0, 11, true)).isEqualTo(PositionGate.Decision.KEEP);
        assertThat(metrics.count(MetricNames.SOURCE_TRANSACTIONS_SKIPPED)).isEqualTo(2);
        assertThat(gate.droppedTransactions(new SourcePartition("topic-a", 0))).isEqualTo(2);
    }

    @Test
    void anotherSourceOrPartitionHasItsOwnPositions() {
        assertThat(row("topic-b", 0, 3, true)).as("same partition number, other topic").isEqualTo(
                PositionGate.Decision.KEEP);
        assertThat(row("topic-a", 1, 3, true)).isEqualTo(PositionGate.Decision.KEEP);
    }

    @Test
    void interleavedPartitionsKeepTheirOwnStateAndLastPartitionNamesTheRowJustDecided() {
        assertThat(gate.lastPartition()).isNull();
        row("topic-a", 1, 20, false);
        assertThat(gate.lastPartition()).isEqualTo(new SourcePartition("topic-a", 1));
        row("topic-a", 2, 5, true);
        assertThat(gate.lastPartition()).isEqualTo(new SourcePartition("topic-a", 2));
        row(new String("topic-a"), 1, 20, true); // an equal source string of another instance: the same partition
        assertThat(gate.lastPartition()).isEqualTo(new SourcePartition("topic-a", 1));
        assertThatThrownBy(() -> row("topic-a", 2, 5, false)).as("partition 2 still knows its last end")
                .hasMessageContaining("not above the previous source transaction's position 5");
        assertThatThrownBy(() -> row("topic-a", 1, 20, false)).hasMessageContaining("position 20");
    }

    @Test
    void aPositionNotAboveThePreviousTransactionsIsRefused() {
        row("topic-a", 0, 20, true);
        assertThatThrownBy(() -> row("topic-a", 0, 19, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("row shop.orders of topic-a/0 has source position 19, not above the previous source "
                        + "transaction's position 20: positions must grow with each source transaction of a "
                        + "partition (is the input keyed and ordered by source partition?)");
        assertThatThrownBy(() -> row("topic-a", 0, 20, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not above the previous source transaction's position 20");
        assertThat(row("topic-a", 0, 21, true)).as("nothing changed by the refused rows").isEqualTo(
                PositionGate.Decision.KEEP);
    }

    @Test
    void rowsOfOneTransactionMustCarryOnePosition() {
        row("topic-a", 0, 30, false);
        assertThatThrownBy(() -> row("topic-a", 0, 31, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has source position 31 but earlier rows of the same source transaction have 30");
    }

    @Test
    void rowsWithoutSourceOrPositionAreRefused() {
        assertThatThrownBy(() -> row(null, 0, 5, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("row shop.orders has no source");
        assertThatThrownBy(() -> row("topic-a", 0, -1, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has source position -1");
        assertThatThrownBy(() -> row("#run:x", 0, 5, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
    }
}
