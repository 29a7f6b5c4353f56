package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.ManualClock;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The StarRocks client against the embedded emulator over real HTTP in redirect mode (FE 307 → BE): the
 * single-table and multi-table transaction flows, rollback, label state, and injected faults.
 */
class StarRocksClientEmulatorTest {
    private static final String DDL = """
            CREATE DATABASE IF NOT EXISTS shop;
            CREATE TABLE shop.orders (
              order_id BIGINT NOT NULL,
              status VARCHAR(32)
            ) PRIMARY KEY (order_id)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1;
            CREATE TABLE shop.order_items (
              order_id BIGINT NOT NULL,
              line_no INT NOT NULL,
              sku VARCHAR(64)
            ) PRIMARY KEY (order_id, line_no)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1;
            """;
    private static final Map<String, String> JSON = Map.of("format", "json", "strip_outer_array", "true");
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final ManualClock CLOCK = new ManualClock();

    private static StarRocksEmulator sr;
    private final RecordingTicker ticker = new RecordingTicker();
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private StarRocksTransactionClient client;

    @BeforeAll
    static void startEmulator() throws Exception {
        sr = StarRocksEmulator.builder().ddl(DDL).clock(CLOCK).user("loader", "pw-1").build().start();
    }

    @AfterAll
    static void stopEmulator() {
        sr.close();
    }

    @BeforeEach
    void newClient() {
        client = new StarRocksTransactionClient(config("pw-1"), metrics, ticker);
    }

    @AfterEach
    void closeClient() {
        sr.faults().clear();
        client.close();
    }

