package io.lockstep.core.restart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The state entry of a multi-table at-least-once run: its string form and the walk it starts. */
class MultiTableRunStateTest {

    @Test
    void encodesAndDecodesEveryField() {
        MultiTableRunState state = new MultiTableRunState("my-prefix_1", 3, "abc123", "shop", 17);
        assertThat(state.encode()).isEqualTo("1/my-prefix_1/3/abc123/shop/17");
        assertThat(MultiTableRunState.decode(state.encode())).isEqualTo(state);
        MultiTableRunState noDatabase = new MultiTableRunState("p", 0, "r", null, 0);
        assertThat(MultiTableRunState.decode(noDatabase.encode())).isEqualTo(noDatabase);
    }

    @Test
    void walksTheRunsLabelsAfterItsSettledCycle() {
        SharedLabelRun run = new MultiTableRunState("p", 2, "r9", "shop", 4).toRun();
        assertThat(run.label(5)).isEqualTo("p-2-r9-m5");
        assertThat(run.lastCommittedCycle()).isEqualTo(4);
        assertThat(new MultiTableRunState("p", 2, "r9", null, 4).toRun()).as("database unknown: not walkable")
                .isNull();
    }

    @Test
    void refusesAnotherVersionOrAMalformedEntryQuotingIt() {
        assertThatThrownBy(() -> MultiTableRunState.decode("2/p/0/r/shop/1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'2/p/0/r/shop/1'");
        assertThatThrownBy(() -> MultiTableRunState.decode("1/p/x/r/shop/1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
        assertThatThrownBy(() -> new MultiTableRunState("p", 0, "r", "a/b", 1))
                .hasMessageContaining("'a/b'");
    }
}
