package io.lockstep.app.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.core.server.Target;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.sink.ExactlyOnceSinkFunction;
import io.lockstep.flink.sink.LockstepSinkFunction;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The job's small pieces: partition routing, failure lines, sink options from the CLI settings. */
class JobPiecesTest {

    @Test
    void consecutivePartitionsSpreadOverTheSinkSubtasks() {
        SourcePartitionRouting routing = new SourcePartitionRouting();
        assertThat(routing.partition(0, 2)).isZero();
        assertThat(routing.partition(1, 2)).isEqualTo(1);
        assertThat(routing.partition(2, 2)).isZero();
        assertThat(routing.partition(5, 3)).isEqualTo(2);
        assertThat(routing.partition(-1, 2)).as("refused by the sink, on subtask 0").isZero();
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "d", "t", "{}");
        row.setSourcePartition(7);
        assertThat(routing.getKey(row)).isEqualTo(7);
    }

    @Test
    void aJobFailureIsDescribedByLockstepsOwnCause() {
        BadSourceEventException bad = new BadSourceEventException("topic 't' partition 1 offset 42", "malformed JSON");
        RuntimeException flink = new RuntimeException("Job execution failed.",
                new IllegalStateException("Recovery is suppressed", bad));
        assertThat(JobFailures.describe(new CompletionException(flink)))
                .isEqualTo("BadSourceEventException: topic 't' partition 1 offset 42: malformed JSON");
    }

    @Test
    void withoutALockstepCauseTheRootCauseIsDescribed() {
        RuntimeException failure = new RuntimeException("outer", new IllegalStateException("root cause"));
        assertThat(JobFailures.describe(failure)).isEqualTo("IllegalStateException: root cause");
    }

    @Test
    void sinkOptionsAreTheMultiTableSinksWithExtrasAppliedLast() {
        PipelineConfig config = new PipelineConfig("k:9092", "t", "g", new Properties(), false, CdcFormat.MAXWELL,
                Map.of(), "fe1:8030;fe2:8030", null, "shop", null, UnknownTableMode.FAIL, "loader", "secret",
                "orders_job", 2, 10_000, 2_000, 3, 1_000, AssemblerOptions.defaults(),
                Map.of("sink.properties.timeout", "900"));
        SinkConfig options = LockstepPipeline.sinkOptions(config);
        assertThat(options.isMultiTableTransactionEnabled()).isTrue();
        assertThat(options.getLoadUrls()).hasSize(2);
        assertThat(options.getDatabaseName()).isEqualTo("*");
        assertThat(options.getTableName()).isEqualTo("*");
        assertThat(options.getUsername()).isEqualTo("loader");
        assertThat(options.getLabelPrefix()).isEqualTo("orders_job");
        assertThat(options.getBufferFlushIntervalMs()).isEqualTo(2_000);
        assertThat(options.getStreamLoadTimeoutSeconds()).as("an extra sink option").isEqualTo(900);
        assertThat(config.toString()).doesNotContain("secret");
    }

    @Test
    void dorisSinkOptionsArePerTableExactlyOnceWithTheDeleteSignReadAndExtrasAppliedLast() {
        PipelineConfig config = new PipelineConfig("k:9092", "t", "g", new Properties(), false, CdcFormat.DEBEZIUM,
                Map.of(), "fe1:8030;fe2:8030", null, "shop", null, UnknownTableMode.FAIL, "loader", "secret", null, 2,
                10_000, 2_000, 3, 1_000, AssemblerOptions.defaults(), Map.of("sink.properties.timeout", "900"),
                Target.DORIS);
        SinkConfig options = LockstepPipeline.sinkOptions(config);
        assertThat(options.getTarget()).isEqualTo(Target.DORIS);
        assertThat(options.isMultiTableTransactionEnabled()).as("Doris has no multi-table transaction").isFalse();
        assertThat(options.getSemantic()).isEqualTo(SinkSemantic.EXACTLY_ONCE);
        assertThat(options.getDatabaseName()).isEqualTo("*");
        assertThat(options.getTableName()).isEqualTo("*");
        assertThat(options.getStreamLoadProperties())
                .containsEntry("hidden_columns", DorisDeleteSign.DELETE_SIGN_COLUMN)
                .containsEntry("format", "json");
        assertThat(options.getStreamLoadTimeoutSeconds()).as("an extra sink option").isEqualTo(900);
        assertThat(config.toString()).contains("target=doris").doesNotContain("secret");
        assertThat(LockstepSinkFunction.create(options)).as("the sink the job adds")
                .isInstanceOf(ExactlyOnceSinkFunction.class);
    }

    @Test
    void theOldConstructorMeansStarRocks() {
        PipelineConfig config = new PipelineConfig("k:9092", "t", "g", new Properties(), false, CdcFormat.MAXWELL,
                Map.of(), "fe:8030", null, "shop", null, UnknownTableMode.FAIL, "root", "", null, 1, 10_000, 2_000,
                3, 1_000, AssemblerOptions.defaults(), Map.of());
        assertThat(config.target()).isEqualTo(Target.STARROCKS);
    }
}
