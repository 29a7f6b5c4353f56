package io.lockstep.core.label;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.time.ManualTicker;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunIdTest {

    @Test
    void runIdsAreValidAndDiffer() {
        ManualTicker clock = new ManualTicker(1_700_000_000_000L);
        String a = RunId.random(clock);
        String b = RunId.random(clock);
        assertThat(a).matches("[0-9a-z]{1,24}");
        assertThat(a).as("same millisecond: the random part separates them").isNotEqualTo(b);
        assertThat(a).as("the time part is the given clock's now").startsWith(Long.toString(1_700_000_000_000L, 36));
        assertThat(new LabelGenerator("p", 0, a).sharedLabel(0)).matches(LabelGenerator.SERVER_LABEL);
    }

    @Test
    void derivedAndAttemptIdsKeepTheirShapes() {
        // pinned: the derived candidates of a restore must be the ones an earlier release walked
        assertThat(RunId.derived("job", List.of(), 4, 0, 0)).isEqualTo(RunId.derived("job", List.of(), 4, 0, 0))
                .hasSize(RunId.DERIVED_CHARS).matches("[0-9a-z]+");
        String key = RunId.attemptKey("flink-job", 7, 1);
        assertThat(key).hasSize(RunId.ATTEMPT_KEY_CHARS).matches("[0-9a-z]+")
                .isEqualTo(RunId.attemptKey("flink-job", 7, 1)).isNotEqualTo(RunId.attemptKey("flink-job", 7, 2));
        String sibling = RunId.ofAttempt(key);
        assertThat(sibling).startsWith(key).hasSize(RunId.ATTEMPT_KEY_CHARS + 8).matches("[0-9a-z]+");
        assertThat(RunId.sameAttempt(sibling, RunId.ofAttempt(key))).isTrue();
        assertThat(RunId.sameAttempt(sibling, RunId.ofAttempt(RunId.attemptKey("flink-job", 7, 2)))).isFalse();
        assertThat(RunId.sameAttempt(sibling, key)).as("a bare key is no run id of the attempt").isFalse();
    }

    @Test
    void refusesMalformedIdsAndKeys() {
        assertThatThrownBy(() -> RunId.checked("Bad-Run")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Bad-Run'");
        assertThatThrownBy(() -> RunId.checked("x".repeat(25))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RunId.ofAttempt("short")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'short'");
    }
}
