package io.lockstep.core.engine;

import static io.lockstep.core.engine.EngineFixture.row;
import static io.lockstep.core.engine.EngineFixture.rowText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.InMemoryLoadMetrics;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine with its real manager thread and I/O pool (system clock); waits are on latches and futures. */
@Timeout(60)
class MultiTableEngineThreadTest {
    private final FakeTransactionClient client = new FakeTransactionClient();

    private MultiTableLoadEngine start(long closeTimeoutMs) {
        return MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("thr").runId("r1")
                .commitIntervalMs(100).scanningFrequencyMs(5).closeTimeoutMs(closeTimeoutMs)
                .savepointTimeoutMs(30_000).build(), client, new InMemoryLoadMetrics());
    }

    @Test
    void savepointCommitsEverythingThroughTheManagerThreadAndCloseStopsIt() throws Exception {
        MultiTableLoadEngine engine = start(10_000);
        for (int txn = 0; txn < 20; txn++) {
            int partition = txn % 2;
            engine.write(partition, "db", "orders", row("o" + txn));
            engine.write(partition, "db", "items", row("i" + txn));
            engine.txnEnd(partition);
        }
        engine.savepoint();
        assertThat(client.committedRows("orders")).hasSize(20).contains(rowText("o0"), rowText("o19"));
        assertThat(client.committedRows("items")).hasSize(20);
        assertThat(engine.bufferedBytes()).isZero();

        engine.close();
        assertThat(engine.transactionState()).isEqualTo(SharedTransactionState.CLOSED);
        assertThat(client.calls("rollback")).as("the idle label opened after the commit is rolled back")
                .hasSize(1);
    }

    @Test
    void closeDoesNotHangWhenTheManagerIsStuckInACommit() throws Exception {
        CountDownLatch[] hold = client.holdOnce(FakeTransactionClient.op("commit"));
        MultiTableLoadEngine engine = start(200);
        engine.write(0, "db", "orders", row("a"));
        engine.txnEnd(0);
        var savepoint = engine.requestSavepoint();
        assertThat(hold[0].await(30, TimeUnit.SECONDS)).as("commit reached the client").isTrue();

        engine.close(); // interrupts the stuck manager thread after 200 ms
        assertThat(engine.transactionState()).isEqualTo(SharedTransactionState.CLOSED);
        assertThat(savepoint).isCompletedExceptionally();
        assertThat(engine.bufferedBytes()).isZero();
        hold[1].countDown();
    }

    @Test
    void anUnexpectedManagerFailureReachesTheTaskThread() throws Exception {
        client.crashOnce(FakeTransactionClient.op("begin"), new IllegalStateException("boom in begin"));
        MultiTableLoadEngine engine = start(10_000);
        try {
            engine.write(0, "db", "orders", row("a"));
            engine.txnEnd(0);
            assertThatThrownBy(engine::savepoint).isInstanceOf(LoadEngineException.class)
                    .hasMessageContaining("boom in begin");
            assertThatThrownBy(() -> engine.write(0, "db", "orders", row("b")))
                    .hasMessageContaining("boom in begin");
        } finally {
            engine.close();
        }
    }
}
