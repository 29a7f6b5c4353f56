package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.exactlyonce.CheckpointedTransaction;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.fault.FaultOp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
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
    private static final int BATCH = 100;

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

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
        StreamExecutionEnvironment env = CheckpointedJobEnvironment.create(restarts, 200);
        env.addSource(new CheckpointPacedSource("eo", "events", from, to, BATCH))
                .returns(TypeInformation.of(DefaultStarRocksRowData.class))
                .setParallelism(1)
                .rebalance()
                .addSink(new FaultyExactlyOnceSink(options))
                .name("doris exactly-once sink");
        env.execute("doris exactly-once IT");
    }

    /** id → how many times it is visible in eo.events. */
    private NavigableMap<Long, Long> idCounts() {
        NavigableMap<Long, Long> counts = new TreeMap<>();
        for (List<Object> row : doris.query("SELECT id, COUNT(*) FROM eo.events GROUP BY id").rows()) {
            counts.put(((Number) row.get(0)).longValue(), ((Number) row.get(1)).longValue());
        }
        return counts;
    }

    private static Map<Long, Long> eachOnce(long from, long to) {
        Map<Long, Long> expected = new TreeMap<>();
        for (long id = from; id < to; id++) {
            expected.put(id, 1L);
        }
        return expected;
    }

    private DorisTxnStatus state(CheckpointedTransaction txn) {
        return doris.labelState(txn.database(), txn.label());
    }

    private static List<CheckpointedTransaction> preparedExcept(long checkpointId) {
        List<CheckpointedTransaction> all = new ArrayList<>();
        FaultyExactlyOnceSink.PREPARED.forEach((id, txns) -> {
            if (id != checkpointId) {
                all.addAll(txns);
            }
        });
        return all;
    }

    @Test
    void everyRowIsCommittedExactlyOnceByLabelAfterItsCheckpoint() throws Exception {
        run(options("deo_a"), 0, ROWS, 0);

        assertThat(idCounts()).isEqualTo(eachOnce(0, ROWS));
        List<CheckpointedTransaction> prepared = preparedExcept(-1);
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
        assertThat(idCounts()).isEqualTo(eachOnce(0, ROWS));
        assertThat(FaultyExactlyOnceSink.PREPARED.get(failedAt)).as("pre-committed at the failed checkpoint")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.ABORTED));
        assertThat(preparedExcept(failedAt))
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
        assertThat(idCounts()).isEqualTo(eachOnce(0, ROWS));
        assertThat(preparedExcept(-1)).extracting(CheckpointedTransaction::label)
                .as("memory pressure flushed more than once within a checkpoint")
                .anySatisfy(label -> assertThat(label).endsWith("_2"));
        assertThat(FaultyExactlyOnceSink.PREPARED.get(failedAt)).isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.ABORTED));
        assertThat(preparedExcept(failedAt))
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
    }

    @Test
    void aFailureAfterTheCheckpointCompletedBeforeTheCommitIsCommittedByTheRestore() throws Exception {
        FaultyExactlyOnceSink.FAIL_BEFORE_COMMIT.set(true);

        run(options("deo_c"), 0, ROWS, 3);

        assertThat(FaultyExactlyOnceSink.FAILED_AT.get()).as("the failure was injected").isPositive();
        assertThat(FaultyExactlyOnceSink.DUE_AT_FAILURE).isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
        assertThat(idCounts()).isEqualTo(eachOnce(0, ROWS));
    }

    @Test
    void aCommitWhoseReplyIsLostIsSettledByLabelStateAndLoadsOnce() throws Exception {
        doris.faults().dropReplyNext(FaultOp.COMMIT, 2);

        run(options("deo_d"), 0, ROWS, 0);

        assertThat(doris.faults().pending(FaultOp.COMMIT)).as("both commit replies were dropped").isZero();
        assertThat(idCounts()).isEqualTo(eachOnce(0, ROWS));
        assertThat(preparedExcept(-1))
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.VISIBLE));
    }

    @Test
    void aFailureBeforeAnyCheckpointCompletedIsCleanedUpByTheNextAttempt() throws Exception {
        FaultyExactlyOnceSink.FAIL_AT_FIRST_PREPARE.set(true);

        run(options("deo_e"), 0, ROWS, 3);

        long failedAt = FaultyExactlyOnceSink.FAILED_AT.get();
        assertThat(failedAt).as("the failure was injected").isPositive();
        assertThat(idCounts()).isEqualTo(eachOnce(0, ROWS));
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
        assertThat(new TreeMap<>(counts.tailMap((long) ROWS / 2))).isEqualTo(eachOnce(ROWS / 2, ROWS));
        assertThat(counts.headMap((long) ROWS / 2)).as("the first job's committed rows, unchanged")
                .isEqualTo(firstJob).allSatisfy((id, n) -> assertThat(n).isEqualTo(1L));
        assertThat(leftBehind).as("new labels never collide with the first job's, which stay uncommitted")
                .isNotEmpty()
                .allSatisfy(t -> assertThat(state(t)).as(t.label()).isEqualTo(DorisTxnStatus.PRECOMMITTED));
    }
}
