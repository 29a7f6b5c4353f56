package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.flink.options.InvalidSinkOptionException;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

class TransactionTimeoutCheckTest {

    @Test
    void aTimeoutAboveTheIntervalPasses() {
        assertThatCode(() -> TransactionTimeoutCheck.check(3, true, OptionalLong.of(2_999))).doesNotThrowAnyException();
        assertThatCode(() -> TransactionTimeoutCheck.check(600, true, OptionalLong.empty()))
                .as("an unknown interval cannot be checked").doesNotThrowAnyException();
    }

    @Test
    void aTimeoutNotAboveTheIntervalFailsNamingTheOptionAndTheInterval() {
        assertThatThrownBy(() -> TransactionTimeoutCheck.check(3, true, OptionalLong.of(3_000)))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("'sink.properties.timeout' = '3'")
                .hasMessageContaining("checkpoint interval (3000 ms)")
                .hasMessageContaining("expected at least 4 seconds");
    }

    @Test
    void exactlyOnceWithoutCheckpointingFailsNamingTheSemantic() {
        assertThatThrownBy(() -> TransactionTimeoutCheck.check(600, false, OptionalLong.empty()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("'sink.semantic' = 'exactly-once'")
                .hasMessageContaining("checkpointing disabled");
    }

    @Test
    void dorisChecksTheIntervalAgainstHalfThePreCommitTimeout() {
        TransactionTimeoutCheck.checkDoris(true, java.util.OptionalLong.of(1_799_999));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> TransactionTimeoutCheck.checkDoris(true, java.util.OptionalLong.of(1_800_000)))
                .hasMessageContaining("stream_load_default_precommit_timeout_second")
                .hasMessageContaining("under 1800 s");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> TransactionTimeoutCheck.checkDoris(false, java.util.OptionalLong.empty()))
                .hasMessageContaining("checkpointing disabled");
    }
}
