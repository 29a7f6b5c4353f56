package io.lockstep.core.engine;

import static io.lockstep.core.engine.EngineFixture.row;
import static io.lockstep.core.engine.EngineFixture.rowText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.time.ManualTicker;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The single-table engine with {@link LoadMethod#TWO_PHASE_STREAM_LOAD} (Doris: one load per transaction, held
 * pre-committed), on a manual clock, a fake client and a manual executor.
 */
class SingleTableTwoPhaseLoadTest {
    private final ManualTicker clock = new ManualTicker(EngineFixture.T0);
    private final FakeTransactionClient client = new FakeTransactionClient();
    private final ManualExecutor io = new ManualExecutor();
    private final LabelGenerator labels = new LabelGenerator("d", 0, "r1");
    private SingleTableLoadEngine engine;

    private SingleTableLoadEngine engine(long restoredCheckpointId, Consumer<LoadEngineConfig.Builder> tweak) {
        LoadEngineConfig.Builder b = LoadEngineConfig.builder().labelPrefix("d").runId("r1").commitIntervalMs(1000)
                .bufferSizeBytes(1 << 20).loadMethod(LoadMethod.TWO_PHASE_STREAM_LOAD).serverTimeoutSeconds(600);
        tweak.accept(b);
        engine = new SingleTableLoadEngine(b.build(), client, new InMemoryLoadMetrics(),
                DeliverySemantic.EXACTLY_ONCE, restoredCheckpointId, clock, io);
        return engine;
    }

    private void drive() {
        engine.runOnce(clock.nowMs());
        while (io.runAll() > 0) {
            engine.runOnce(clock.nowMs());
        }
    }

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void theBarrierSendsOneLoadPerTableUnderItsCheckpointLabelAndNoPrepare() throws Exception {
        engine(4, b -> {
        });
        engine.write("db", "orders", row("o1"));
        engine.write("db", "orders", row("o2"));
        engine.write("db", "events", row("e1"));
        clock.advanceMs(10_000);
        drive();
        assertThat(client.calls("load")).as("nothing loads before a cut, whatever the timer").isEmpty();

        CompletableFuture<List<PreparedTransaction>> done = engine.requestPrepare(5);
        drive();

        assertThat(done).isCompletedWithValue(List.of(
                new PreparedTransaction("db", "orders", labels.exactlyOnceFlushLabel("orders", 5, 1)),
                new PreparedTransaction("db", "events", labels.exactlyOnceFlushLabel("events", 5, 1))));
        assertThat(client.calls("load")).hasSize(2);
        assertThat(client.calls("load").get(0).body()).isEqualTo("[" + rowText("o1") + "," + rowText("o2") + "]");
        assertThat(client.calls("prepare")).as("the load pre-commits by itself").isEmpty();
        assertThat(client.calls("commit")).isEmpty();
        assertThat(engine.bufferedBytes()).isZero();

        engine.requestCommit(done.get());
        drive();
        assertThat(client.committedRows("orders")).containsExactly(rowText("o1"), rowText("o2"));
        assertThat(client.state(labels.exactlyOnceFlushLabel("events", 5, 1))).isEqualTo(LabelState.VISIBLE);
    }

    @Test
    void memoryPressureFlushesAreTheirOwnTransactionsHandedOutAtTheBarrier() throws Exception {
        engine(0, b -> b.bufferSizeBytes(20));
        engine.write("db", "orders", row("o1"));
        engine.write("db", "orders", row("o2"));
        drive();
        assertThat(client.calls("load")).as("past the soft limit a flush starts").hasSize(1);
        assertThat(client.calls("load").get(0).label()).isEqualTo(labels.exactlyOnceFlushLabel("orders", 1, 1));
        assertThat(client.calls("commit")).as("nothing commits before the checkpoint").isEmpty();

        engine.write("db", "orders", row("o3"));
        CompletableFuture<List<PreparedTransaction>> done = engine.requestPrepare(1);
        drive();

        assertThat(done).isCompletedWithValue(List.of(
                new PreparedTransaction("db", "orders", labels.exactlyOnceFlushLabel("orders", 1, 1)),
                new PreparedTransaction("db", "orders", labels.exactlyOnceFlushLabel("orders", 1, 2))));

        engine.write("db", "orders", row("o4"));
        CompletableFuture<List<PreparedTransaction>> next = engine.requestPrepare(2);
        drive();
        assertThat(next).isCompletedWithValue(List.of(
                new PreparedTransaction("db", "orders", labels.exactlyOnceFlushLabel("orders", 2, 1))));
    }

    @Test
    void aFailedLoadAbortsTheEpochsPreCommittedTransactionsAndFailsTheBarrier() throws Exception {
        engine(0, b -> b.bufferSizeBytes(20));
        engine.write("db", "orders", row("o1"));
        engine.write("db", "orders", row("o2"));
        drive();
        String pressureLabel = labels.exactlyOnceFlushLabel("orders", 1, 1);
        assertThat(client.state(pressureLabel)).isIn(LabelState.PREPARE, LabelState.PREPARED);

        client.failOnce(FakeTransactionClient.load("orders"), "Fail", "[DATA_QUALITY_ERROR]too many filtered rows");
        engine.write("db", "orders", row("o3"));
        CompletableFuture<List<PreparedTransaction>> done = engine.requestPrepare(1);
        drive();

        assertThat(done).isCompletedExceptionally();
        assertThat(client.state(pressureLabel)).as("never handed to Flink: aborted").isEqualTo(LabelState.ABORTED);
        assertThatThrownBy(() -> engine.write("db", "orders", row("o4")))
                .hasMessageContaining("too many filtered rows");
    }

    @Test
    void closeAbortsWhatTheEpochPreCommittedButNotWhatABarrierHandedOut() throws Exception {
        engine(0, b -> b.bufferSizeBytes(20));
        engine.write("db", "orders", row("o1"));
        CompletableFuture<List<PreparedTransaction>> done = engine.requestPrepare(1);
        drive();
        String handedOut = done.get().get(0).label();
        engine.write("db", "orders", row("o2"));
        engine.write("db", "orders", row("o3"));
        drive();
        String pending = labels.exactlyOnceFlushLabel("orders", 2, 1);
        assertThat(client.calls("load")).extracting(FakeTransactionClient.Call::label).contains(pending);

        engine.close();

        assertThat(client.state(pending)).isEqualTo(LabelState.ABORTED);
        assertThat(client.state(handedOut)).isNotEqualTo(LabelState.ABORTED);
    }

    @Test
    void twoPhaseLoadIsExactlyOnceOnly() {
        LoadEngineConfig config = LoadEngineConfig.builder().loadMethod(LoadMethod.TWO_PHASE_STREAM_LOAD).build();
        assertThatThrownBy(() -> new SingleTableLoadEngine(config, client, new InMemoryLoadMetrics(),
                DeliverySemantic.AT_LEAST_ONCE, 0, clock, io))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EXACTLY_ONCE only");
    }
}
