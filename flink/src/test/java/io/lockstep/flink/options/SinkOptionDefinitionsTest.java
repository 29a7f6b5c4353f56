package io.lockstep.flink.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Sanity of the catalogue itself, which validation, getters and docs are derived from. */
class SinkOptionDefinitionsTest {

    @Test
    void keysAreUniqueAndEveryEntryIsDescribed() {
        Set<String> keys = new HashSet<>();
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            assertThat(keys.add(option.key())).as("duplicate key %s", option.key()).isTrue();
            assertThat(option.description()).as(option.key()).isNotBlank();
            assertThat(option.typeName()).as(option.key()).isNotBlank();
        }
    }

    @Test
    void catalogueHoldsEveryOptionTheBriefAndDesignName() {
        assertThat(SinkOptionDefinitions.ALL).extracting(SinkOption::key).contains(
                "jdbc-url", "load-url", "database-name", "table-name", "username", "password",
                "sink.version", "sink.semantic", "sink.transaction.multi-table.enabled",
                "sink.transaction.multi-table.buffer-size", "sink.buffer-flush.interval-ms",
                "sink.properties.enable_merge_commit", "sink.label-prefix", "sink.max-retries",
                "sink.retry.interval-ms", "sink.connect.timeout-ms", "sink.socket.timeout-ms",
                "sink.scan-frequency.ms", "sink.buffer-flush.max-bytes", "sink.properties.timeout");
    }

    @Test
    void requiredOptionsAreExactlyTheFourConnectionOptions() {
        assertThat(SinkOptionDefinitions.ALL).filteredOn(SinkOption::isRequired).extracting(SinkOption::key)
                .containsExactlyInAnyOrder("load-url", "database-name", "table-name", "username");
    }

    @Test
    void documentedDefaultsParseBackToTheDefaultValue() {
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            if (option.defaultValue() == null || option.key().equals("password")) {
                continue;
            }
            String text = option.defaultText().split(" ")[0];
            assertThat((Object) option.parse(text)).as(option.key()).isEqualTo(option.defaultValue());
        }
    }

    @Test
    void documentedDefaultsAreKept() {
        assertThat(SinkOptionDefinitions.MULTI_TABLE_ENABLED.defaultValue()).isFalse();
        assertThat(SinkOptionDefinitions.MULTI_TABLE_BUFFER_SIZE_BYTES.defaultValue()).isEqualTo(134_217_728L);
        assertThat(SinkOptionDefinitions.SINK_SEMANTIC.defaultValue()).isEqualTo(SinkSemantic.AT_LEAST_ONCE);
    }

    @Test
    void findNormalizesSinkPropertiesNames() {
        assertThat(SinkOptionDefinitions.find("sink.properties.TIMEOUT")).contains(SinkOptionDefinitions.STREAM_LOAD_TIMEOUT_SECONDS);
        assertThat(SinkOptionDefinitions.find("Sink.Semantic")).as("other keys are case-sensitive").isEmpty();
        assertThat(SinkOptionDefinitions.find("sink.properties.columns")).as("plain passthrough header").isEmpty();
    }

    @Test
    void unsupportedConnectorOptionsAreNotInTheCatalogue() {
        for (String key : SinkOptionDefinitions.UNSUPPORTED_CONNECTOR_OPTIONS.keySet()) {
            assertThat(SinkOptionDefinitions.find(key)).as(key).isEmpty();
        }
    }
}
