package io.lockstep.flink.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.server.Target;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkSemantic;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SinkConfigTest {

    private static SinkConfigBuilder doris() {
        return SinkConfig.builder().loadUrl("fe1:8030").database("db").table("t").username("root")
                .password("s3cret").target(Target.DORIS).semantic(SinkSemantic.EXACTLY_ONCE)
                .option("sink.be-address-map", "be1:8040=127.0.0.1:18040");
    }

    @Test
    void typedBuilderEqualsTheSameOptionsAsTextAndSurvivesJavaSerialization() throws Exception {
        SinkConfig typed = doris().build();
        SinkConfig text = SinkConfig.fromOptions(Map.of("fenodes", "fe1:8030", "table.identifier", "db.t",
                "username", "root", "password", "s3cret", "sink.target", "doris", "sink.enable-2pc", "true",
                "sink.be-address-map", "be1:8040=127.0.0.1:18040"));
        assertThat(typed).isEqualTo(text);
        assertThat(typed.getTarget()).isEqualTo(Target.DORIS);
        assertThat(typed.toString()).contains("password=***").doesNotContain("s3cret");

        SinkConfig withTable = typed.withTableProperties(List.of(
                new TableLoadProperties("db", "t", Map.of("columns", "a,b"))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(withTable);
        }
        SinkConfig read;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            read = (SinkConfig) in.readObject();
        }
        assertThat(read).isEqualTo(withTable);
        assertThat(read.getBeAddressMap()).usingRecursiveComparison().isEqualTo(withTable.getBeAddressMap());
        assertThat(read.streamLoadHeadersFor("db", "t")).containsEntry("columns", "a,b").containsEntry("timeout",
                "600");
    }

    @Test
    void typedBuilderRefusesWhatTheValidatorRefuses() {
        assertThatThrownBy(() -> doris().multiTable(true).build()).isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("sink.transaction.multi-table.enabled");
    }
}