    /** Found by a user trial: a data error at commit was explained as a likely timeout. */
    @Test
    void aMultiTableCommitRejectedForBadDataNamesTheDataErrorNotATimeout() throws Exception {
        TransactionRef txn = TransactionRef.multiTable("shop", label());
        client.begin(txn, 60);
        client.load(txn, "orders", "[{\"order_id\":1,\"status\":\"new\"}]".getBytes(StandardCharsets.UTF_8), JSON);
        client.load(txn, "order_items", "[{\"order_id\":\"abc\",\"line_no\":1,\"sku\":\"s\"}]"
                .getBytes(StandardCharsets.UTF_8), JSON);

        assertThatThrownBy(() -> client.commit(txn))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("too many filtered rows")
                .hasMessageContaining("the server rejected the loaded data at commit and rolled back the whole"
                        + " transaction")
                .hasMessageNotContaining("timed out");
        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.ABORTED);
        assertThat(sr.query("SELECT COUNT(*) FROM shop.orders WHERE order_id = 1").rows().get(0).get(0))
                .isEqualTo(0L);
    }

    private static TransactionClientConfig config(String password) {
        return TransactionClientConfig.builder().loadUrls(sr.feUrl()).username("loader").password(password)
                .connectTimeoutMs(2_000).socketTimeoutMs(10_000).waitForContinueTimeoutMs(2_000)
                .retryBackoff(100, 1_000).labelStateTimeoutMs(5_000).build();
    }

    private static String label() {
        return "client-it-" + SEQ.incrementAndGet();
    }

    private static int id() {
        return 10_000 + SEQ.incrementAndGet() * 10;
    }

    private static byte[] orders(int... ids) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < ids.length; i++) {
            sb.append(i > 0 ? "," : "").append("{\"order_id\":").append(ids[i]).append(",\"status\":\"new\"}");
        }
        return sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] items(int orderId, int lines) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 1; i <= lines; i++) {
            sb.append(i > 1 ? "," : "").append("{\"order_id\":").append(orderId).append(",\"line_no\":").append(i)
                    .append(",\"sku\":\"s").append(i).append("\"}");
        }
        return sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static long count(String table, int fromId, int toId) {
        Object value = sr.query("SELECT COUNT(*) FROM shop." + table + " WHERE order_id BETWEEN " + fromId
                + " AND " + toId).rows().get(0).get(0);
        return ((Number) value).longValue();
    }

    @Test
    void singleTableBeginTwoLoadsPrepareCommitMakesRowsVisible() throws Exception {
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        int base = id();

        assertThat(client.begin(txn, 600)).isPositive();
        client.load(txn, "orders", orders(base, base + 1), JSON);
        client.load(txn, "orders", orders(base + 2), JSON);
        client.prepare(txn);
        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.PREPARED);
        assertThat(count("orders", base, base + 9)).as("nothing visible before commit").isZero();
        client.commit(txn);

        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.VISIBLE);
        assertThat(count("orders", base, base + 9)).isEqualTo(3);
    }

    @Test
    void multiTableLoadsToTwoTablesCommitTogether() throws Exception {
        TransactionRef txn = TransactionRef.multiTable("shop", label());
        int base = id();

        client.begin(txn, 60);
        client.load(txn, "orders", orders(base, base + 1), JSON);
        client.load(txn, "order_items", items(base, 3), JSON);
        client.load(txn, "order_items", items(base + 1, 2), JSON);
        assertThat(count("orders", base, base + 9) + count("order_items", base, base + 9)).isZero();
        client.commit(txn);

        assertThat(count("orders", base, base + 9)).isEqualTo(2);
        assertThat(count("order_items", base, base + 9)).isEqualTo(5);
        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.VISIBLE);
    }

    /**
     * The FE's replies for a multi-table label it does not know (StarRocks {@code StreamLoadMgr.commitLoadTask} /
     * {@code rollbackLoadTask}, wrapped by {@code TransactionLoadAction}): commit fails naming the label and the
     * server's text; rollback of a label that never began counts as rolled back (the label is UNKNOWN).
     */
    @Test
    void multiTableCommitAndRollbackOfAnUnknownLabel() throws Exception {
        TransactionRef txn = TransactionRef.multiTable("shop", label());

        assertThatThrownBy(() -> client.commit(txn))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining(txn.label())
                .hasMessageContaining("stream load task " + txn.label() + " does not exist");
        client.rollback(txn);

        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.UNKNOWN);
    }

    @Test
    void rollbackDiscardsTheRowsAndIsIdempotent() throws Exception {
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        int base = id();
        client.begin(txn, 600);
        client.load(txn, "orders", orders(base), JSON);

        client.rollback(txn);
        client.rollback(txn);

        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.ABORTED);
        assertThat(count("orders", base, base + 9)).isZero();
    }

    @Test
    void labelStateOfAnUnusedLabelIsUnknownAndAnOpenOneIsPrepare() throws Exception {
        assertThat(client.labelState("shop", label())).isEqualTo(LabelState.UNKNOWN);
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        client.begin(txn, 600);
        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.PREPARE);
        client.rollback(txn);
    }

    @Test
    void injectedTxnInProcessingAndHttp5xxAreRetriedAndRowsLandOnce() throws Exception {
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        int base = id();
        client.begin(txn, 600);
        sr.faults().failNext(FaultOp.LOAD, 1, "TXN_IN_PROCESSING", "Transaction is in processing");
        client.load(txn, "orders", orders(base, base + 1), JSON);
        sr.faults().failNextHttp(FaultOp.COMMIT, 1, 503);
        client.commit(txn);

        assertThat(count("orders", base, base + 9)).isEqualTo(2);
        assertThat(metrics.count("retries." + FailureClass.TXN_IN_PROCESSING)).isEqualTo(1);
        assertThat(metrics.count("retries." + FailureClass.HTTP_5XX)).isEqualTo(1);
    }

    @Test
    void publishTimeoutOnCommitSettlesAsCommitted() throws Exception {
        TransactionRef txn = TransactionRef.multiTable("shop", label());
        int base = id();
        client.begin(txn, 60);
        client.load(txn, "orders", orders(base), JSON);
        sr.faults().publishTimeoutNext(1);

        client.commit(txn);

        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.COMMITTED);
        CLOCK.advance(Duration.ofSeconds(2)); // the emulator's publish delay after a publish timeout is 1 s
        sr.tick();
        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.VISIBLE);
        assertThat(count("orders", base, base + 9)).isEqualTo(1);
    }

    @Test
    void expiredTransactionFailsTheCommitNamingLabelAndDatabase() throws Exception {
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        client.begin(txn, 30);
        client.load(txn, "orders", orders(id()), JSON);
        CLOCK.advance(Duration.ofSeconds(31));
        sr.tick();

        assertThatThrownBy(() -> client.commit(txn))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("label " + txn.label() + " in database shop is ABORTED")
                .hasMessageContaining("timeout header 30 s");
    }

    @Test
    void droppedLoadIsReportedAsUnknownAndTheTransactionCanBeRolledBack() throws Exception {
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        int base = id();
        client.begin(txn, 600);
        sr.faults().dropConnectionMidBody(FaultOp.LOAD, 1);

        assertThatThrownBy(() -> client.load(txn, "orders", orders(base), JSON))
                .isInstanceOf(LoadOutcomeUnknownException.class);
        client.rollback(txn);

        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.ABORTED);
        assertThat(count("orders", base, base + 9)).isZero();
    }

    @Test
    void wrongPasswordIsAccessDenied() {
        try (StarRocksTransactionClient wrong = new StarRocksTransactionClient(config("nope"), metrics, ticker)) {
            assertThatThrownBy(() -> wrong.begin(TransactionRef.singleTable("shop", "orders", label()), 600))
                    .isInstanceOf(TransactionException.class)
                    .hasMessageContaining("ACCESS_DENIED")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("nope"));
        }
    }

    @Test
    void classicStreamLoadDeduplicatesByLabel() throws Exception {
        int base = id();
        String label = label();
        try (StarRocksStreamLoader loader = new StarRocksStreamLoader(config("pw-1"), metrics, ticker)) {
            loader.load("shop", "orders", label, orders(base, base + 1), JSON);
            LoadReply again = loader.load("shop", "orders", label, orders(base, base + 1), JSON);
            assertThat(again.attempts()).isEqualTo(1);
        }
        assertThat(count("orders", base, base + 9)).isEqualTo(2);
    }

    @Test
    void commitWhoseReplyTimesOutIsSettledAndRetriedToExactlyTheLoadedRows() throws Exception {
        TransactionRef txn = TransactionRef.multiTable("shop", label());
        int base = id();
        client.begin(txn, 60);
        client.load(txn, "orders", orders(base, base + 1), JSON);
        client.load(txn, "order_items", items(base, 2), JSON);
        OpHold hold = sr.faults().hold(FaultOp.COMMIT);
        ticker.onSleep(() -> {
            // the client timed out and saw the label still open: let the held commit finish now
            hold.release();
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> client.labelState("shop", txn.label()).isCommitted());
        });
        try (StarRocksTransactionClient impatient = new StarRocksTransactionClient(
                TransactionClientConfig.builder().loadUrls(sr.feUrl()).username("loader").password("pw-1")
                        .socketTimeoutMs(300).retryBackoff(100, 1_000).build(), metrics, ticker)) {
            impatient.commit(txn);
        } finally {
            hold.release();
        }

        assertThat(count("orders", base, base + 9)).isEqualTo(2);
        assertThat(count("order_items", base, base + 9)).isEqualTo(2);
        assertThat(metrics.count("retries." + FailureClass.LABEL_STILL_OPEN)).isEqualTo(1);
    }

    @Test
    void failsOverFromADeadLoadUrlToTheEmulator() throws Exception {
        int dead;
        try (ServerSocket socket = new ServerSocket(0)) {
            dead = socket.getLocalPort();
        }
        TransactionClientConfig failover = TransactionClientConfig.builder()
                .loadUrls("127.0.0.1:" + dead + ";" + sr.feUrl()).username("loader").password("pw-1").build();
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        int base = id();
        try (StarRocksTransactionClient twoUrls = new StarRocksTransactionClient(failover, metrics, ticker)) {
            twoUrls.begin(txn, 600);
            twoUrls.load(txn, "orders", orders(base), JSON);
            twoUrls.commit(txn);
        }

        assertThat(count("orders", base, base + 9)).isEqualTo(1);
        assertThat(ticker.sleeps()).isEmpty();
    }

    @Test
    void repeatedPrepareAndCommitSettleAsSuccess() throws Exception {
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        int base = id();
        client.begin(txn, 600);
        client.load(txn, "orders", orders(base), JSON);

        client.prepare(txn);
        client.prepare(txn); // the BE context is gone: TXN_NOT_EXISTS, settled as PREPARED
        client.commit(txn);
        client.commit(txn); // answered by the FE: already committed

        assertThat(count("orders", base, base + 9)).isEqualTo(1);
    }

    @Test
    void runningTransactionLimitOnBeginIsRetriedUntilASlotFrees() throws Exception {
        TransactionRef first = TransactionRef.singleTable("shop", "orders", label());
        TransactionRef second = TransactionRef.singleTable("shop", "orders", label());
        client.begin(first, 600);
        sr.faults().setMaxRunningTxnPerDb(1);
        try {
            ticker.onSleep(() -> {
                try {
                    client.rollback(first);
                } catch (TransactionException e) {
                    throw new IllegalStateException(e);
                }
            });
            client.begin(second, 600);
        } finally {
            sr.faults().setMaxRunningTxnPerDb(1000);
        }

        assertThat(metrics.count("retries." + FailureClass.RUNNING_TXN_LIMIT)).isEqualTo(1);
        assertThat(client.labelState("shop", second.label())).isEqualTo(LabelState.PREPARE);
        client.rollback(second);
    }

    @Test
    void aRunningTransactionLimitHeldLongerThanTheRetryBudgetIsWaitedOutAndReported() throws Exception {
        TransactionRef txn = TransactionRef.multiTable("shop", label());
        sr.faults().setMaxRunningTxnPerDb(0); // the server is busy for 8 s of the client's clock
        long busyUntilMs = ticker.nowMs() + 8_000;
        ticker.onSleep(() -> {
            if (ticker.nowMs() >= busyUntilMs) {
                sr.faults().setMaxRunningTxnPerDb(1000);
            }
        });

        client.begin(txn, 600); // maxRetries is 3: the old budget gave up after about 1.5 s

        assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.PREPARE);
        assertThat(metrics.count(MetricNames.RUNNING_TXN_LIMIT_WAIT_MS)).isBetween(8_000L, 10_000L);
        assertThat(metrics.count("retries." + FailureClass.RUNNING_TXN_LIMIT)).isGreaterThan(3);
        assertThat(ticker.sleeps()).allSatisfy(ms -> assertThat(ms).isLessThanOrEqualTo(1_000L));
        client.rollback(txn);
    }

    @Test
    void aRunningTransactionLimitThatOutlastsTheWaitFailsNamingTheLimitAndTheOption() {
        client.close();
        client = new StarRocksTransactionClient(TransactionClientConfig.builder().loadUrls(sr.feUrl())
                .username("loader").password("pw-1").retryBackoff(100, 400).runningTxnLimitWaitMs(5_000).build(),
                metrics, ticker);
        sr.faults().setMaxRunningTxnPerDb(0);
        TransactionRef txn = TransactionRef.multiTable("shop", label());

        assertThatThrownBy(() -> client.begin(txn, 600)).isInstanceOf(TransactionException.class)
                .hasMessageContaining("begin of " + txn)
                .hasMessageContaining("running-transaction limit refused it for 5000 ms")
                .hasMessageContaining("max_running_txn_num_per_db")
                .hasMessageContaining("sink.running-txn-limit.wait-ms");
        assertThat(metrics.count(MetricNames.RUNNING_TXN_LIMIT_WAIT_MS)).isEqualTo(5_000);
    }

    @Test
    void oneInternalErrorReplyToPrepareCostsOneBackoffNotALabelStatePoll() throws Exception {
        int base = SEQ.incrementAndGet() * 100;
        TransactionRef txn = TransactionRef.singleTable("shop", "orders", label());
        client.begin(txn, 600);
        client.load(txn, "orders", orders(base), JSON);
        sr.faults().failNext(FaultOp.PREPARE, 1, "INTERNAL_ERROR", "tablet writer failed on a backend");

        client.prepare(txn);
        client.commit(txn);

        assertThat(sr.faults().pending(FaultOp.PREPARE)).isZero();
        assertThat(ticker.sleeps()).as("the normal backoff, once").containsExactly(100L);
        assertThat(count("orders", base, base + 9)).isEqualTo(1);
    }
}
