package io.lockstep.core.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Every label kind, byte for byte as it goes on the wire, and read back by the same class that built it. */
class LabelRoundTripTest {
    private final LabelGenerator labels = new LabelGenerator("shop-sync", 3, "lq2x9a7bcd12");

    @Test
    void everyLabelKindKeepsItsWireShape() {
        assertThat(labels.sharedLabel(17)).isEqualTo("shop-sync-3-lq2x9a7bcd12-m17");
        assertThat(labels.sharedLabelBase()).isEqualTo("shop-sync-3-lq2x9a7bcd12-m");
        assertThat(labels.closingLabel()).isEqualTo("shop-sync-3-lq2x9a7bcd12-s1");
        assertThat(labels.atLeastOnceLabel("db.orders", 5)).isEqualTo("shop-sync-db_orders-3-lq2x9a7bcd12-a5");
        assertThat(labels.classicLabel("orders", 5)).isEqualTo("shop-sync-orders-3-lq2x9a7bcd12-c5");
        assertThat(labels.exactlyOnceLabel("orders", 42)).isEqualTo("shop-sync-orders-3-lq2x9a7bcd12-42");
        assertThat(labels.exactlyOnceFlushLabel("orders", 42, 2)).isEqualTo("shop-sync-orders-3-lq2x9a7bcd12-42_2");
        assertThat(ExactlyOnceLabelScheme.ONE_PER_CHECKPOINT.label(labels, "orders", 42, 9))
                .isEqualTo("shop-sync-orders-3-lq2x9a7bcd12-42");
        assertThat(ExactlyOnceLabelScheme.ONE_PER_FLUSH.label(labels, "orders", 42, 9))
                .isEqualTo("shop-sync-orders-3-lq2x9a7bcd12-42_9");
    }

    @Test
    void sharedLabelsReadBackToTheirBaseAndCycle() {
        for (long cycle : new long[] {0, 1, 17, Long.MAX_VALUE}) {
            String label = labels.sharedLabel(cycle);
            assertThat(LabelGenerator.sharedLabelCycle(label)).isEqualTo(cycle);
            assertThat(LabelGenerator.sharedLabelBaseOf(label)).isEqualTo(labels.sharedLabelBase());
            assertThat(labels.sharedLabelBase() + cycle).isEqualTo(label);
        }
        assertThat(LabelGenerator.sharedLabelCycle(labels.closingLabel())).isEqualTo(-1);
        assertThat(LabelGenerator.sharedLabelCycle(labels.exactlyOnceLabel("orders", 4))).isEqualTo(-1);
        assertThatThrownBy(() -> LabelGenerator.sharedLabelBaseOf(labels.closingLabel()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'shop-sync-3-lq2x9a7bcd12-s1'")
                .hasMessageContaining("not a shared label");
        assertThatThrownBy(() -> LabelGenerator.sharedLabelBaseOf("p-0-run-mx")).isInstanceOf(
                IllegalArgumentException.class);
    }

    @Test
    void exactlyOnceLabelsReadBackToTheirParts() {
        String table = "orders-" + "x".repeat(120); // shortened with a hash: read back as written
        String label = labels.exactlyOnceLabel(table, 42);
        ExactlyOnceLabel parsed = labels.parseExactlyOnce(label);
        assertThat(parsed.prefix()).isEqualTo("shop-sync");
        assertThat(parsed.subtaskIndex()).isEqualTo(3);
        assertThat(parsed.runId()).isEqualTo("lq2x9a7bcd12");
        assertThat(parsed.checkpointId()).isEqualTo(42);
        assertThat(new LabelGenerator(parsed.prefix(), parsed.subtaskIndex(), parsed.runId())
                .exactlyOnceLabel(parsed.table(), parsed.checkpointId())).isEqualTo(label);
        assertThat(label).hasSize(128).matches(LabelGenerator.SERVER_LABEL);
    }
}
