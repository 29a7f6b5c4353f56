package io.lockstep.core.engine;

import static io.lockstep.core.engine.EngineFixture.row;
import static io.lockstep.core.engine.EngineFixture.rowText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.time.ManualTicker;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The single-table engine with {@link LoadMethod#CLASSIC}, on a manual clock, a fake loader and a manual executor. */
class SingleTableClassicLoadTest {
    private final ManualTicker clock = new ManualTicker(EngineFixture.T0);
    private final FakeStreamLoader loader = new FakeStreamLoader();
    private final ManualExecutor io = new ManualExecutor();
    private final LabelGenerator labels = new LabelGenerator("s", 0, "r1");
    private SingleTableLoadEngine engine;

    private SingleTableLoadEngine engine(Consumer<LoadEngineConfig.Builder> tweak) {
        LoadEngineConfig.Builder b = LoadEngineConfig.builder().labelPrefix("s").runId("r1").commitIntervalMs(1000)
                .bufferSizeBytes(1 << 20).loadMethod(LoadMethod.CLASSIC);
        tweak.accept(b);
        engine = new SingleTableLoadEngine(b.build(), loader, new InMemoryLoadMetrics(),
                DeliverySemantic.AT_LEAST_ONCE, clock, io);
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
    void flushSendsOneClassicLoadPerTableWithAllItsRowsUnderFreshLabels() throws Exception {
        engine(b -> {
        });
        engine.write("db", "orders", row("o1"));
        engine.write("db", "orders", row("o2"));
        engine.write("other", "events", row("e1"));
        engine.write("db", "orders", row("o3"));
        CompletableFuture<List<PreparedTransaction>> done = engine.requestFlush();
        drive();
        assertThat(done).isCompletedWithValue(List.of());
        assertThat(loader.loads()).containsExactlyInAnyOrder(
                new FakeStreamLoader.Load("db", "orders", labels.classicLabel("orders", 1),
                        "[" + rowText("o1") + "," + rowText("o2") + "," + rowText("o3") + "]",
                        LoadEngineConfig.builder().build().loadPropertiesFor("db", "orders")),
                new FakeStreamLoader.Load("other", "events", labels.classicLabel("events", 2),
                        "[" + rowText("e1") + "]",
                        LoadEngineConfig.builder().build().loadPropertiesFor("other", "events")));
        assertThat(engine.bufferedBytes()).isZero();
        assertThat(engine.state()).isEqualTo(TableFlushState.ACCEPTING);

        engine.write("db", "orders", row("o4"));
        CompletableFuture<List<PreparedTransaction>> second = engine.requestFlush();
        drive();
        assertThat(second).isCompletedWithValue(List.of());
        assertThat(loader.loads()).hasSize(3);
        assertThat(loader.loads().get(2)).extracting(FakeStreamLoader.Load::label, FakeStreamLoader.Load::body)
                .containsExactly(labels.classicLabel("orders", 3), "[" + rowText("o4") + "]");
    }

    @Test
    void nothingLoadsBeforeTheTimerThenOneLoadPerTableAndANewLabelEachFlush() throws Exception {
        engine(b -> {
        });
        drive(); // the cycle starts at T0
        engine.write("db", "orders", row("o1"));
        clock.advanceMs(999);
        drive();
        assertThat(loader.loads()).isEmpty();
        engine.write("db", "orders", row("o2"));
        clock.advanceMs(1);
        drive();
        assertThat(loader.loads()).extracting(FakeStreamLoader.Load::body)
                .containsExactly("[" + rowText("o1") + "," + rowText("o2") + "]");
        engine.write("db", "orders", row("o3"));
        clock.advanceMs(1000);
        drive();
        assertThat(loader.loads()).extracting(FakeStreamLoader.Load::label)
                .containsExactly(labels.classicLabel("orders", 1), labels.classicLabel("orders", 2));
        assertThat(loader.loads().get(1).body()).isEqualTo("[" + rowText("o3") + "]");
        assertThat(engine.bufferedBytes()).isZero();
    }

    @Test
    void memoryPressureStartsAFlushAndTheCounterReturnsToZero() throws Exception {
        engine(b -> b.bufferSizeBytes(30));
        drive();
        engine.write("db", "orders", row("o1")); // 11 bytes
        engine.write("db", "orders", row("o2"));
        drive();
        assertThat(loader.loads()).as("below the soft limit, before the timer").isEmpty();
        engine.write("db", "orders", row("o3")); // 33 bytes: past the soft limit
        drive();
        assertThat(loader.loads()).extracting(FakeStreamLoader.Load::body)
                .containsExactly("[" + rowText("o1") + "," + rowText("o2") + "," + rowText("o3") + "]");
        assertThat(engine.bufferedBytes()).isZero();
        assertThat(engine.budget().usedBytes()).isZero();
    }

    @Test
    void aFailedLoadFailsTheFlushAndTheNextWriteNamingTableAndLabel() throws Exception {
        engine(b -> {
        });
        loader.failNext("Fail", "too many filtered rows");
        engine.write("db", "orders", row("o1"));
        CompletableFuture<List<PreparedTransaction>> done = engine.requestFlush();
        drive();
        assertThat(done).isCompletedExceptionally();
        assertThatThrownBy(() -> engine.write("db", "orders", row("o2"))).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("too many filtered rows").hasMessageContaining("db.orders")
                .hasMessageContaining(labels.classicLabel("orders", 1));
        assertThatThrownBy(engine::requestFlush).isInstanceOf(LoadEngineException.class);
        assertThat(engine.state()).isEqualTo(TableFlushState.FAILED);
        assertThat(engine.bufferedBytes()).isZero();
    }

    @Test
    void classicIsAtLeastOnceOnlyAndNeedsAStreamLoader() {
        LoadEngineConfig classic = LoadEngineConfig.builder().loadMethod(LoadMethod.CLASSIC).build();
        assertThatThrownBy(() -> new SingleTableLoadEngine(classic, loader, new InMemoryLoadMetrics(),
                DeliverySemantic.EXACTLY_ONCE, clock, io)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("loadMethod CLASSIC cannot be EXACTLY_ONCE");
        assertThatThrownBy(() -> new SingleTableLoadEngine(classic, new FakeTransactionClient(),
                new InMemoryLoadMetrics(), DeliverySemantic.AT_LEAST_ONCE, 0, clock, io))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a StreamLoader");
        assertThatThrownBy(() -> new SingleTableLoadEngine(LoadEngineConfig.builder().build(), loader,
                new InMemoryLoadMetrics(), DeliverySemantic.AT_LEAST_ONCE, clock, io))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("loadMethod TRANSACTION");
        assertThat(LoadEngineConfig.builder().build().loadMethod()).isEqualTo(LoadMethod.TRANSACTION);
    }

    @Test
    void labelRequestsAreRefusedWithoutTransactions() {
        engine(b -> {
        });
        assertThatThrownBy(() -> engine.requestCommit(List.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CLASSIC");
    }
}
