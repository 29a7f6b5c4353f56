package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.label.ExactlyOnceLabel;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.txn.TransactionStatus;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.StreamSink;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link ExactlyOnceSinkFunction} step by step in Flink's operator test harness (no cluster) against the emulator:
 * what close and finish leave behind, asynchronous failures at the barrier, and a restore that merges two
 * subtasks' state (rescale 2 → 1).
 */
class ExactlyOnceSinkFunctionHarnessTest {
    private static final String PREFIX = "eo-h";

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE eo; CREATE TABLE eo.events (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id); "
                    + "CREATE TABLE eo.audit (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id); "
                    + "CREATE TABLE eo.late (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id)"));

    /** Options; {@code maxBytes} small makes every second row start a load before any checkpoint. */
    private StarRocksSinkOptions options(long maxBytes) {
        return options(maxBytes, "events");
    }

    private StarRocksSinkOptions options(long maxBytes, String tableName) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl().replace("http://", ""))
                .withProperty("database-name", "eo")
                .withProperty("table-name", tableName)
                .withProperty("username", "root")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.label-prefix", PREFIX)
                .withProperty("sink.max-retries", "0")
                .withProperty("sink.buffer-flush.max-bytes", String.valueOf(maxBytes))
                .withProperty("sink.properties.format", "json")
                .build();
    }

    private static OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> harness(
            ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink, int parallelism, int subtask) throws Exception {
        OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h =
                new OneInputStreamOperatorTestHarness<>(new StreamSink<>(sink), parallelism, parallelism, subtask);
        h.getStreamConfig().setCheckpointingEnabled(true);
        h.setup();
        return h;
    }

    private static StreamRecord<DefaultStarRocksRowData> row(long id) {
        return row("events", id);
    }

    private static StreamRecord<DefaultStarRocksRowData> row(String table, long id) {
        return new StreamRecord<>(new DefaultStarRocksRowData(null, "eo", table,
                "{\"id\":" + id + ",\"note\":\"n" + id + "\"}"));
    }

    private long rows() {
        return sr.emulator().rowCount("eo", "events");
    }

    private TransactionStatus state(String label) {
        return sr.emulator().labelState("eo", label);
    }

    /** The label the same run gives the table at {@code checkpointId}. */
    private static String sameRunLabel(CheckpointedTransaction txn, long checkpointId) {
        ExactlyOnceLabel parsed = new LabelGenerator(PREFIX, 0, "x").parseExactlyOnce(txn.label());
        return new LabelGenerator(PREFIX, parsed.subtaskIndex(), parsed.runId())
                .exactlyOnceLabel(txn.table(), checkpointId);
    }

    @Test
    void closeNeverFlushesAndRollsBackOnlyTheTransactionNotYetPrepared() throws Exception {
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink = new ExactlyOnceSinkFunction<>(options(40));
        var h = harness(sink, 1, 0);
        h.open();
        h.processElement(row(1));
        h.processElement(row(2));
        h.snapshot(1, 0);
        CheckpointedTransaction prepared = sink.pendingTransactions().get(0);
        String next = sameRunLabel(prepared, 2);
        h.processElement(row(3));
        h.processElement(row(4)); // over sink.buffer-flush.max-bytes: loads into the checkpoint-2 label
        await().atMost(Duration.ofSeconds(10)).until(() -> state(next) == TransactionStatus.PREPARE);
        h.processElement(row(5)); // buffered only

        h.close();

        assertThat(state(prepared.label())).as("prepared at checkpoint 1: the checkpoint settles it")
                .isEqualTo(TransactionStatus.PREPARED);
        assertThat(state(next)).as("not prepared: rolled back").isEqualTo(TransactionStatus.ABORTED);
        assertThat(rows()).isZero();
    }

    @Test
    void finishCommitsNothingTheNextCheckpointCommitsTheTail() throws Exception {
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink = new ExactlyOnceSinkFunction<>(options(1 << 20));
        var h = harness(sink, 1, 0);
        h.open();
        h.processElement(row(1));
        h.processElement(row(2));
        h.snapshot(1, 0);
        h.notifyOfCompletedCheckpoint(1);
        assertThat(rows()).isEqualTo(2);
        h.processElement(row(3));

        sink.finish();
        assertThat(rows()).as("finish() commits nothing").isEqualTo(2);

        h.snapshot(2, 0); // the final checkpoint of a bounded job
        assertThat(rows()).as("prepared, not committed").isEqualTo(2);
        h.notifyOfCompletedCheckpoint(2);
        assertThat(rows()).isEqualTo(3);
        assertThat(sink.pendingTransactions()).isEmpty();
        h.close();
    }

    @Test
    void anAsynchronousLoadFailureFailsTheNextCheckpoint() throws Exception {
        sr.emulator().faults().failNext(FaultOp.LOAD, 1, "FAILED", "too many filtered rows");
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink = new ExactlyOnceSinkFunction<>(options(40));
        var h = harness(sink, 1, 0);
        h.open();
        h.processElement(row(1));
        h.processElement(row(2)); // starts the failing load in the background

        assertThatThrownBy(() -> h.snapshot(1, 0))
                .hasStackTraceContaining("checkpoint 1 of exactly-once sink subtask 0")
                .hasStackTraceContaining("too many filtered rows")
                .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, LoadEngineException.class)).isPresent());
        assertThat(sink.pendingTransactions()).isEmpty();
        assertThatThrownBy(h::close).as("the harness calls finish(), which reports the stored failure too, as one no "
                        + "restart heals (a data error)")
                .isInstanceOf(NonRecoverableSinkFailure.class).hasMessageContaining("too many filtered rows")
                .hasStackTraceContaining("the engine failed earlier");
        assertThat(rows()).isZero();
    }

    @Test
    void aRestoreMergingTwoSubtasksCommitsBothAndRollsBackBothLingeringLabels() throws Exception {
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink0 = new ExactlyOnceSinkFunction<>(options(40));
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink1 = new ExactlyOnceSinkFunction<>(options(40));
        var h0 = harness(sink0, 2, 0);
        var h1 = harness(sink1, 2, 1);
        h0.open();
        h1.open();
        h0.processElement(row(1));
        h1.processElement(row(2));
        OperatorSubtaskState s0 = h0.snapshot(5, 0);
        OperatorSubtaskState s1 = h1.snapshot(5, 0);
        List<CheckpointedTransaction> held = List.of(sink0.pendingTransactions().get(0),
                sink1.pendingTransactions().get(0));
        // after checkpoint 5 both subtasks load and prepare more, then die before checkpoint 6 completes
        h0.processElement(row(3));
        h1.processElement(row(4));
        h0.snapshot(6, 0);
        h1.snapshot(6, 0);
        List<String> lingering = List.of(sameRunLabel(held.get(0), 6), sameRunLabel(held.get(1), 6));
        assertThat(lingering).allSatisfy(l -> assertThat(state(l)).isEqualTo(TransactionStatus.PREPARED));
        h0.close();
        h1.close();

        ExactlyOnceSinkFunction<DefaultStarRocksRowData> restoredSink = new ExactlyOnceSinkFunction<>(options(40));
        var restored = harness(restoredSink, 1, 0);
        restored.initializeState(AbstractStreamOperatorTestHarness.repackageState(s0, s1));
        restored.open();

        assertThat(held).allSatisfy(t -> assertThat(state(t.label())).isEqualTo(TransactionStatus.VISIBLE));
        assertThat(lingering).allSatisfy(l -> assertThat(state(l)).isEqualTo(TransactionStatus.ABORTED));
        assertThat(rows()).isEqualTo(2);

        restored.processElement(row(3));
        restored.processElement(row(4));
        restored.snapshot(7, 0);
        restored.notifyOfCompletedCheckpoint(7);
        assertThat(rows()).isEqualTo(4);
        restored.close();
    }

    @Test
    void routingByRowKeepsEveryWrittenTableInStateSoTheRestoreProbesThemAll() throws Exception {
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink = new ExactlyOnceSinkFunction<>(options(1 << 20, "*"));
        var h = harness(sink, 1, 0);
        h.open();
        h.processElement(row("events", 1));
        h.processElement(row("audit", 2));
        OperatorSubtaskState atOne = h.snapshot(1, 0);
        h.notifyOfCompletedCheckpoint(1);
        h.processElement(row("events", 3));
        h.processElement(row("audit", 4));
        h.snapshot(2, 0); // prepared, never completed
        List<CheckpointedTransaction> lingering = sink.pendingTransactions();
        assertThat(lingering).extracting(CheckpointedTransaction::table).containsExactlyInAnyOrder("events", "audit");
        h.close();

        var restored = harness(new ExactlyOnceSinkFunction<>(options(1 << 20, "*")), 1, 0);
        restored.initializeState(atOne);
        restored.open();

        assertThat(lingering).allSatisfy(t -> assertThat(state(t.label())).isEqualTo(TransactionStatus.ABORTED));
        assertThat(rows()).isEqualTo(1);
        assertThat(sr.emulator().rowCount("eo", "audit")).isEqualTo(1);
        restored.close();
    }

    @Test
    void aRestoreWhoseHeldTransactionTheServerExpiredFailsOnceWithoutRestarts() throws Exception {
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink = new ExactlyOnceSinkFunction<>(options(1 << 20));
        var h = harness(sink, 1, 0);
        h.open();
        h.processElement(row(1));
        OperatorSubtaskState atOne = h.snapshot(1, 0);
        CheckpointedTransaction held = sink.pendingTransactions().get(0);
        h.close(); // the task fails before the commit after checkpoint 1
        assertThat(sr.emulator().faults().forceExpire("eo", held.label())).as("expired by the server").isTrue();

        var restored = harness(new ExactlyOnceSinkFunction<>(options(1 << 20)), 1, 0);
        restored.initializeState(atOne);
        assertThatThrownBy(restored::open).as("no restore can commit it: Flink must not restart")
                .isInstanceOf(NonRecoverableSinkFailure.class)
                .hasMessageContaining(held.label())
                .hasMessageContaining("checkpoint 1")
                .hasMessageContaining("the label is ABORTED")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(rows()).isZero();
    }

    @Test
    void aFailedBarrierLeavesNoTransactionOfTablesTheStateDoesNotNameOpen() throws Exception {
        ExactlyOnceSinkFunction<DefaultStarRocksRowData> sink = new ExactlyOnceSinkFunction<>(options(40, "*"));
        var h = harness(sink, 1, 0);
        h.open();
        h.processElement(row("events", 1));
        OperatorSubtaskState atOne = h.snapshot(1, 0);
        ExactlyOnceLabel run = new LabelGenerator(PREFIX, 0, "x").parseExactlyOnce(
                sink.pendingTransactions().get(0).label());
        h.notifyOfCompletedCheckpoint(1);
        LabelGenerator labels = new LabelGenerator(PREFIX, 0, run.runId());
        String audit = labels.exactlyOnceLabel("audit", 2);
        String late = labels.exactlyOnceLabel("late", 2);
        // epoch 2 writes only tables the checkpoint-1 state does not name; audit begins first
        h.processElement(row("audit", 2));
        h.processElement(row("audit", 3));
        await().atMost(Duration.ofSeconds(10)).until(() -> state(audit) == TransactionStatus.PREPARE);
        h.processElement(row("late", 4));
        h.processElement(row("late", 5));
        await().atMost(Duration.ofSeconds(10)).until(() -> state(late) == TransactionStatus.PREPARE);
        OpHold auditPrepare = sr.emulator().faults().hold(FaultOp.PREPARE);

        CompletableFuture<?> barrier = CompletableFuture.runAsync(() -> {
            try {
                h.snapshot(2, 0);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(auditPrepare.awaitArrived(10, TimeUnit.SECONDS)).isTrue();
        sr.emulator().faults().failNext(FaultOp.PREPARE, 1, "INTERNAL_ERROR", "injected prepare failure");
        auditPrepare.release(); // audit is PREPARED, late's prepare fails
        assertThatThrownBy(() -> barrier.get(10, TimeUnit.SECONDS)).hasStackTraceContaining("injected prepare "
                + "failure");
        assertThat(sr.emulator().faults().pending(FaultOp.PREPARE)).isZero();
        assertThatThrownBy(h::close).as("finish() reports the engine's failure")
                .hasStackTraceContaining("injected prepare failure");

        var restored = harness(new ExactlyOnceSinkFunction<>(options(40, "*")), 1, 0);
        restored.initializeState(atOne);
        restored.open();

        assertThat(state(audit)).as("prepared by the failed barrier").isEqualTo(TransactionStatus.ABORTED);
        assertThat(state(late)).as("its prepare failed").isEqualTo(TransactionStatus.ABORTED);
        assertThat(sr.emulator().runningTransactions("eo")).as("running-transaction slots held").isZero();
        restored.close();
    }
}
