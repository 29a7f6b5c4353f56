package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.flink.sink.v2.SinkV2Jobs;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A password the target refuses (HTTP 401), or a commit it refuses for a privilege, can never heal: the SinkFunction
 * sinks fail the job at once, with no restart, although the restart strategy allows five.
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
class SinkFunctionNonRecoverableFailureIT {
    private static final int RESTARTS_ALLOWED = 5;

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder()
            .user("root", "secret")
            .ddl("CREATE DATABASE al; CREATE TABLE al.events (id BIGINT NOT NULL, note VARCHAR(20)) PRIMARY KEY (id);"));

    /**
     * Runs 1,000 one-row source transactions (source partition {@code n % 2}) into {@code sink} until the job fails,
     * and returns the failure; the attempts its subtasks started are in {@code SinkV2Jobs.ATTEMPTS}.
     */
    private static Throwable failure(String key, SinkFunction<DefaultStarRocksRowData> sink) {
        return failure(key, sink, 3_600_000, 1_000);
    }

    /** As {@link #failure(String, SinkFunction)}, checkpointing every {@code checkpointMs}, n per checkpoint. */
    private static Throwable failure(String key, SinkFunction<DefaultStarRocksRowData> sink, long checkpointMs,
                                     int perCheckpoint) {
        SinkV2Jobs.reset(key);
        StreamExecutionEnvironment env = SinkV2Jobs.env(checkpointMs, RESTARTS_ALLOWED);
        DataStream<DefaultStarRocksRowData> rows = SinkV2Jobs.numbers(env, 1_000, perCheckpoint)
                .map(new SinkV2Jobs.AttemptRecorder<>(key)).setParallelism(1)
                .map(n -> {
                    DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "al", "events",
                            "{\"id\":" + n + ",\"note\":\"n" + n + "\"}");
                    row.setSourcePartition((int) (n % 2));
                    row.setTransactionEnd(true);
                    return row;
                }).returns(TypeInformation.of(DefaultStarRocksRowData.class)).setParallelism(1);
        rows.keyBy(DefaultStarRocksRowData::getSourcePartition).addSink(sink).name("lockstep sink function");
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> env.execute(key)).satisfies(e -> thrown[0] = e);
        return thrown[0];
    }

    @Test
    void aRefusedPasswordFailsTheAtLeastOnceSinkFunctionWithoutRestarts() {
        Throwable failure = failure("sf-401-al", new AtLeastOnceSinkFunction<>(SinkV2Jobs.refusedPassword(
                sr.emulator(), "al", "events", "sf401al").build()));

        assertThat(SinkV2Jobs.ATTEMPTS.get("sf-401-al")).as("attempts started").isEqualTo(Set.of(0));
        assertThat(ExceptionUtils.findThrowable(failure, NonRecoverableSinkFailure.class)).get()
                .extracting(Throwable::getMessage).asString().contains("ACCESS_DENIED").contains("events");
    }

    @Test
    void aRefusedPasswordFailsTheMultiTableSinkFunctionWithoutRestarts() {
        Throwable failure = failure("sf-401-mt", new MultiTableSinkFunction<>(SinkV2Jobs.refusedPassword(
                sr.emulator(), "al", "events", "sf401mt").withProperty("sink.transaction.multi-table.enabled", "true")
                .build()));

        assertThat(SinkV2Jobs.ATTEMPTS.get("sf-401-mt")).as("attempts started").isEqualTo(Set.of(0));
        assertThat(ExceptionUtils.findThrowable(failure, NonRecoverableSinkFailure.class)).get()
                .extracting(Throwable::getMessage).asString().contains("ACCESS_DENIED");
    }

    @Test
    void aRefusedCommitFailsTheExactlyOnceSinkFunctionWithoutRestarts() {
        SinkV2Jobs.refuseCommits(sr.emulator());
        Throwable failure = failure("sf-401-eo", new ExactlyOnceSinkFunction<>(SinkV2Jobs.options(sr.emulator(),
                "al", "events", "sf401eo", "secret").withProperty("sink.semantic", "exactly-once").build()), 200, 100);

        assertThat(sr.emulator().faults().pending(FaultOp.COMMIT)).as("refused commits sent")
                .isLessThan(SinkV2Jobs.REFUSED_COMMITS);
        assertThat(SinkV2Jobs.ATTEMPTS.get("sf-401-eo")).as("attempts started").isEqualTo(Set.of(0));
        assertThat(ExceptionUtils.findThrowable(failure, NonRecoverableSinkFailure.class)).get()
                .extracting(Throwable::getMessage).asString().contains("ACCESS_DENIED").contains("commit");
    }
}
