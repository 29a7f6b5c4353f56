package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.server.Target;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkTarget;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one choice of sink both factories make, and the check every sink's constructor makes with it. */
class SinkModeTest {
    /** StarRocks options for table db.t with {@code extra} on top. */
    private static SinkConfig options(String... extra) {
        Map<String, String> options = new HashMap<>(Map.of("load-url", "127.0.0.1:8030", "database-name", "db",
                "table-name", "t", "username", "root", "password", "", "sink.properties.format", "json"));
        for (int i = 0; i < extra.length; i += 2) {
            options.put(extra[i], extra[i + 1]);
        }
        return SinkMode.optionsFor(SinkTarget.STARROCKS, options);
    }

    private static final SinkConfig AT_LEAST_ONCE = options();
    private static final SinkConfig EXACTLY_ONCE = options("sink.semantic", "exactly-once");
    private static final SinkConfig MULTI_TABLE = options("sink.version", "V2",
            "sink.transaction.multi-table.enabled", "true");

    @Test
    void theOptionsSelectOneMode() {
        assertThat(SinkMode.select(AT_LEAST_ONCE)).isEqualTo(SinkMode.AT_LEAST_ONCE);
        assertThat(SinkMode.select(EXACTLY_ONCE)).isEqualTo(SinkMode.EXACTLY_ONCE);
        assertThat(SinkMode.select(MULTI_TABLE)).isEqualTo(SinkMode.MULTI_TABLE);
        assertThat(SinkMode.select(options("sink.version", "V2", "sink.semantic", "exactly-once",
                "sink.transaction.multi-table.enabled", "true", "sink.transaction.multi-table.job-id", "j")))
                .as("multi-table wins over the semantic").isEqualTo(SinkMode.MULTI_TABLE);
        assertThatThrownBy(() -> SinkMode.select(options("sink.version", "V1")))
                .isInstanceOf(InvalidSinkOptionException.class).hasMessageContaining("'sink.version' = 'V1'");
    }

    @Test
    void eachSinkChecksItsModeNamingTheOptionAndItself() {
        assertThatCode(() -> SinkMode.EXACTLY_ONCE.check(EXACTLY_ONCE, "S")).doesNotThrowAnyException();
        assertThatThrownBy(() -> SinkMode.EXACTLY_ONCE.check(AT_LEAST_ONCE, "ExactlyOnceSink"))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("ExactlyOnceSink needs 'sink.semantic' = 'exactly-once' without multi-table");
        assertThatThrownBy(() -> SinkMode.AT_LEAST_ONCE.check(MULTI_TABLE, "AtLeastOnceSink"))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("AtLeastOnceSink needs 'sink.semantic' = 'at-least-once' without multi-table");
        assertThatThrownBy(() -> SinkMode.MULTI_TABLE.check(EXACTLY_ONCE, "MultiTableSink"))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("MultiTableSink needs 'sink.transaction.multi-table.enabled' = 'true'");
    }

    @Test
    void optionsForATargetRefuseAnotherTarget() {
        assertThat(SinkMode.optionsFor(SinkTarget.DORIS, Map.of("fenodes", "127.0.0.1:8030", "table.identifier",
                "db.t", "username", "root", "password", "", "sink.properties.format", "json")).getTarget())
                .isEqualTo(Target.DORIS);
        assertThatThrownBy(() -> SinkMode.optionsFor(SinkTarget.DORIS, Map.of("sink.target", "starrocks")))
                .isInstanceOf(InvalidSinkOptionException.class).hasMessageContaining("'sink.target' = 'starrocks'");
    }
}
