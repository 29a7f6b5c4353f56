package io.lockstep.core.engine;

import static io.lockstep.core.engine.EngineFixture.row;
import static io.lockstep.core.engine.EngineFixture.rowText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.InMemoryLoadMetrics;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine with its real manager thread and I/O pool (system clock); waits are on latches and futures. */
@Timeout(60)
class MultiTableEngineThreadTest {
    private final FakeTransactionClient client = new FakeTransactionClient();

    private MultiTableLoadEngine start(long closeTimeoutMs) {
        return MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("thr").runId("r1")
                .commitIntervalMs(100).scanningFrequencyMs(5).closeTimeoutMs(closeTimeoutMs)
                .flushTimeoutMs(30_000).build(), client, new InMemoryLoadMetrics());
    }

    @Test
    void flushCommitsEverythingThroughTheManagerThreadAndCloseStopsIt() throws Exception {
        MultiTableLoadEngine engine = start(10_000);
        for (int txn = 0; txn < 20; txn++) {
            int partition = txn % 2;
            engine.write(partition, "db", "orders", row("o" + txn));
            engine.write(partition, "db", "items", row("i" + txn));
            engine.txnEnd(partition);
        }
        engine.flush();
        assertThat(client.committedRows("orders")).hasSize(20).contains(rowText("o0"), rowText("o19"));
        assertThat(client.committedRows("items")).hasSize(20);
        assertThat(engine.bufferedBytes()).isZero();

        engine.close();
        assertThat(engine.transactionState()).isEqualTo(SharedTransactionState.CLOSED);
        assertThat(client.calls("rollback")).as("no label is opened after the commit without data, so none is"
                + " rolled back at close").isEmpty();
    }

    @Test
    void concurrentWritesAndCommitsNeverSplitASourceTransaction() throws Exception {
        MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("thr")
                .runId("r2").commitIntervalMs(20).scanningFrequencyMs(1).bufferSizeBytes(64 * 1024).ioThreads(4)
                .build(), client, new InMemoryLoadMetrics());
        Map<String, Integer> rowsPerTxn = new HashMap<>();
        List<CompletableFuture<Void>> cycles = new ArrayList<>();
        String[] tables = {"orders", "items", "payments"};
        for (int n = 0; n < 3000; n++) {
            int partition = n % 4;
            String txn = "p" + partition + "-t" + n;
            int rows = 1 + n % 5;
            for (int r = 0; r < rows; r++) {
                String row = "{\"id\":\"" + txn + "-" + r + "\",\"txn\":\"" + txn + "\"}";
                engine.write(partition, "db", tables[(n + r) % 3], row.getBytes(StandardCharsets.UTF_8));
            }
            engine.txnEnd(partition);
            rowsPerTxn.put(txn, rows);
            if (n % 500 == 499) {
                // a commit cycle that runs while the writes go on (whether the 20 ms timer also fires depends on
                // how fast this thread writes, so it cannot be what guarantees several cycles)
                cycles.add(engine.requestFlush());
            }
        }
        engine.flush();
        assertThat(cycles).allSatisfy(c -> assertThat(c).isCompleted().isNotCompletedExceptionally());
        engine.close();

        Map<String, Set<String>> labels = new HashMap<>();
        Map<String, Integer> committed = new HashMap<>();
        Pattern txnField = Pattern.compile("\"txn\":\"([^\"]+)\"");
        for (String[] load : client.committedLoads()) {
            for (String row : FakeTransactionClient.splitRows(load[1])) {
                Matcher m = txnField.matcher(row);
                assertThat(m.find()).isTrue();
                labels.computeIfAbsent(m.group(1), k -> new HashSet<>()).add(load[2]);
                committed.merge(m.group(1), 1, Integer::sum);
            }
        }
        assertThat(committed).isEqualTo(rowsPerTxn);
        assertThat(labels.values()).allSatisfy(l -> assertThat(l).hasSize(1));
        assertThat(client.calls("commit").size()).as("several commit cycles ran").isGreaterThan(1);
        assertThat(client.overlappingLoads()).as("one load in flight per (label, table)").isEmpty();
    }

    @Test
    void closeDoesNotHangWhenTheManagerIsStuckInACommit() throws Exception {
        CountDownLatch[] hold = client.holdOnce(FakeTransactionClient.op("commit"));
        MultiTableLoadEngine engine = start(200);
        engine.write(0, "db", "orders", row("a"));
        engine.txnEnd(0);
        var flush = engine.requestFlush();
        assertThat(hold[0].await(30, TimeUnit.SECONDS)).as("commit reached the client").isTrue();

        engine.close(); // interrupts the stuck manager thread after 200 ms
        assertThat(engine.transactionState()).isEqualTo(SharedTransactionState.CLOSED);
        assertThat(flush).isCompletedExceptionally();
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
            assertThatThrownBy(engine::flush).isInstanceOf(LoadEngineException.class)
                    .hasMessageContaining("boom in begin");
            assertThatThrownBy(() -> engine.write(0, "db", "orders", row("b")))
                    .hasMessageContaining("boom in begin");
        } finally {
            engine.close();
        }
    }
}
