package io.lockstep.app.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.core.server.Target;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.sink.SinkSettings;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@code lockstep run}'s typed sink configuration means what its option strings meant. */
class PipelineSinkConfigTest {

    /** The options {@code LockstepPipeline.sinkOptions} set as strings before it built a typed configuration. */
    private static StarRocksSinkOptions asStrings(PipelineConfig config) {
        StarRocksSinkOptions.Builder builder = StarRocksSinkOptions.builder()
                .withProperty("load-url", config.loadUrl())
                .withProperty("database-name", ExactlyOnceAcrossTables.enabled(config) ? config.database() : "*")
                .withProperty("table-name", "*")
                .withProperty("username", config.username())
                .withProperty("password", config.password())
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.buffer-flush.interval-ms", Long.toString(config.commitIntervalMs()));
        if (config.target() == Target.DORIS) {
            builder.withProperty("sink.target", "doris").withProperty("sink.semantic", "exactly-once")
                    .withProperty("sink.properties.hidden_columns", "__DORIS_DELETE_SIGN__");
        } else {
            builder.withProperty("sink.version", "V2").withProperty("sink.transaction.multi-table.enabled", "true");
        }
        if (config.jdbcUrl() != null) {
            builder.withProperty("jdbc-url", config.jdbcUrl());
        }
        if (config.labelPrefix() != null) {
            builder.withProperty("sink.label-prefix", config.labelPrefix());
        }
        if (config.semantic() != null) { // lockstep run gave --semantic and --job-id as these two options
            builder.withProperty("sink.semantic", config.semantic().optionValue());
        }
        if (config.jobId() != null) {
            builder.withProperty("sink.transaction.multi-table.job-id", config.jobId());
        }
        config.sinkProperties().forEach(builder::withProperty);
        return builder.build();
    }

    private static PipelineConfig config(Target target, String jdbcUrl, String labelPrefix,
            Map<String, String> sinkProperties) {
        return new PipelineConfig("k:9092", "t", "g", new Properties(), false, CdcFormat.DEBEZIUM, Map.of(),
                "fe1:8030;fe2:8030", jdbcUrl, "shop", null, UnknownTableMode.FAIL, "loader", "secret", labelPrefix, 2,
                10_000, 2_000, 3, 1_000, AssemblerOptions.defaults(), sinkProperties, target);
    }

    @Test
    void typedConfigEqualsTheStringOptionsAndMapsToTheSameCoreSettings() {
        for (PipelineConfig config : new PipelineConfig[] {
                config(Target.STARROCKS, null, null, Map.of()).withSemantic(DeliverySemantic.AT_LEAST_ONCE, null),
                config(Target.STARROCKS, "jdbc:mysql://fe1:9030", "orders_job", Map.of("sink.properties.timeout",
                        "900")).withSemantic(DeliverySemantic.EXACTLY_ONCE, "orders"),
                config(Target.DORIS, null, "orders_job", Map.of("sink.max-retries", "7"))}) {
            SinkConfig typed = LockstepPipeline.sinkOptions(config);
            StarRocksSinkOptions strings = asStrings(config);

            assertThat(typed).as(config.target() + " " + config.sinkProperties()).isEqualTo(strings.sinkConfig());
            SinkSettings fromTyped = SinkSettings.from(typed);
            SinkSettings fromStrings = SinkSettings.from(strings);
            assertThat(fromTyped.clientConfig()).usingRecursiveComparison().isEqualTo(fromStrings.clientConfig());
            assertThat(fromTyped.engineConfig(1, "r1")).usingRecursiveComparison()
                    .isEqualTo(fromStrings.engineConfig(1, "r1"));
            assertThat(fromTyped.target()).isEqualTo(config.target());
        }
    }
}
