package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.SinkFunctionFactory;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.progress.AnotherWriterException;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-table sink in exactly-once mode on a MiniCluster against the emulator: the commit timer makes source
 * transactions visible between checkpoints, then a task failure, a restore from an older savepoint or retained
 * checkpoint at a higher parallelism, or a second job with the same job id. Replays of committed transactions must be dropped: the DUPLICATE
 * KEY {@code order_log} would show any of them twice.
 */
class MultiTableExactlyOnceIT {
    private static final String DDL = "CREATE DATABASE shop;"
            + "CREATE TABLE shop.orders (order_id BIGINT NOT NULL, version INT) PRIMARY KEY (order_id) "
            + "DISTRIBUTED BY HASH(order_id);"
            + "CREATE TABLE shop.order_log (order_id BIGINT NOT NULL, note VARCHAR(32)) DUPLICATE KEY (order_id) "
            + "DISTRIBUTED BY HASH(order_id);"
            + new ProgressTable("shop", ProgressTable.DEFAULT_NAME).createTableSql();
    /** Four partitions spread over both sink subtasks at parallelism 2 (0..3 would all land on one). */
    private static final int[] PARTITIONS = ShopSinkJobs.spreadPartitions(4);
    private static final Map<String, AtomicBoolean> FAILED = new ConcurrentHashMap<>();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(6)
            .setConfiguration(new Configuration().set(RestartStrategyOptions.RESTART_STRATEGY, "none")).build());

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(DDL));

    private JobClient job;
    private JobClient other;

    @AfterEach
    void stopJobs() throws Exception {
        for (JobClient j : new JobClient[] {job, other}) {
            if (j != null && !j.getJobStatus().get().isGloballyTerminalState()) {
                j.cancel().get();
            }
        }
    }

    private StarRocksSinkOptions options(String jobId) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl())
                .withProperty("database-name", "shop")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.transaction.multi-table.job-id", jobId)
                .withProperty("sink.buffer-flush.interval-ms", "150")
                .withProperty("sink.label-prefix", "eoit")
                .withProperty("sink.properties.format", "json")
                .build();
    }

    /** Fails the job once, when transaction {@code failAt} passes (the static flag survives the restart). */
    private static final class FailOnce implements MapFunction<DefaultStarRocksRowData, DefaultStarRocksRowData> {
        private static final long serialVersionUID = 1L;
        private final String key;
        private final long failAt;

        FailOnce(String key, long failAt) {
            this.key = key;
            this.failAt = failAt;
        }

        @Override
        public DefaultStarRocksRowData map(DefaultStarRocksRowData row) {
            if (row.getSourcePosition() == failAt && FAILED.get(key).compareAndSet(false, true)) {
                throw new IllegalStateException("injected task failure at source transaction " + failAt);
            }
            return row;
        }
    }

    private StreamGraph graph(PositionedOrderSource source, String jobId, int sinkParallelism, long checkpointMs,
                              int restarts, FailOnce fail) {
        return graph(source, jobId, sinkParallelism, checkpointMs, restarts, fail, null);
    }

    /** @param checkpointDir where checkpoints are written and kept after a cancel, or null for the default */
    @SuppressWarnings("deprecation")
    private StreamGraph graph(PositionedOrderSource source, String jobId, int sinkParallelism, long checkpointMs,
                              int restarts, FailOnce fail, Path checkpointDir) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(sinkParallelism);
        env.enableCheckpointing(checkpointMs);
        Configuration conf = new Configuration();
        if (checkpointDir != null) {
            conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toUri().toString());
            conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        }
        if (restarts > 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        env.configure(conf);
        var rows = env.addSource(source, "orders").uid("orders-source").setParallelism(1);
        if (fail != null) {
            rows = rows.map(fail).uid("fail-once").setParallelism(1);
        }
        rows.keyBy(DefaultStarRocksRowData::getSourcePartition)
                .addSink(SinkFunctionFactory.createSinkFunction(options(jobId))).uid("starrocks").name("starrocks");
        return env.getStreamGraph();
    }

    private JobClient start(StreamGraph graph) throws Exception {
        return StreamExecutionEnvironment.getExecutionEnvironment().executeAsync(graph);
    }

    private long scalar(String sql) {
        return ((Number) sr.emulator().query(sql).rows().get(0).get(0)).longValue();
    }

    private void assertExactlyOnce(long transactions) {
        assertThat(scalar("SELECT COUNT(*) FROM shop.orders")).isEqualTo(transactions);
        assertThat(scalar("SELECT COUNT(*) FROM shop.order_log")).as("no replayed transaction loaded twice")
                .isEqualTo(transactions);
        assertThat(scalar("SELECT COUNT(DISTINCT order_id) FROM shop.order_log")).as("none lost").isEqualTo(
                transactions);
        assertThat(scalar("SELECT MAX(position) FROM shop.lockstep_progress WHERE source = '"
                + PositionedOrderSource.SOURCE + "'")).isEqualTo(transactions - 1);
    }

    @Test
    void aTaskFailureMidStreamReplaysNothingTwiceAndLosesNothing() throws Exception {
        String key = "failure-" + System.nanoTime();
        FAILED.put(key, new AtomicBoolean());
        // checkpoints are rare, commits frequent: the replay after the failure re-sends committed transactions
        job = start(graph(new PositionedOrderSource(key, PARTITIONS, 300, 2), "it-failure", 2, 2_000, 1,
                new FailOnce(key, 200)));
        job.getJobExecutionResult().get(120, TimeUnit.SECONDS);

        assertThat(FAILED.get(key).get()).as("the failure was injected").isTrue();
        assertThat(PositionedOrderSource.emitted(key)).as("the restart replayed transactions").isGreaterThan(300);
        assertExactlyOnce(300);
    }

    /** Takes a snapshot of the running job and returns the path to restore it from. */
    private interface Snapshot {
        String take(JobClient running) throws Exception;
    }

    @Test
    void aRestoreFromAnOlderSavepointAtHigherParallelismDropsWhatWasCommittedSince(@TempDir Path dir)
            throws Exception {
        rescaleFromAnOlderSnapshot("savepoint", null, running -> running.triggerSavepoint(dir.toUri().toString(),
                SavepointFormatType.CANONICAL).get(60, TimeUnit.SECONDS));
    }

    @Test
    void aRescaleFromAnOlderRetainedCheckpointDropsWhatWasCommittedSince(
            @TempDir Path dir, @InjectMiniCluster MiniCluster cluster) throws Exception {
        // the checkpoint interval is long: the only checkpoint of the first job is the one triggered here, so the
        // transactions the commit timer makes visible afterwards are not covered by it
        rescaleFromAnOlderSnapshot("checkpoint", dir, running -> cluster.triggerCheckpoint(running.getJobID())
                .get(60, TimeUnit.SECONDS));
    }

    /**
     * Runs a job at parallelism 2, snapshots it, lets the commit timer make more transactions visible, cancels it
     * and restores the snapshot at parallelism 3: the transactions committed after the snapshot are replayed by the
     * source and must be dropped, the rest loaded once.
     */
    private void rescaleFromAnOlderSnapshot(String kind, Path checkpointDir, Snapshot snapshot) throws Exception {
        String key = "rescale-" + kind + "-" + System.nanoTime();
        String jobId = "it-rescale-" + kind;
        // the first job emits slowly (the snapshot must fall mid-stream), stops at 300 and idles, so it is still
        // running when the test cancels it
        job = start(graph(new PositionedOrderSource(key, PARTITIONS, 400, 20, 300), jobId, 2, 600_000, 0,
                null, checkpointDir));
        // every sink subtask is open once both have committed (the partitions spread over both)
        await().atMost(Duration.ofSeconds(60)).until(() -> scalar("SELECT COUNT(DISTINCT run_id) FROM "
                + "shop.lockstep_progress WHERE source = '" + PositionedOrderSource.SOURCE + "'") == 2
                && scalar("SELECT COUNT(*) FROM shop.order_log") >= 100);
        String path = snapshot.take(job);
        long coveredBySnapshot = scalar("SELECT COUNT(*) FROM shop.order_log");
        // the commit timer makes more transactions visible after the snapshot
        await().atMost(Duration.ofSeconds(60)).until(() -> scalar("SELECT COUNT(*) FROM shop.order_log")
                >= PositionedOrderSource.emitted(key) - 20 && PositionedOrderSource.emitted(key) >= 200);
        job.cancel().get();
        long visibleBefore = scalar("SELECT COUNT(*) FROM shop.order_log");

        StreamGraph rescaled = graph(new PositionedOrderSource(key, PARTITIONS, 400, 0), jobId, 3, 600_000, 0,
                null, checkpointDir);
        rescaled.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(path, false));
        job = start(rescaled);
        job.getJobExecutionResult().get(120, TimeUnit.SECONDS);

        assertThat(visibleBefore).as("transactions committed after the " + kind).isGreaterThan(coveredBySnapshot);
        assertThat(PositionedOrderSource.emitted(key)).as("the restored source replayed committed transactions")
                .isGreaterThan(400 - visibleBefore);
        assertExactlyOnce(400);
    }

    @Test
    void aSecondJobWithTheSameJobIdIsRefused() throws Exception {
        String key = "second-" + System.nanoTime();
        job = start(graph(new PositionedOrderSource(key, PARTITIONS, 1_000_000, 5), "it-shared", 2, 60_000, 0, null));
        await().atMost(Duration.ofSeconds(60)).until(() -> scalar("SELECT COUNT(*) FROM shop.order_log") > 20);

        other = start(graph(new PositionedOrderSource(key + "-b", PARTITIONS, 1_000_000, 5), "it-shared", 2, 60_000,
                0, null));
        Throwable failure = null;
        try {
            other.getJobExecutionResult().get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            failure = e;
        }
        assertThat(failure).as("the second job fails").isNotNull();
        assertThat(ExceptionUtils.findThrowable(failure, AnotherWriterException.class)).get()
                .extracting(Throwable::getMessage).asString()
                .contains("job id it-shared", "another job with the same sink.transaction.multi-table.job-id");
    }
}
