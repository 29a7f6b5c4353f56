package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.flink.sink.v2.SinkV2Jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The exactly-once sink with {@code sink.target=doris} end to end: a MiniCluster (parallelism 2, checkpoints every
 * 200 ms) writes through Doris stream load 2PC into the emulator's Doris mode, into a DUPLICATE KEY table, so a row
 * loaded twice would show twice. Failures come from {@link FaultyExactlyOnceSink} and the emulator's faults.
 */
class DorisExactlyOnceSinkIT {
    private static final int ROWS = 600;

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    private DorisEmulator doris;

    @BeforeEach
    void start() throws Exception {
        FaultyExactlyOnceSink.reset();
        doris = DorisEmulator.builder().ddl("CREATE DATABASE eo; CREATE TABLE eo.events (id BIGINT, note "
                + "VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1").build().start();
    }

    @AfterEach
    void stop() {
        doris.close();
    }

    /** Doris connector names on purpose: fenodes, table.identifier, sink.enable-2pc, sink.label-prefix. */
    private StarRocksSinkOptions options(String prefix) {
        return options(prefix, 94_371_840);
    }

    private StarRocksSinkOptions options(String prefix, long bufferBytes) {
        return StarRocksSinkOptions.builder()
                .withProperty("sink.buffer-flush.max-bytes", String.valueOf(bufferBytes))
                .withProperty("sink.target", "doris")
                .withProperty("fenodes", doris.feHostPort())
                .withProperty("table.identifier", "eo.events")
                .withProperty("username", "root")
                .withProperty("password", "")
                .withProperty("sink.enable-2pc", "true")
                .withProperty("sink.label-prefix", prefix)
                .withProperty("sink.retry.interval-ms", "100")
                .withProperty("sink.properties.format", "json")
                .build();
    }

    private void run(StarRocksSinkOptions options, long from, long to, int restarts) throws Exception {
        ExactlyOnceJobs.run(options, from, to, restarts, 200, "doris exactly-once");
    }

    /** id → how many times it is visible in eo.events. */
    private NavigableMap<Long, Long> idCounts() {
        return ExactlyOnceJobs.idCounts(doris.query(ExactlyOnceJobs.ID_COUNTS));
    }

    private DorisTxnStatus state(CheckpointedTransaction txn) {
        return doris.labelState(txn.database(), txn.label());
    }

    @Test
    void everyRowIsCommittedExactlyOnceByLabelAfterItsCheckpoint() throws Exception {
        run(options("deo_a"), 0, ROWS, 0);

        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        List<CheckpointedTransaction> prepared = ExactlyOnceJobs.preparedExcept(-1);
        assertThat(prepared).as("one pre-committed Doris transaction per table, subtask and flush")
                .hasSizeGreaterThanOrEqualTo(2)
                .extracting(CheckpointedTransaction::label).doesNotHaveDuplicates()
                .allSatisfy(label -> assertThat(label).matches("deo_a-events-[01]-[0-9a-z]+-\\d+_\\d+"));
        assertThat(prepared).allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
    }

    @Test
    void aFailureRightAfterThePreCommitAbortsTheLingeringLabelsAndLoadsEveryRowOnce() throws Exception {
        FaultyExactlyOnceSink.FAIL_AFTER_PREPARE.set(true);

        run(options("deo_b"), 0, ROWS, 3);

        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        assertThat(failedAt).as("the failure was injected").isPositive();
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        assertThat(FaultyExactlyOnceSink.PREPARED.get(failedAt)).as("pre-committed at the failed checkpoint")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.ABORTED));
        assertThat(ExactlyOnceJobs.preparedExcept(failedAt))
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
    }

    /**
     * Each subtask gets about 50 rows (~1200 bytes) per checkpoint, more than twice the 500-byte buffer: the writer
     * blocks at the hard limit until a flush frees memory, so every checkpoint holds at least two flushes per subtask.
     */
    @Test
    void smallBuffersPreCommitSeveralTransactionsPerCheckpointAndAFailureAbortsThemAll() throws Exception {
        FaultyExactlyOnceSink.FAIL_AFTER_PREPARE.set(true);

        run(options("deo_g", 500), 0, ROWS, 3);

        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        assertThat(failedAt).as("the failure was injected").isPositive();
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        assertThat(ExactlyOnceJobs.preparedExcept(-1)).extracting(CheckpointedTransaction::label)
                .as("memory pressure flushed more than once within a checkpoint")
                .anySatisfy(label -> assertThat(label).endsWith("_2"));
        assertThat(FaultyExactlyOnceSink.PREPARED.get(failedAt)).isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.ABORTED));
        assertThat(ExactlyOnceJobs.preparedExcept(failedAt))
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
    }

    @Test
    void aFailureAfterTheCheckpointCompletedBeforeTheCommitIsCommittedByTheRestore() throws Exception {
        FaultyExactlyOnceSink.FAIL_BEFORE_COMMIT.set(true);

        run(options("deo_c"), 0, ROWS, 3);

        assertThat(FaultyExactlyOnceSink.FAILED_AT.get()).as("the failure was injected").isPositive();
        assertThat(FaultyExactlyOnceSink.DUE_AT_FAILURE).isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
    }

    @Test
    void aCommitWhoseReplyIsLostIsSettledByLabelStateAndLoadsOnce() throws Exception {
        doris.faults().dropReplyNext(FaultOp.COMMIT, 2);

        run(options("deo_d"), 0, ROWS, 0);

        assertThat(doris.faults().pending(FaultOp.COMMIT)).as("both commit replies were dropped").isZero();
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        assertThat(ExactlyOnceJobs.preparedExcept(-1))
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
    }

    @Test
    void aFailureBeforeAnyCheckpointCompletedIsCleanedUpByTheNextAttempt() throws Exception {
        FaultyExactlyOnceSink.FAIL_AT_FIRST_PREPARE.set(true);

        run(options("deo_e"), 0, ROWS, 3);

        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        assertThat(failedAt).as("the failure was injected").isPositive();
        assertThat(idCounts()).isEqualTo(ExactlyOnceJobs.eachOnce(0, ROWS));
        assertThat(FaultyExactlyOnceSink.PREPARED.get(failedAt)).as("its derived run id names the failed attempt")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.ABORTED));
    }

    @Test
    void aStatelessRestartWithTheSamePrefixStartsCleanly() throws Exception {
        FaultyExactlyOnceSink.FAIL_AFTER_PREPARE.set(true);
        assertThatThrownBy(() -> run(options("deo_f"), 0, ROWS / 2, 0))
                .as("the first job fails without restarts, leaving pre-committed transactions behind");
        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        List<CheckpointedTransaction> leftBehind = new ArrayList<>(FaultyExactlyOnceSink.PREPARED.get(failedAt));
        Map<Long, Long> firstJob = idCounts();
        FaultyExactlyOnceSink.reset();

        run(options("deo_f"), ROWS / 2, ROWS, 0);

        NavigableMap<Long, Long> counts = idCounts();
        assertThat(new TreeMap<>(counts.tailMap((long) ROWS / 2))).isEqualTo(ExactlyOnceJobs.eachOnce(ROWS / 2, ROWS));
        assertThat(counts.headMap((long) ROWS / 2)).as("the first job's committed rows, unchanged")
                .isEqualTo(firstJob).allSatisfy((id, n) -> assertThat(n).isEqualTo(1L));
        assertThat(leftBehind).as("new labels never collide with the first job's, which stay uncommitted")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.PRECOMMITTED));
    }
}
