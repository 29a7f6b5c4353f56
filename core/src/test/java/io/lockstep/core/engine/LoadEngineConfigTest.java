package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

class LoadEngineConfigTest {
    @Test
    void defaultsAreTheDocumentedOnes() {
        LoadEngineConfig c = LoadEngineConfig.builder().build();
        assertThat(c.bufferSizeBytes()).isEqualTo(134_217_728L);
        assertThat(c.hardLimitBytes()).isEqualTo(2 * 134_217_728L);
        assertThat(c.serverTimeoutSeconds()).isEqualTo(600);
        assertThat(c.recycleAfterMs()).isEqualTo(480_000);
        assertThat(c.commitIntervalMs()).isEqualTo(1000);
        assertThat(c.miniIntervalMs()).isEqualTo(100);
        assertThat(c.labelPrefix()).isEqualTo("lockstep");
        assertThat(c.runId()).matches("[0-9a-z]+");
        assertThat(c.loadPropertiesFor("db", "t")).containsOnly(Map.entry("format", "json"),
                Map.entry("strip_outer_array", "true"));
    }

    @Test
    void commitIntervalMustStayBelowTheRecycleTime() {
        assertThatThrownBy(() -> LoadEngineConfig.builder().serverTimeoutSeconds(10).commitIntervalMs(8000).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("commitIntervalMs (8000)").hasMessageContaining("serverTimeoutSeconds (10 s)");
    }

    @Test
    void nonJsonLoadPropertiesAreRejectedNamingTheTable() {
        assertThatThrownBy(() -> LoadEngineConfig.builder()
                .tableLoadProperties("db", "orders", Map.of("format", "csv")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("db.orders")
                .hasMessageContaining("format=csv");
        assertThatThrownBy(() -> LoadEngineConfig.builder().loadProperty("strip_outer_array", "false").build())
                .hasMessageContaining("strip_outer_array=false");
    }

    @Test
    void badValuesNameTheSetting() {
        assertThatThrownBy(() -> LoadEngineConfig.builder().bufferSizeBytes(0).build())
                .hasMessageContaining("bufferSizeBytes");
        assertThatThrownBy(() -> LoadEngineConfig.builder().labelPrefix("a.b").build())
                .hasMessageContaining("'a.b'");
        assertThatThrownBy(() -> LoadEngineConfig.builder().database(" ").build()).hasMessageContaining("database");
    }
}
