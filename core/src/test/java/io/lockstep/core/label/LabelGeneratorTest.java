package io.lockstep.core.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class LabelGeneratorTest {
    private final LabelGenerator labels = new LabelGenerator("shop-sync", 3, "lq2x9a7bcd12");

    @Test
    void sharedLabelsAreValidAndUniquePerCycleSubtaskAndRun() {
        assertThat(labels.sharedLabel(1)).isEqualTo("shop-sync-3-lq2x9a7bcd12-m1");
        Set<String> seen = new HashSet<>();
        for (int subtask = 0; subtask < 4; subtask++) {
            for (String run : new String[] {"run1", "run2"}) {
                LabelGenerator g = new LabelGenerator("shop-sync", subtask, run);
                for (long cycle = 0; cycle < 50; cycle++) {
                    String label = g.sharedLabel(cycle);
                    assertThat(label).matches(LabelGenerator.SERVER_LABEL);
                    assertThat(seen.add(label)).as(label).isTrue();
                }
            }
        }
    }

    @Test
    void classicLabelsHaveTheirOwnShapeAndDifferFromAtLeastOnceLabels() {
        assertThat(labels.classicLabel("order.items", 7)).isEqualTo("shop-sync-order_items-3-lq2x9a7bcd12-c7");
        assertThat(labels.classicLabel("t", 7)).isNotEqualTo(labels.atLeastOnceLabel("t", 7));
        assertThat(labels.classicLabel("x".repeat(200), 1)).matches(LabelGenerator.SERVER_LABEL);
        assertThatThrownBy(() -> labels.classicLabel("t", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence");
        assertThatThrownBy(() -> labels.parseExactlyOnce(labels.classicLabel("t", 5)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void exactlyOnceLabelsAreDeterministicAndParseBack() {
        String label = labels.exactlyOnceLabel("order_items", 42);
        assertThat(label).isEqualTo("shop-sync-order_items-3-lq2x9a7bcd12-42");
        assertThat(labels.exactlyOnceLabel("order_items", 42)).isEqualTo(label);
        assertThat(new LabelGenerator("shop-sync", 3, "otherrun").exactlyOnceLabel("order_items", 42))
                .as("a stateless restart (new run id) never collides").isNotEqualTo(label);

        ExactlyOnceLabel parsed = labels.parseExactlyOnce(label);
        assertThat(parsed).isEqualTo(new ExactlyOnceLabel("shop-sync", "order_items", 3, "lq2x9a7bcd12", 42));
        // another subtask's label under the same prefix parses too (used when scanning after rescaling)
        assertThat(labels.parseExactlyOnce(new LabelGenerator("shop-sync", 11, "r2").exactlyOnceLabel("a-b", 7)))
                .isEqualTo(new ExactlyOnceLabel("shop-sync", "a-b", 11, "r2", 7));
    }

    @Test
    void otherLabelShapesDoNotParseAsExactlyOnce() {
        assertThatThrownBy(() -> labels.parseExactlyOnce(labels.sharedLabel(5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an exactly-once label");
        assertThatThrownBy(() -> labels.parseExactlyOnce(labels.atLeastOnceLabel("t", 5)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> labels.parseExactlyOnce("other-t-1-r-5"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefix");
    }

    @Test
    void tableNamesAreSanitizedAndLongOnesShortenedUniquely() {
        String label = labels.exactlyOnceLabel("表 orders$1", 1);
        assertThat(label).matches(LabelGenerator.SERVER_LABEL).contains("__orders_1");
        String longA = labels.exactlyOnceLabel("t".repeat(200) + "a", 9);
        String longB = labels.exactlyOnceLabel("t".repeat(200) + "b", 9);
        assertThat(longA).matches(LabelGenerator.SERVER_LABEL).hasSizeLessThanOrEqualTo(128);
        assertThat(longA).isNotEqualTo(longB);
        assertThat(labels.parseExactlyOnce(longA).checkpointId()).isEqualTo(9);
        LabelGenerator widest = new LabelGenerator("p".repeat(48), Integer.MAX_VALUE, "z".repeat(24));
        assertThat(widest.exactlyOnceLabel("x".repeat(128), Long.MAX_VALUE)).matches(LabelGenerator.SERVER_LABEL);
        assertThat(widest.sharedLabel(Long.MAX_VALUE)).matches(LabelGenerator.SERVER_LABEL);
    }

    @Test
    void badPrefixGetsAClearError() {
        assertThatThrownBy(() -> new LabelGenerator("my prefix", 0, "r"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'my prefix'")
                .hasMessageContaining("letters, digits");
        assertThatThrownBy(() -> LabelGenerator.validatePrefix("")).hasMessageContaining("''");
        assertThatThrownBy(() -> LabelGenerator.validatePrefix("x".repeat(49))).hasMessageContaining("48");
        assertThatThrownBy(() -> new LabelGenerator("ok", -1, "r")).hasMessageContaining("subtask");
        assertThatThrownBy(() -> new LabelGenerator("ok", 0, "Bad-Run")).hasMessageContaining("run id");
    }
}
