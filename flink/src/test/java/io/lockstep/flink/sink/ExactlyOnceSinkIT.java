package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.txn.TransactionStatus;
import io.lockstep.flink.sink.v2.SinkV2Jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The exactly-once sink end to end: a MiniCluster (parallelism 2, checkpoints every 200 ms) writes into the in-JVM
 * emulator's DUPLICATE KEY table, so a row loaded twice would show twice. The source is bounded and checkpointed
 * ({@link CheckpointPacedSource}); the job's final checkpoint commits the tail. Failures come from
 * {@link FaultyExactlyOnceSink}.
 */
class ExactlyOnceSinkIT {
    private static final int ROWS = 600;

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE eo; CREATE TABLE eo.events (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id)"));

    @BeforeEach
    void resetFaults() {
        FaultyExactlyOnceSink.reset();
    }

    private StarRocksSinkOptions options(String prefix, int timeoutSeconds) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl().replace("http://", ""))
                .withProperty("database-name", "eo")
                .withProperty("table-name", "events")
                .withProperty("username", "root")
                .withProperty("password", "")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.label-prefix", prefix)
                .withProperty("sink.buffer-flush.interval-ms", "200")
                .withProperty("sink.retry.interval-ms", "100")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true")
                .withProperty("sink.properties.timeout", String.valueOf(timeoutSeconds))
                .build();
    }

    /** Runs one job: rows {@code [from, to)} through the faulty sink; {@code restarts} fixed-delay attempts. */
    private void run(StarRocksSinkOptions options, long from, long to, int restarts, long checkpointIntervalMs)
            throws Exception {
        ExactlyOnceJobs.run(options, from, to, restarts, checkpointIntervalMs, "exactly-once");
    }

    /** id → how many times it is visible in eo.events. */
    private NavigableMap<Long, Long> idCounts() {
        return ExactlyOnceJobs.idCounts(sr.emulator().query(ExactlyOnceJobs.ID_COUNTS));
    }

    private TransactionStatus state(CheckpointedTransaction txn) {
        return sr.emulator().labelState(txn.database(), txn.label());
    }

    @Test
    void happyPathCommitsEveryRowExactlyOnceIncludingTheTailAtTheFinalCheckpoint() throws Exception {
        run(options("eo-a", 600), 0, ROWS, 0, 200);

        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        List<CheckpointedTransaction> prepared = ExactlyOnceJobs.preparedExcept(-1);
        assertThat(prepared).as("one label per table, subtask and checkpoint").hasSizeGreaterThanOrEqualTo(2)
                .extracting(CheckpointedTransaction::label).doesNotHaveDuplicates();
        assertThat(prepared).allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(TransactionStatus.VISIBLE));
        assertThat(sr.emulator().liveLoadContexts()).as("no transaction left open").isZero();
    }

    @Test
    void failureRightAfterPrepareRestartsRollsBackTheLingeringLabelsAndLoadsEveryRowOnce() throws Exception {
        FaultyExactlyOnceSink.FAIL_AFTER_PREPARE.set(true);

        run(options("eo-b", 600), 0, ROWS, 3, 200);

        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        assertThat(failedAt).as("the failure was injected").isPositive();
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        assertThat(FaultyExactlyOnceSink.PREPARED.get(failedAt)).as("prepared at the failed checkpoint")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(TransactionStatus.ABORTED));
        assertThat(ExactlyOnceJobs.preparedExcept(failedAt))
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(TransactionStatus.VISIBLE));
    }

    @Test
    void failureAfterTheCheckpointCompletedBeforeTheCommitIsCommittedByTheRestore() throws Exception {
        FaultyExactlyOnceSink.FAIL_BEFORE_COMMIT.set(true);

        run(options("eo-c", 600), 0, ROWS, 3, 200);

        assertThat(FaultyExactlyOnceSink.FAILED_AT.get()).as("the failure was injected").isPositive();
        assertThat(FaultyExactlyOnceSink.DUE_AT_FAILURE).isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(TransactionStatus.VISIBLE));
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
    }

    @Test
    void failureBeforeAnyCheckpointCompletedIsCleanedUpByTheNextAttempt() throws Exception {
        FaultyExactlyOnceSink.FAIL_AT_FIRST_PREPARE.set(true);

        run(options("eo-f", 600), 0, ROWS, 3, 200);

        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        assertThat(failedAt).as("the failure was injected").isPositive();
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        assertThat(FaultyExactlyOnceSink.PREPARED.get(failedAt))
                .as("no state names the failed attempt; its derived run id does")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(TransactionStatus.ABORTED));
        assertThat(ExactlyOnceJobs.preparedExcept(failedAt))
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(TransactionStatus.VISIBLE));
    }

    @Test
    void aStatelessJobWithTheSamePrefixStartsCleanlyBesideAFailedOnesLabels() throws Exception {
        FaultyExactlyOnceSink.FAIL_AFTER_PREPARE.set(true);
        assertThatThrownBy(() -> run(options("eo-d", 600), 0, ROWS / 2, 0, 200))
                .as("the first job fails without restarts, leaving prepared transactions behind");
        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        List<CheckpointedTransaction> leftBehind = new ArrayList<>(FaultyExactlyOnceSink.PREPARED.get(failedAt));
        Map<Long, Long> firstJob = idCounts();
        FaultyExactlyOnceSink.reset();

        run(options("eo-d", 600), ROWS / 2, ROWS, 0, 200);

        NavigableMap<Long, Long> counts = idCounts();
        Map<Long, Long> secondJob = new TreeMap<>(counts.tailMap((long) ROWS / 2));
        assertThat(secondJob).isEqualTo(ExactlyOnceJobs.eachOnce(ROWS / 2, ROWS));
        assertThat(counts.headMap((long) ROWS / 2)).as("the first job's committed rows, unchanged")
                .isEqualTo(firstJob).allSatisfy((id, n) -> assertThat(n).isEqualTo(1L));
        assertThat(leftBehind).as("a stateless start cannot name another run's labels and leaves them alone")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(TransactionStatus.PREPARED));
    }

    @Test
    void aTransactionTimeoutNotAboveTheCheckpointIntervalFailsTheStartNamingTheOption() {
        assertThatThrownBy(() -> run(options("eo-e", 1), 0, ExactlyOnceJobs.BATCH, 0, 2_000))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("'sink.properties.timeout' = '1'")
                        .contains("checkpoint interval (2000 ms)"));
        assertThat(idCounts()).isEmpty();
    }
}
