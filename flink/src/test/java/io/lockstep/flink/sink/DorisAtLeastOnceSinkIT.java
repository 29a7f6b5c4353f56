package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.flink.sink.v2.SinkV2Jobs;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The at-least-once sink with {@code sink.target=doris} (plain Doris stream loads, one per table and flush, labels
 * kept on retries, unclear outcomes settled by label state) on a MiniCluster against the emulator's Doris mode.
 */
class DorisAtLeastOnceSinkIT {
    private static final int ROWS = 600;
    private static final int BATCH = 100;

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    /** Fails once right after a checkpoint's flush committed, after a first checkpoint: its rows are replayed. */
    static final class FailAfterFlushSink extends AtLeastOnceSinkFunction<DefaultStarRocksRowData> {
        private static final long serialVersionUID = 1L;
        static final AtomicBoolean ARMED = new AtomicBoolean();
        static final AtomicLong FAILED_AT = new AtomicLong(-1);

        FailAfterFlushSink(StarRocksSinkOptions options) {
            super(options);
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            super.snapshotState(context);
            if (context.getCheckpointId() >= 3 && ARMED.compareAndSet(true, false)) {
                FAILED_AT.set(context.getCheckpointId());
                throw new IllegalStateException("injected failure after the flush of checkpoint "
                        + context.getCheckpointId());
            }
        }
    }

    private DorisEmulator doris;

    @BeforeEach
    void start() throws Exception {
        FailAfterFlushSink.ARMED.set(false);
        FailAfterFlushSink.FAILED_AT.set(-1);
        doris = DorisEmulator.builder().ddl("CREATE DATABASE alo; "
                + "CREATE TABLE alo.events (id BIGINT NOT NULL, note VARCHAR(20)) UNIQUE KEY(id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 1; "
                + "CREATE TABLE alo.log (id BIGINT, note VARCHAR(20)) DUPLICATE KEY(id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 1").build().start();
    }

    @AfterEach
    void stop() {
        doris.close();
    }

    private StarRocksSinkOptions options(String table) {
        return StarRocksSinkOptions.builder()
                .withProperty("sink.target", "doris")
                .withProperty("load-url", doris.feHostPort())
                .withProperty("database-name", "alo")
                .withProperty("table-name", table)
                .withProperty("username", "root")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.buffer-flush.interval-ms", "100000")
                .withProperty("sink.retry.interval-ms", "100")
                .withProperty("sink.label-prefix", "dalo")
                .withProperty("sink.properties.format", "json")
                .build();
    }

    private void run(String table, int restarts) throws Exception {
        StreamExecutionEnvironment env = SinkV2Jobs.env(200, restarts);
        env.addSource(new CheckpointPacedSource("alo", table, 0, ROWS, BATCH))
                .returns(TypeInformation.of(DefaultStarRocksRowData.class))
                .setParallelism(1)
                .rebalance()
                .addSink(new FailAfterFlushSink(options(table)))
                .name("doris at-least-once sink");
        env.execute("doris at-least-once IT");
    }

    private long scalar(String sql) {
        List<List<Object>> rows = doris.query(sql).rows();
        return ((Number) rows.get(0).get(0)).longValue();
    }

    @Test
    void aReplayAfterAFailureLandsOnceOnAUniqueKeyTable() throws Exception {
        FailAfterFlushSink.ARMED.set(true);

        run("events", 3);

        assertThat(FailAfterFlushSink.FAILED_AT.get()).as("the failure was injected").isPositive();
        assertThat(scalar("SELECT COUNT(*) FROM alo.events")).isEqualTo(ROWS);
        assertThat(scalar("SELECT COUNT(DISTINCT id) FROM alo.events")).isEqualTo(ROWS);
        assertThat(scalar("SELECT COUNT(*) FROM alo.events WHERE note <> CONCAT('n', CAST(id AS VARCHAR))"))
                .as("every key holds its row's value").isZero();
    }

    @Test
    void aLoadWhoseReplyIsLostIsSettledByItsLabelAndLoadsOnce() throws Exception {
        doris.faults().dropReplyNext(FaultOp.STREAM_LOAD, 2);

        run("log", 0);

        assertThat(doris.faults().pending(FaultOp.STREAM_LOAD)).as("both replies were dropped").isZero();
        assertThat(scalar("SELECT COUNT(*) FROM alo.log")).as("a DUPLICATE KEY table shows no second copy")
                .isEqualTo(ROWS);
        assertThat(scalar("SELECT COUNT(DISTINCT id) FROM alo.log")).isEqualTo(ROWS);
    }
}
