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

/** Single-table modes on a manual clock, a fake client and a manual I/O executor. */
class SingleTableLoadEngineTest {
    private final ManualTicker clock = new ManualTicker(EngineFixture.T0);
    private final FakeTransactionClient client = new FakeTransactionClient();
    private final ManualExecutor io = new ManualExecutor();
    private final LabelGenerator labels = new LabelGenerator("s", 0, "r1");
    private SingleTableLoadEngine engine;

    private SingleTableLoadEngine engine(DeliverySemantic semantic, long restored,
                                         Consumer<LoadEngineConfig.Builder> tweak) {
        LoadEngineConfig.Builder b = LoadEngineConfig.builder().labelPrefix("s").runId("r1").commitIntervalMs(1000)
                .bufferSizeBytes(1 << 20);
        tweak.accept(b);
        engine = new SingleTableLoadEngine(b.build(), client, new InMemoryLoadMetrics(), semantic, restored, clock,
                io);
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
    void atLeastOnceRollsBackATransactionWhoseCommitIsGivenUp() throws Exception {
        engine(DeliverySemantic.AT_LEAST_ONCE, 0, b -> {
        });
        client.failOnce(FakeTransactionClient.op("commit"), "FAILED", "commit failed after 4 attempt(s): lock timeout");
        engine.write("db", "orders", row("o1"));
        CompletableFuture<List<PreparedTransaction>> done = engine.requestFlush();
        drive();

        assertThat(done).isCompletedExceptionally();
        String label = client.calls("commit").get(0).label();
        assertThat(client.calls("rollback")).extracting(FakeTransactionClient.Call::label).containsExactly(label);
        assertThat(client.state(label)).isEqualTo(LabelState.ABORTED);
    }

    @Test
    void atLeastOnceFlushBeginsLoadsPreparesAndCommitsEachTable() throws Exception {
        engine(DeliverySemantic.AT_LEAST_ONCE, 0, b -> {
        });
        engine.write("db", "orders", row("o1"));
        engine.write("db", "orders", row("o2"));
        engine.write("other", "events", row("e1"));
        CompletableFuture<List<PreparedTransaction>> done = engine.requestFlush();
        drive();
        assertThat(done).isCompletedWithValue(List.of());
        String orders = labels.atLeastOnceLabel("orders", 1);
        String events = labels.atLeastOnceLabel("events", 2);
        assertThat(client.calls()).extracting(FakeTransactionClient.Call::toString).containsSubsequence(
                "begin(" + orders + ", orders)", "load(" + orders + ", orders)", "prepare(" + orders + ", orders)",
                "commit(" + orders + ", orders)");
        assertThat(client.calls()).extracting(FakeTransactionClient.Call::toString).containsSubsequence(
                "begin(" + events + ", events)", "load(" + events + ", events)", "prepare(" + events + ", events)",
                "commit(" + events + ", events)");
        assertThat(client.committedRows("orders")).containsExactly(rowText("o1"), rowText("o2"));
        assertThat(client.committedRows("events")).containsExactly(rowText("e1"));
        assertThat(engine.bufferedBytes()).isZero();
    }

    @Test
    void atLeastOnceCommitsOnTheTimer() throws Exception {
        engine(DeliverySemantic.AT_LEAST_ONCE, 0, b -> {
        });
        drive(); // the cycle starts at T0
        engine.write("db", "orders", row("o1"));
        clock.advanceMs(999);
        drive();
        assertThat(client.calls("commit")).isEmpty();
        clock.advanceMs(1);
        drive();
        assertThat(client.committedRows("orders")).containsExactly(rowText("o1"));
    }

    @Test
    void exactlyOncePreparesAtTheCheckpointAndCommitsByLabelLater() throws Exception {
        engine(DeliverySemantic.EXACTLY_ONCE, 4, b -> {
        });
        engine.write("db", "orders", row("o1"));
        engine.write("db", "items", row("i1"));
        CompletableFuture<List<PreparedTransaction>> prepared = engine.requestPrepare(5);
        drive();
        assertThat(prepared).isCompleted();
        List<PreparedTransaction> txns = prepared.join();
        assertThat(txns).containsExactlyInAnyOrder(
                new PreparedTransaction("db", "orders", labels.exactlyOnceLabel("orders", 5)),
                new PreparedTransaction("db", "items", labels.exactlyOnceLabel("items", 5)));
        assertThat(client.state(labels.exactlyOnceLabel("orders", 5))).isEqualTo(LabelState.PREPARED);
        assertThat(client.calls("commit")).isEmpty();

        engine.write("db", "orders", row("o2")); // belongs to the next checkpoint
        CompletableFuture<Void> committed = engine.requestCommit(txns);
        drive();
        assertThat(committed).isCompleted();
        assertThat(client.committedRows("orders")).containsExactly(rowText("o1"));
        assertThat(client.committedRows("items")).containsExactly(rowText("i1"));

        CompletableFuture<List<PreparedTransaction>> next = engine.requestPrepare(6);
        drive();
        assertThat(next.join()).containsExactly(
                new PreparedTransaction("db", "orders", labels.exactlyOnceLabel("orders", 6)));
        assertThat(labels.parseExactlyOnce(next.join().get(0).label()).checkpointId()).isEqualTo(6);
    }

    @Test
    void exactlyOnceAbortRollsBackByLabel() throws Exception {
        engine(DeliverySemantic.EXACTLY_ONCE, 0, b -> {
        });
        engine.write("db", "orders", row("o1"));
        CompletableFuture<List<PreparedTransaction>> prepared = engine.requestPrepare(1);
        drive();
        CompletableFuture<Void> aborted = engine.requestAbort(prepared.join());
        drive();
        assertThat(aborted).isCompleted();
        assertThat(client.state(labels.exactlyOnceLabel("orders", 1))).isEqualTo(LabelState.ABORTED);
        assertThat(client.committedRows("orders")).isEmpty();
    }

    @Test
    void checkpointIdsMustIncrease() {
        engine(DeliverySemantic.EXACTLY_ONCE, 7, b -> {
        });
        assertThatThrownBy(() -> engine.requestPrepare(7)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("checkpoint id 7");
        SingleTableLoadEngine alo = new SingleTableLoadEngine(LoadEngineConfig.builder().build(), client,
                new InMemoryLoadMetrics(), DeliverySemantic.AT_LEAST_ONCE, 0, clock, io);
        assertThatThrownBy(() -> alo.requestPrepare(1)).isInstanceOf(IllegalStateException.class);
        alo.close();
        assertThatThrownBy(() -> engine.requestFlush()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("prepare(checkpointId)");
    }

    @Test
    void memoryPressureStreamsLoadsBeforeTheCheckpointOneInFlightPerTable() throws Exception {
        engine(DeliverySemantic.EXACTLY_ONCE, 0, b -> b.bufferSizeBytes(30));
        engine.write("db", "orders", row("o1")); // 11 bytes
        engine.write("db", "orders", row("o2"));
        engine.write("db", "orders", row("o3")); // 33 bytes: past the soft limit
        engine.runOnce(clock.nowMs());
        assertThat(io.pending()).isEqualTo(1);
        engine.write("db", "orders", row("o4"));
        engine.runOnce(clock.nowMs());
        assertThat(io.pending()).as("one load in flight per table").isEqualTo(1);
        drive();
        assertThat(client.calls("load")).hasSize(2);
        assertThat(client.calls("load")).extracting(FakeTransactionClient.Call::label)
                .containsOnly(labels.exactlyOnceLabel("orders", 1));
        assertThat(client.calls("prepare")).isEmpty();
        CompletableFuture<List<PreparedTransaction>> prepared = engine.requestPrepare(1);
        drive();
        assertThat(prepared.join()).hasSize(1);
        assertThat(engine.bufferedBytes()).isZero();
    }

    @Test
    void loadFailureFailsThePrepareAndTheNextWrite() throws Exception {
        engine(DeliverySemantic.EXACTLY_ONCE, 0, b -> {
        });
        client.failOnce(FakeTransactionClient.load("orders"), "FAILED", "too many filtered rows");
        engine.write("db", "orders", row("o1"));
        CompletableFuture<List<PreparedTransaction>> prepared = engine.requestPrepare(1);
        drive();
        assertThat(prepared).isCompletedExceptionally();
        assertThat(client.calls("prepare")).isEmpty();
        assertThat(client.calls("rollback")).hasSize(1);
        assertThatThrownBy(() -> engine.write("db", "orders", row("o2"))).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("too many filtered rows").hasMessageContaining("db.orders");
        assertThat(engine.state()).isEqualTo(TableFlushState.FAILED);
    }

    @Test
    void commitFailureOfAPreparedLabelFailsTheEngine() throws Exception {
        engine(DeliverySemantic.EXACTLY_ONCE, 0, b -> {
        });
        engine.write("db", "orders", row("o1"));
        CompletableFuture<List<PreparedTransaction>> prepared = engine.requestPrepare(1);
        drive();
        client.failOnce(FakeTransactionClient.op("commit"), "FAILED", "label ended ABORTED");
        CompletableFuture<Void> committed = engine.requestCommit(prepared.join());
        drive();
        assertThat(committed).isCompletedExceptionally();
        assertThatThrownBy(engine::checkFailure).hasMessageContaining("label ended ABORTED")
                .hasMessageContaining(labels.exactlyOnceLabel("orders", 1));
    }

    @Test
    void closeRollsBackUnpreparedTransactionsButNotPreparedOnes() throws Exception {
        engine(DeliverySemantic.EXACTLY_ONCE, 0, b -> b.bufferSizeBytes(10));
        engine.write("db", "orders", row("o1"));
        CompletableFuture<List<PreparedTransaction>> prepared = engine.requestPrepare(1);
        drive();
        engine.write("db", "orders", row("o2")); // pressure: loaded into the checkpoint-2 transaction
        drive();
        engine.write("db", "items", row("i1")); // still buffered
        engine.close();
        assertThat(client.calls("rollback")).extracting(FakeTransactionClient.Call::label)
                .containsExactly(labels.exactlyOnceLabel("orders", 2));
        assertThat(client.state(prepared.join().get(0).label())).isEqualTo(LabelState.PREPARED);
        assertThat(engine.bufferedBytes()).isZero();
        assertThat(engine.state()).isEqualTo(TableFlushState.CLOSED);
    }
}
