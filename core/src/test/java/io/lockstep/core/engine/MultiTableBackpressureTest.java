package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lockstep.core.buffer.BufferExhaustedException;
import io.lockstep.core.metrics.MetricNames;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Memory accounting over all regions: soft limit drives flushing, 2× blocks the writer, the count returns to 0. */
class MultiTableBackpressureTest {
    /** buffer-size 100 bytes, hard limit 200. */
    private final EngineFixture f = new EngineFixture(b -> b.bufferSizeBytes(100).maxBlockMs(30_000));

    @AfterEach
    void close() {
        f.close();
    }

    /** A JSON object row of exactly 50 bytes. */
    private static byte[] row50(int n) {
        String prefix = "{\"n\":" + n + ",\"pad\":\"";
        String row = prefix + "x".repeat(50 - prefix.length() - 2) + "\"}";
        byte[] bytes = row.getBytes(StandardCharsets.UTF_8);
        assertThat(bytes).hasSize(50);
        return bytes;
    }

    @Test
    void hardLimitBlocksTheWriterUntilLoadsDrain() throws Exception {
        for (int i = 0; i < 4; i++) {
            f.engine.write(0, "db", "orders", row50(i));
            f.engine.txnEnd(0); // the first switches, the rest batch in the active chunk
        }
        assertThat(f.engine.bufferedBytes()).isEqualTo(200);

        CountDownLatch written = new CountDownLatch(1);
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread taskThread = new Thread(() -> {
            try {
                f.engine.write(1, "db", "items", row50(99));
                written.countDown();
            } catch (Throwable t) {
                error.set(t);
            }
        });
        taskThread.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.engine.budget().waitingThreads() == 1);
        assertThat(written.getCount()).isEqualTo(1);

