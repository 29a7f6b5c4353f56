package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.flink.options.InvalidSinkOptionException;

import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/** Construction-time rules of {@link ExactlyOnceSinkFunction} (no server needed). */
class ExactlyOnceSinkFunctionTest {

    private static StarRocksSinkOptions.Builder options() {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", "127.0.0.1:8030")
                .withProperty("database-name", "eo")
                .withProperty("table-name", "events")
                .withProperty("username", "root")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.properties.format", "json");
    }

    @Test
    void aShortTransactionTimeoutIsNotMeasuredAgainstTheUnusedCommitInterval() throws Exception {
        // sink.buffer-flush.interval-ms defaults to 300000 ms, far above 80% of 60 s; exactly-once ignores it
        ExactlyOnceSinkFunction<Object> sink = new ExactlyOnceSinkFunction<>(
                options().withProperty("sink.properties.timeout", "60").build());

        assertThat(InstantiationUtil.clone(sink)).as("shipped to the subtasks by Java serialization").isNotNull();
    }

    @Test
    void otherSemanticsAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> new ExactlyOnceSinkFunction<>(
                options().withProperty("sink.semantic", "at-least-once").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("'sink.semantic' = 'exactly-once'");
    }
}
