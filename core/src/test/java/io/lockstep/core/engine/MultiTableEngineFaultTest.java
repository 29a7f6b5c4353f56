package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.ManualClock;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.txn.TransactionStatus;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The multi-table engine (a real manager thread, the real HTTP client with a fast backoff) against the emulator with
 * H2 storage under injected faults. Each test places its fault where it really hits a load or a commit (the next N
 * requests of an op, or a hold), proves it was taken ({@code faults().pending(op) == 0}), then asserts the exact
 * contents of both tables. Retriable faults end in exactly the expected rows; faults with an unknown outcome fail the
 * engine loudly, leave nothing of the failed shared transaction visible, and a replay of the source transactions (a
 * Flink restart) ends exact, since PRIMARY KEY upserts make it idempotent.
 */
@Timeout(60)
class MultiTableEngineFaultTest {
    private static final int ORDERS = 40;

    private StarRocksEmulator sr;
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private void startEmulator(Clock clock) throws Exception {
        sr = StarRocksEmulator.builder().ddl(ShopOrders.DDL).clock(clock).build();
        toClose.add(sr);
        sr.start();
    }

    /** A fresh engine (new run id, so new labels) over a fresh client; the shared transaction begins with data. */
    private MultiTableLoadEngine engine(String labelPrefix, long commitIntervalMs) {
        StarRocksTransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                .loadUrls(sr.feUrl()).username("root").password("").maxRetries(10).retryBackoff(1, 5).build(),
                metrics);
        toClose.add(client);
        MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().minLoadRowBytes(0).labelPrefix(labelPrefix)
                .database("shop").commitIntervalMs(commitIntervalMs).scanningFrequencyMs(5).build(), client, metrics);
        toClose.add(engine);
        return engine;
    }

    private static String label(MultiTableLoadEngine engine) {
        await().atMost(Duration.ofSeconds(30)).until(() -> engine.currentTransaction() != null);
        return engine.currentTransaction().label();
    }

    @Test
    void aStormOfTxnInProcessingOnLoadsIsRetriedToExactRows() throws Exception {
        startEmulator(Clock.systemUTC());
        sr.faults().failNext(FaultOp.LOAD, 6, "TXN_IN_PROCESSING",
                "Transaction with label it is in processing, please retry later");
        MultiTableLoadEngine engine = engine("tip", 100);

        ShopOrders.write(engine, 0, ORDERS);
        engine.flush();

        assertThat(sr.faults().pending(FaultOp.LOAD)).as("every injected reply was taken by a load").isZero();
        assertThat(metrics.count(MetricNames.RETRIES_PREFIX + "TXN_IN_PROCESSING")).isEqualTo(6);
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void http503OnBeginAndOnLoadsIsRetriedToExactRows() throws Exception {
        startEmulator(Clock.systemUTC());
        sr.faults().failNextHttp(FaultOp.BEGIN, 2, 503).failNextHttp(FaultOp.LOAD, 3, 503);
        MultiTableLoadEngine engine = engine("e5xx", 100);

        ShopOrders.write(engine, 0, ORDERS);
        engine.flush();

        assertThat(sr.faults().pending(FaultOp.BEGIN)).isZero();
        assertThat(sr.faults().pending(FaultOp.LOAD)).isZero();
        assertThat(metrics.count(MetricNames.RETRIES_PREFIX + "HTTP_5XX")).isEqualTo(5);
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void aSubtaskWithoutRowsHoldsNoSlotUnderARunningTransactionLimitOfOne() throws Exception {
        startEmulator(Clock.systemUTC());
        sr.faults().setMaxRunningTxnPerDb(1);
        MultiTableLoadEngine idle = engine("idle", 100); // its database is configured, but it receives no rows
        idle.flush(); // at least one manager scan has run
        MultiTableLoadEngine busy = engine("busy", 100);

        ShopOrders.write(busy, 0, ORDERS);
        busy.flush();

        ShopOrders.assertExactly(sr, ORDERS);
        assertThat(idle.currentTransaction()).as("no transaction without data to load").isNull();
        assertThat(metrics.count(MetricNames.RETRIES_PREFIX + "RUNNING_TXN_LIMIT")).isZero();
        idle.checkFailure();
    }

    @Test
    void aCommitGivenUpAfterItsRetriesIsRolledBackSoNoTransactionOfTheFailedAttemptStaysOpen() throws Exception {
        startEmulator(Clock.systemUTC());
        sr.faults().failNext(FaultOp.COMMIT, 11, "FAILED", "get database write lock timeout, database=shop");
        MultiTableLoadEngine engine = engine("giveup", 60_000); // maxRetries 10: the 11th refusal ends the commit

        ShopOrders.write(engine, 0, ORDERS);
        assertThatThrownBy(engine::flush).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("lock timeout");
        String givenUp = engine.currentTransaction().label();

        assertThat(sr.faults().pending(FaultOp.COMMIT)).isZero();
        assertThat(sr.labelState("shop", givenUp)).as("rolled back, not left open until the server timeout")
                .isEqualTo(TransactionStatus.ABORTED);
        engine.close();
        MultiTableLoadEngine replay = engine("giveup", 60_000); // the job's restart
        ShopOrders.write(replay, 0, ORDERS);
        replay.flush();
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void aCommitWhoseReplyIsLostIsSettledByLabelState() throws Exception {
        startEmulator(Clock.systemUTC());
        sr.faults().dropReplyNext(FaultOp.COMMIT, 1); // the commit applies, then the connection closes
        MultiTableLoadEngine engine = engine("lost", 60_000); // only the flush commits

        ShopOrders.write(engine, 0, ORDERS);
        engine.flush(); // no "already committed"/duplicate-commit error: the label state settles it
        String committed = label(engine);

        assertThat(sr.faults().pending(FaultOp.COMMIT)).as("the commit's reply was dropped").isZero();
        assertThat(sr.labelState("shop", committed)).isIn(TransactionStatus.COMMITTED, TransactionStatus.VISIBLE);
        assertThat(metrics.count(MetricNames.COMMITS)).isEqualTo(1);
        engine.checkFailure();
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void aBeginWhoseReplyIsLostIsTakenOverWhenItsRetryFindsTheLabelOpen() throws Exception {
        startEmulator(Clock.systemUTC());
        sr.faults().dropReplyNext(FaultOp.BEGIN, 1); // the label begins, the reply is lost
        MultiTableLoadEngine engine = engine("lostbegin", 100);

        ShopOrders.write(engine, 0, ORDERS);
        engine.flush();

        assertThat(sr.faults().pending(FaultOp.BEGIN)).isZero();
        assertThat(metrics.count(MetricNames.RETRIES_PREFIX + "CONNECTION")).isEqualTo(1);
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void aLoadWhoseReplyIsLostFailsLoudlyAndNothingOfItsTransactionBecomesVisible() throws Exception {
        startEmulator(Clock.systemUTC());
        MultiTableLoadEngine first = engine("lostload", 100);
        ShopOrders.write(first, 0, ORDERS / 2);
        first.flush();

        sr.faults().dropReplyNext(FaultOp.LOAD, 1); // the server takes the rows, the reply is lost
        Throwable thrown = catchThrowable(() -> {
            ShopOrders.write(first, ORDERS / 2, ORDERS);
            first.flush();
        });

        String failed = first.currentTransaction().label();
        assertThat(sr.faults().pending(FaultOp.LOAD)).isZero();
        assertThat(thrown).isInstanceOf(LoadEngineException.class).hasMessageContaining(failed)
                .hasMessageContaining("outcome unknown after an I/O error");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> sr.labelState("shop", failed) == TransactionStatus.ABORTED);
        ShopOrders.assertExactly(sr, ORDERS / 2); // the applied load was rolled back with its transaction
        first.close();

        MultiTableLoadEngine replay = engine("lostload", 100);
        ShopOrders.write(replay, ORDERS / 2, ORDERS);
        replay.flush();
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void aPublishTimeoutOnCommitSucceedsAndTheRowsBecomeVisibleAfterThePublishDelay() throws Exception {
        ManualClock serverClock = new ManualClock();
        startEmulator(serverClock);
        sr.faults().publishTimeoutNext(1);
        MultiTableLoadEngine engine = engine("pub", 60_000); // only the flush commits

        ShopOrders.write(engine, 0, ORDERS);
        engine.flush(); // the client settles the publish-timeout reply by label state COMMITTED
        String committed = label(engine);

        assertThat(sr.labelState("shop", committed)).isEqualTo(TransactionStatus.COMMITTED);
        assertThat(sr.rowCount("shop", "orders")).as("not visible before the publish delay").isZero();
        serverClock.advance(Duration.ofSeconds(2)); // past the emulator's publishDelayMs (1000)
        await().atMost(Duration.ofSeconds(30))
                .until(() -> sr.labelState("shop", committed) == TransactionStatus.VISIBLE);
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void aConnectionDroppedMidLoadFailsLoudlyAndAReplayEndsExact() throws Exception {
        startEmulator(Clock.systemUTC());
        try (ShopOrders.SnapshotReader reader = new ShopOrders.SnapshotReader(sr)) {
            MultiTableLoadEngine first = engine("drop", 100);
            ShopOrders.write(first, 0, ORDERS / 2);
            first.flush(); // checkpoint: the first half is committed

            sr.faults().dropConnectionMidBody(FaultOp.LOAD, 1); // the very next load breaks mid-body
            Throwable thrown = catchThrowable(() -> {
                ShopOrders.write(first, ORDERS / 2, ORDERS);
                first.flush();
            });

            String failed = first.currentTransaction().label();
            assertThat(sr.faults().pending(FaultOp.LOAD)).isZero();
            assertThat(thrown).isInstanceOf(LoadEngineException.class).hasMessageContaining(failed)
                    .hasMessageContaining("outcome unknown after an I/O error")
                    .hasMessageContaining("not re-sent, since a retry could load the rows twice");
            assertThat(first.transactionState()).isEqualTo(SharedTransactionState.FAILED);
            assertThatThrownBy(first::flush).isInstanceOf(LoadEngineException.class)
                    .hasMessageContaining(failed).hasMessageContaining("outcome unknown");
            assertThatThrownBy(() -> first.write(0, "shop", "orders", "{\"order_id\":999}"
                    .getBytes(StandardCharsets.UTF_8))).isInstanceOf(LoadEngineException.class)
                    .hasMessageContaining(failed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> sr.labelState("shop", failed) == TransactionStatus.ABORTED);
            ShopOrders.assertExactly(sr, ORDERS / 2); // nothing of the failed shared transaction
            first.close();

            // a restart replays from an older point than the failure: rows already committed are upserted again
            MultiTableLoadEngine replay = engine("drop", 100);
            ShopOrders.write(replay, 0, ORDERS);
            replay.flush();
            ShopOrders.assertExactly(sr, ORDERS);
        }
    }

    @Test
    void aSharedTransactionExpiredAfterItsLoadsFailsLoudlyAtCommitAndAReplayEndsExact() throws Exception {
        startEmulator(Clock.systemUTC());
        MultiTableLoadEngine first = engine("expl", 60_000); // only the flush commits
        ShopOrders.write(first, 0, ORDERS);
        // ended source transactions are frozen and loaded without a flush: wait until every row is loaded
        await().atMost(Duration.ofSeconds(30)).until(() ->
                metrics.tableCount(MetricNames.LOADED_ROWS, "shop", "orders") == ORDERS
                        && metrics.tableCount(MetricNames.LOADED_ROWS, "shop", "order_items")
                        == (long) ORDERS * ShopOrders.ITEMS_PER_ORDER);
        String expiring = label(first);
        assertThat(sr.faults().forceExpire("shop", expiring)).isTrue(); // as the server's timer would

        assertThatThrownBy(first::flush).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("commit of label " + expiring)
                .hasMessageContaining("is ABORTED")
                .hasMessageContaining("timed out on the server (timeout header 600 s)");
        assertThat(first.transactionState()).isEqualTo(SharedTransactionState.FAILED);
        assertThat(sr.rowCount("shop", "orders")).isZero();
        assertThat(sr.rowCount("shop", "order_items")).isZero();
        first.close();

        MultiTableLoadEngine replay = engine("expl", 60_000);
        ShopOrders.write(replay, 0, ORDERS);
        replay.flush();
        ShopOrders.assertExactly(sr, ORDERS);
    }

    @Test
    void aServerRestartMidCycleFailsLoudlyAndAReplayFromTheCheckpointEndsExact() throws Exception {
        startEmulator(Clock.systemUTC());
        try (ShopOrders.SnapshotReader reader = new ShopOrders.SnapshotReader(sr)) {
            MultiTableLoadEngine first = engine("rst", 100);
            ShopOrders.write(first, 0, ORDERS / 2);
            first.flush(); // checkpoint

            OpHold hold = sr.faults().hold(FaultOp.LOAD);
            ShopOrders.write(first, ORDERS / 2, ORDERS);
            CompletableFuture<Void> flush = first.requestFlush();
            assertThat(hold.awaitArrived(30, TimeUnit.SECONDS)).as("a load of the cycle is in flight").isTrue();
            String inFlight = first.currentTransaction().label();
            sr.faults().restart(); // BE load contexts lost, the unfinished multi-table transaction aborted
            hold.release();

            Throwable thrown = catchThrowable(() -> flush.get(30, TimeUnit.SECONDS));
            assertThat(thrown).isInstanceOf(ExecutionException.class);
            // the code fails the engine: a load of the cycle meets the lost state (by timing, the held load answers
            // ABORTED, a later load TXN_NOT_EXISTS from the BE or FAILED "...cancelled: FE restarted" from the FE);
            // none is retriable, and the failure names the table load and the label
            assertThat(thrown.getCause()).isInstanceOf(LoadEngineException.class)
                    .as("failure message: %s", thrown.getCause().getMessage())
                    .hasMessageMatching("(?s).*load of \\d+ bytes into shop\\.order(s|_items) under label " + inFlight
                            + " .* failed \\(OTHER\\): .*Status '(ABORTED|TXN_NOT_EXISTS|FAILED)'.*");
            assertThat(first.transactionState()).isEqualTo(SharedTransactionState.FAILED);
            assertThatThrownBy(first::flush).isInstanceOf(LoadEngineException.class).hasMessageContaining(inFlight);
            assertThat(sr.labelState("shop", inFlight)).isEqualTo(TransactionStatus.ABORTED);
            ShopOrders.assertExactly(sr, ORDERS / 2);
            first.close();

            MultiTableLoadEngine replay = engine("rst", 100);
            ShopOrders.write(replay, ORDERS / 2, ORDERS);
            replay.flush();
            ShopOrders.assertExactly(sr, ORDERS);
        }
    }
}
