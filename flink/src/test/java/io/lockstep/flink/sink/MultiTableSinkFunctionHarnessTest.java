package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.fault.TcpForwarder;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.StreamSink;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MultiTableSinkFunction} at-least-once in Flink's operator test harness (no cluster) against the emulator, with
 * every FE made unreachable through a {@link TcpForwarder}: the failed run's close cannot roll back its shared
 * transaction, and the run restored from the checkpoint finds it through the union list state and rolls it back,
 * also after a rescale 2 → 1.
 */
class MultiTableSinkFunctionHarnessTest {
    private static final String PREFIX = "mt-h";
    private static final int MAX_PARALLELISM = 4;

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE rel; CREATE TABLE rel.orders (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id); "
                    + "CREATE TABLE rel.items (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id)"));

    private final List<TcpForwarder> forwarders = new ArrayList<>();

    @AfterEach
    void closeForwarders() {
        forwarders.forEach(TcpForwarder::close);
    }

    /** At-least-once multi-table options loading through {@code loadUrl}; commits only at checkpoints. */
    private static StarRocksSinkOptions options(String loadUrl) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", loadUrl)
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "300000")
                .withProperty("sink.label-prefix", PREFIX)
                .withProperty("sink.max-retries", "0")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true")
                .build();
    }

    private String direct() {
        return sr.emulator().feUrl().replace("http://", "");
    }

    private String throughForwarder() throws Exception {
        TcpForwarder forwarder = TcpForwarder.inFrontOf(sr.emulator().feUrl());
        forwarders.add(forwarder);
        return forwarder.address();
    }

    private static OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> harness(
            MultiTableSinkFunction<DefaultStarRocksRowData> sink, int parallelism, int subtask) throws Exception {
        OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h =
                new OneInputStreamOperatorTestHarness<>(new StreamSink<>(sink), MAX_PARALLELISM, parallelism, subtask);
        h.getStreamConfig().setCheckpointingEnabled(true);
        h.setup();
        return h;
    }

    /** One source transaction of partition {@code partition}: a row into orders and one into items, then its end. */
    private static void transaction(OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h,
                                    int partition, long id) throws Exception {
        h.processElement(row(partition, "orders", id, false));
        h.processElement(row(partition, "items", id, true));
    }

    private static StreamRecord<DefaultStarRocksRowData> row(int partition, String table, long id, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "rel", table,
                "{\"id\":" + id + ",\"note\":\"n" + id + "\"}");
        row.setSourcePartition(partition);
        row.setTransactionEnd(end);
        return new StreamRecord<>(row);
    }

    private List<TransactionSnapshot> open() {
        return sr.emulator().transactions("rel").stream()
                .filter(t -> t.status() == TransactionStatus.PREPARE || t.status() == TransactionStatus.PREPARED)
                .toList();
    }

    /**
     * Runs one subtask until its checkpoint 1 committed a transaction and a later shared transaction holds loaded
     * rows, then makes every FE unreachable and closes it: its rollback cannot reach a FE.
     *
     * @return the checkpoint-1 state of the subtask and the label it left open
     */
    private Failed failAfterCheckpoint(int parallelism, int subtask, int partition) throws Exception {
        String loadUrl = throughForwarder();
        TcpForwarder forwarder = forwarders.get(forwarders.size() - 1);
        MultiTableSinkFunction<DefaultStarRocksRowData> sink = new MultiTableSinkFunction<>(options(loadUrl));
        var h = harness(sink, parallelism, subtask);
        h.open();
        transaction(h, partition, partition * 100L + 1);
        OperatorSubtaskState checkpoint = h.snapshot(1, 0);
        assertThat(sr.emulator().rowCount("rel", "orders")).as("checkpoint 1 committed").isPositive();
        List<String> before = open().stream().map(TransactionSnapshot::label).toList();
        // the next shared transaction opens and takes one load; it is held at the BE (after the FE's redirect), the
        // FE is cut, then the load completes: no request of the run is between the FE and the client at the cut
        OpHold load = sr.emulator().faults().hold(FaultOp.LOAD);
        h.processElement(row(partition, "orders", partition * 100L + 2, true));
        assertThat(load.awaitArrived(20, TimeUnit.SECONDS)).as("the load of the next shared transaction").isTrue();
        String left = open().stream().map(TransactionSnapshot::label)
                .filter(l -> !before.contains(l) && l.startsWith(PREFIX + "-" + subtask + "-")).findFirst().get();
        forwarder.cut();
        load.release();
        // the load (to the BE, which stays reachable) completes; a close that cut it off would make the server abort
        await().atMost(Duration.ofSeconds(20)).until(() -> sink.runtime().bufferedBytes() == 0);

        sink.close(); // a failed task's close (no finish): rolls back within its bound, but no FE answers

        assertThat(sr.emulator().labelState("rel", left)).as("close could not roll back %s", left)
                .isEqualTo(TransactionStatus.PREPARE);
        return new Failed(checkpoint, left);
    }

    private record Failed(OperatorSubtaskState checkpoint, String openLabel) {
        String runBase() {
            return openLabel.substring(0, openLabel.lastIndexOf("-m") + 2);
        }
    }

    private void assertNothingOpenOf(Failed failed) {
        assertThat(sr.emulator().transactions("rel"))
                .filteredOn(t -> t.label().startsWith(failed.runBase()))
                .as("transactions of the failed run %s", failed.runBase())
                .isNotEmpty()
                .allSatisfy(t -> assertThat(t.status()).isIn(TransactionStatus.VISIBLE, TransactionStatus.ABORTED));
        assertThat(sr.emulator().labelState("rel", failed.openLabel())).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void theRestoredRunRollsBackTheSharedTransactionTheFailedRunLeftOpen() throws Exception {
        Failed failed = failAfterCheckpoint(1, 0, 0);

        var restored = harness(new MultiTableSinkFunction<>(options(direct())), 1, 0);
        restored.initializeState(failed.checkpoint());
        restored.open();

        assertNothingOpenOf(failed);
        assertThat(open()).as("nothing open at all after the restored open").isEmpty();
        transaction(restored, 0, 3); // the replay loads as usual
        restored.snapshot(2, 0);
        assertThat(sr.emulator().rowCount("rel", "orders")).isEqualTo(2);
        restored.close();
    }

    @Test
    void afterARescaleTwoToOneTheOneSubtaskRollsBackWhatBothEarlierSubtasksLeftOpen() throws Exception {
        Failed first = failAfterCheckpoint(2, 0, 0);
        Failed second = failAfterCheckpoint(2, 1, 1);
        OperatorSubtaskState both = AbstractStreamOperatorTestHarness.repackageState(first.checkpoint(),
                second.checkpoint());
        OperatorSubtaskState forOne = AbstractStreamOperatorTestHarness.repartitionOperatorState(both, MAX_PARALLELISM, 2, 1, 0);

        var restored = harness(new MultiTableSinkFunction<>(options(direct())), 1, 0);
        restored.initializeState(forOne);
        restored.open();

        assertNothingOpenOf(first);
        assertNothingOpenOf(second);
        assertThat(open()).isEmpty();
        restored.close();
    }

    @Test
    void afterARescaleOneToTwoEachEarlierRunIsSettledByOneSubtask() throws Exception {
        Failed failed = failAfterCheckpoint(1, 0, 0);
        OperatorSubtaskState forSecond = AbstractStreamOperatorTestHarness.repartitionOperatorState(
                failed.checkpoint(), MAX_PARALLELISM, 1, 2, 1);

        var second = harness(new MultiTableSinkFunction<>(options(direct())), 2, 1);
        second.initializeState(forSecond);
        second.open();
        assertThat(sr.emulator().labelState("rel", failed.openLabel())).as("subtask 1 of 2 leaves run 0 to subtask 0")
                .isEqualTo(TransactionStatus.PREPARE);
        second.close();

        OperatorSubtaskState forFirst = AbstractStreamOperatorTestHarness.repartitionOperatorState(
                failed.checkpoint(), MAX_PARALLELISM, 1, 2, 0);
        var first = harness(new MultiTableSinkFunction<>(options(direct())), 2, 0);
        first.initializeState(forFirst);
        first.open();
        assertNothingOpenOf(failed);
        first.close();
    }
}