        // the manager scan sees the pressure: freezes the clean chunk at once (no mini-interval wait) and loads it
        f.drive();
        assertThat(written.await(10, TimeUnit.SECONDS)).isTrue();
        taskThread.join(10_000);
        assertThat(error.get()).isNull();
        assertThat(f.engine.bufferedBytes()).isEqualTo(50);
        assertThat(f.client.calls("load")).as("both frozen orders chunks went out in one load").hasSize(1);
        assertThat(FakeTransactionClient.splitRows(f.client.calls("load").get(0).body())).hasSize(4);
    }

    /** A JSON object row of exactly 40 bytes. */
    private static byte[] row40(int n) {
        String prefix = "{\"n\":" + n + ",\"pad\":\"";
        String row = prefix + "x".repeat(40 - prefix.length() - 2) + "\"}";
        byte[] bytes = row.getBytes(StandardCharsets.UTF_8);
        assertThat(bytes).hasSize(40);
        return bytes;
    }

    /**
     * Found by a user trial (buffer-size 64 KiB, 13 KB source transactions from a fast source): transactions ending
     * inside the mini interval piled up in the active chunk until the writer hit the hard limit in the middle of the
     * next transaction; that partition was never clean again, so nothing could be frozen and the job hung. Above the
     * soft limit a transaction end now switches at once, so whole transactions are always loadable.
     */
    @Test
    void transactionEndAboveTheSoftLimitSwitchesInsideTheMiniIntervalSoAMidTransactionWriterCanDrain()
            throws Exception {
        f.engine.write(0, "db", "orders", row40(1));
        f.engine.write(0, "db", "orders", row40(2));
        f.engine.txnEnd(0); // first transaction end: switches
        f.drive(); // begin, load, release: nothing buffered
        assertThat(f.engine.bufferedBytes()).isZero();

        // two more 80-byte transactions at the same instant (inside the mini interval)
        for (int txn = 2; txn <= 3; txn++) {
            f.engine.write(0, "db", "orders", row40(txn * 10));
            f.engine.write(0, "db", "orders", row40(txn * 10 + 1));
            f.engine.txnEnd(0);
        }
        assertThat(f.engine.bufferedBytes()).isEqualTo(160);

        // the next transaction: its first row fits (200 = hard limit), its second must wait mid-transaction
        CountDownLatch written = new CountDownLatch(1);
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread taskThread = new Thread(() -> {
            try {
                f.engine.write(0, "db", "orders", row40(40));
                f.engine.write(0, "db", "orders", row40(41));
                written.countDown();
            } catch (Throwable t) {
                error.set(t);
            }
        });
        taskThread.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.engine.budget().waitingThreads() == 1);

        f.drive(); // the frozen whole transactions load and release their bytes
        assertThat(written.await(10, TimeUnit.SECONDS)).as("writer released by a drain").isTrue();
        taskThread.join(10_000);
        assertThat(error.get()).isNull();
        assertThat(f.engine.bufferedBytes()).isEqualTo(80);
    }

    @Test
    void sourceTransactionLargerThanTheHardLimitFailsAtOnceNamingThePartition() throws Exception {
        for (int i = 0; i < 4; i++) {
            f.engine.write(6, "db", "orders", row50(i));
        }
        assertThatThrownBy(() -> f.engine.write(6, "db", "items", row50(4)))
                .isInstanceOf(BufferExhaustedException.class)
                .hasMessageContaining("partition 6")
                .hasMessageContaining("200 bytes");
        assertThat(f.engine.bufferedBytes()).isEqualTo(200);
        assertThat(f.engine.budget().waitingThreads()).isZero();
    }

    @Test
    void openSourceTransactionsOfSeveralPartitionsThatCanNeverDrainFailAtOnce() throws Exception {
        f.engine.write(1, "db", "orders", row50(1));
        f.engine.write(1, "db", "orders", row50(2));
        f.engine.write(2, "db", "items", row50(3));
        f.engine.write(3, "db", "items", row50(4));
        f.engine.txnEnd(3);
        f.drive(); // partition 3's whole transaction is loaded: 150 bytes stay, all in open transactions
        f.engine.write(4, "db", "orders", row50(5));
        assertThat(f.engine.bufferedBytes()).isEqualTo(200);

        // 200 open + 50: only the task thread could end those transactions, so waiting would never end
        assertThatThrownBy(() -> f.engine.write(1, "db", "orders", row50(6)))
                .isInstanceOf(BufferExhaustedException.class)
                .hasMessageContaining("{1=100, 2=50, 4=50}")
                .hasMessageContaining("hard buffer limit of 200 bytes");
        assertThat(f.engine.budget().waitingThreads()).isZero();
        assertThat(f.engine.bufferedBytes()).isEqualTo(200);
    }

    @Test
    void rowLargerThanTheHardLimitFailsAtOnce() {
        byte[] huge = ("{\"v\":\"" + "x".repeat(300) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> f.engine.write(0, "db", "orders", huge))
                .isInstanceOf(BufferExhaustedException.class)
                .hasMessageContaining(huge.length + " bytes");
        assertThat(f.engine.bufferedBytes()).isZero();
    }

    @Test
    void blockedWriterIsWokenByAnEngineFailureWithThatFailure() throws Exception {
        f.client.failOnce(FakeTransactionClient.load("orders"), "FAILED", "Failed to find table orders in db");
        for (int i = 0; i < 4; i++) {
            f.engine.write(0, "db", "orders", row50(i));
            f.engine.txnEnd(0);
        }
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch ended = new CountDownLatch(1);
        Thread taskThread = new Thread(() -> {
            try {
                f.engine.write(1, "db", "orders", row50(9));
            } catch (Throwable t) {
                error.set(t);
            }
            ended.countDown();
        });
        taskThread.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.engine.budget().waitingThreads() == 1);
        f.drive();
        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(error.get()).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("Failed to find table orders");
    }

    @Test
    void bufferedBytesReturnToExactlyZeroWhenEverythingIsCommitted() throws Exception {
        EngineFixture g = new EngineFixture();
        try {
            long written = 0;
            int rowsWritten = 0;
            for (int txn = 0; txn < 50; txn++) {
                int partition = txn % 3;
                for (int r = 0; r < 1 + txn % 4; r++) {
                    byte[] row = EngineFixture.row("p" + partition + "-t" + txn + "-r" + r);
                    g.engine.write(partition, "db", r % 2 == 0 ? "orders" : "items", row);
                    written += row.length;
                    rowsWritten++;
                }
                g.engine.txnEnd(partition);
                g.clock.advanceMs(37);
                if (txn % 7 == 3) {
                    g.drive();
                }
            }
            assertThat(g.engine.bufferedBytes()).isPositive().isLessThanOrEqualTo(written);
            assertThat(g.metrics.gaugeValue(MetricNames.BUFFERED_BYTES)).isEqualTo(g.engine.bufferedBytes());
            var done = g.engine.requestFlush();
            g.drive();
            assertThat(done).isCompleted();
            assertThat(g.engine.bufferedBytes()).isZero();
            assertThat(g.metrics.gaugeValue(MetricNames.BUFFERED_BYTES)).isZero();
            long rows = g.client.committedRows("orders").size() + g.client.committedRows("items").size();
            assertThat(rows).isEqualTo(rowsWritten);
        } finally {
            g.close();
        }
    }
}
