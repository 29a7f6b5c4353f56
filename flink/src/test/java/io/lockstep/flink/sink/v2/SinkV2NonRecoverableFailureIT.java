package io.lockstep.flink.sink.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A password the target refuses (HTTP 401), or a commit it refuses for a privilege, can never heal: the Sink V2 writers
 * and the exactly-once committer fail the job at once, with no restart, although the restart strategy allows five.
 * The same source runs on Flink 1.20 and 2.x.
 */
class SinkV2NonRecoverableFailureIT {
    private static final int RESTARTS_ALLOWED = 5;

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder()
            .user("root", "secret")
            .ddl("CREATE DATABASE al; CREATE TABLE al.events (id BIGINT NOT NULL, note VARCHAR(20)) PRIMARY KEY (id);"
                    + "CREATE DATABASE shop;"
                    + "CREATE TABLE shop.orders (order_id BIGINT NOT NULL, source_partition INT, status VARCHAR(32))"
                    + " PRIMARY KEY (order_id);"
                    + "CREATE TABLE shop.order_items (order_id BIGINT NOT NULL, line_no INT NOT NULL, "
                    + "sku VARCHAR(64), quantity INT) PRIMARY KEY (order_id, line_no);"));

    /** Runs the job to its failure and returns it; the attempts its subtasks started are in {@code ATTEMPTS}. */
    private Throwable failure(String key, SinkV2Jobs.RowShape shape, boolean keyed, StarRocksSinkOptions options) {
        return failure(key, shape, keyed, options, 3_600_000, 1_000);
    }

    /** As above, checkpointing every {@code checkpointMs}, {@code perCheckpoint} source transactions apart. */
    private Throwable failure(String key, SinkV2Jobs.RowShape shape, boolean keyed, StarRocksSinkOptions options,
                              long checkpointMs, int perCheckpoint) {
        SinkV2Jobs.reset(key);
        StreamExecutionEnvironment env = SinkV2Jobs.env(checkpointMs, RESTARTS_ALLOWED);
        DataStream<DefaultStarRocksRowData> rows = SinkV2Jobs.numbers(env, 1_000, perCheckpoint)
                .map(new SinkV2Jobs.AttemptRecorder<>(key)).setParallelism(1)
                .flatMap(new SinkV2Jobs.TransactionRows(key, -1, shape))
                .returns(TypeInformation.of(DefaultStarRocksRowData.class)).setParallelism(1);
        (keyed ? rows.keyBy(DefaultStarRocksRowData::getSourcePartition) : rows)
                .sinkTo(LockstepSinks.createSink(options)).name("lockstep sink v2");
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> env.execute(key)).satisfies(e -> thrown[0] = e);
        return thrown[0];
    }

    @Test
    void aRefusedPasswordFailsTheSingleTableWriterWithoutRestarts() {
        Throwable failure = failure("v2-401-al", SinkV2Jobs.singleRow("al", "events"), false,
                SinkV2Jobs.refusedPassword(sr.emulator(), "al", "events", "v2401al").build());

        assertThat(SinkV2Jobs.ATTEMPTS.get("v2-401-al")).as("attempts started").isEqualTo(Set.of(0));
        assertThat(ExceptionUtils.findThrowable(failure, NonRecoverableSinkFailure.class)).get()
                .extracting(Throwable::getMessage).asString().contains("ACCESS_DENIED").contains("events");
    }

    @Test
    void aRefusedPasswordFailsTheMultiTableWriterWithoutRestarts() {
        Throwable failure = failure("v2-401-mt", SinkV2Jobs.order(2, 1), true,
                SinkV2Jobs.refusedPassword(sr.emulator(), "*", "*", "v2401mt")
                        .withProperty("sink.transaction.multi-table.enabled", "true").build());

        assertThat(SinkV2Jobs.ATTEMPTS.get("v2-401-mt")).as("attempts started").isEqualTo(Set.of(0));
        assertThat(ExceptionUtils.findThrowable(failure, NonRecoverableSinkFailure.class)).get()
                .extracting(Throwable::getMessage).asString().contains("ACCESS_DENIED");
    }

    @Test
    void aRefusedCommitFailsTheExactlyOnceCommitterWithoutRestarts() {
        SinkV2Jobs.refuseCommits(sr.emulator());
        Throwable failure = failure("v2-401-eo", SinkV2Jobs.singleRow("al", "events"), false,
                SinkV2Jobs.options(sr.emulator(), "al", "events", "v2401eo", "secret")
                        .withProperty("sink.semantic", "exactly-once").build(), 200, 100);

        assertThat(sr.emulator().faults().pending(FaultOp.COMMIT)).as("refused commits sent")
                .isLessThan(SinkV2Jobs.REFUSED_COMMITS);
        assertThat(SinkV2Jobs.ATTEMPTS.get("v2-401-eo")).as("attempts started").isEqualTo(Set.of(0));
        assertThat(ExceptionUtils.findThrowable(failure, NonRecoverableSinkFailure.class)).get()
                .extracting(Throwable::getMessage).asString().contains("ACCESS_DENIED").contains("commit");
    }
}
