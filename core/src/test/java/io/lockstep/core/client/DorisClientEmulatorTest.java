package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.ManualClock;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.fault.FaultOp;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Doris dialect over HTTP against the emulator's Doris mode (FE 307 to BE, credentials in Location). */
class DorisClientEmulatorTest {
    private static final String DDL = "CREATE DATABASE shop; CREATE TABLE shop.orders (id BIGINT NOT NULL, note "
            + "VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1";
    private static final Map<String, String> JSON = Map.of("format", "json", "strip_outer_array", "true");

    private final ManualClock clock = new ManualClock();
    private DorisEmulator doris;
    private DorisTransactionClient client;
    private DorisStreamLoader loader;
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();

    @BeforeEach
    void start() throws Exception {
        doris = DorisEmulator.builder().ddl(DDL).clock(clock).build().start();
        TransactionClientConfig config = TransactionClientConfig.builder().loadUrls(doris.feHostPort())
                .username("root").maxRetries(3).retryBackoff(1, 2).labelStateTimeoutMs(2_000).build();
        client = new DorisTransactionClient(config, metrics);
        loader = new DorisStreamLoader(config, metrics);
    }

    @AfterEach
    void stop() {
        client.close();
        loader.close();
        doris.close();
    }

    private static byte[] rows(int from, int to) {
        StringBuilder sb = new StringBuilder("[");
        for (int id = from; id <= to; id++) {
            sb.append(id == from ? "" : ",").append("{\"id\":").append(id).append(",\"note\":\"n").append(id)
                    .append("\"}");
        }
        return sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static TransactionRef txn(String label) {
        return TransactionRef.singleTable("shop", "orders", label);
    }

    private void preCommit(String label, int from, int to) throws TransactionException {
        client.begin(txn(label), 600);
        client.load(txn(label), "orders", rows(from, to), JSON);
    }

    @Test
    void aTwoPhaseLoadIsInvisibleUntilItsCommitByLabel() throws Exception {
        preCommit("l1", 1, 3);
        assertThat(doris.labelState("shop", "l1")).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        assertThat(client.labelState("shop", "l1")).isEqualTo(LabelState.PREPARED);
        client.prepare(txn("l1"));
        assertThat(doris.rowCount("shop", "orders")).isZero();

        client.commit(txn("l1"));

        assertThat(doris.rowCount("shop", "orders")).isEqualTo(3);
        client.commit(txn("l1"));
        assertThat(doris.rowCount("shop", "orders")).as("re-committing is a success, not a second load").isEqualTo(3);
    }

    @Test
    void aCommitWhoseReplyIsLostSettlesAsCommittedAndLoadsOnce() throws Exception {
        preCommit("l1", 1, 2);
        doris.faults().dropReplyNext(FaultOp.COMMIT, 1);

        client.commit(txn("l1"));

        assertThat(doris.rowCount("shop", "orders")).isEqualTo(2);
        assertThat(client.labelState("shop", "l1")).isIn(LabelState.COMMITTED, LabelState.VISIBLE);
    }

    @Test
    void aLoadWhoseReplyIsLostSettlesAsPreCommittedWithoutASecondLoad() throws Exception {
        doris.faults().dropReplyNext(FaultOp.STREAM_LOAD, 1);

        preCommit("l1", 1, 4);
        client.commit(txn("l1"));

        assertThat(doris.rowCount("shop", "orders")).isEqualTo(4);
    }

    @Test
    void aLoadCutMidBodyIsSentAgainUnderTheSameLabelOnceTheLabelSaysItAborted() throws Exception {
        doris.faults().dropConnectionMidBody(FaultOp.STREAM_LOAD, 1);

        preCommit("l1", 1, 4);
        client.commit(txn("l1"));

        assertThat(doris.rowCount("shop", "orders")).isEqualTo(4);
        assertThat(metrics.count("retries." + FailureClass.CONNECTION.name())).isEqualTo(1);
    }

    @Test
    void anAbortedLabelIsReusableAndAbortIsIdempotent() throws Exception {
        preCommit("l1", 1, 2);
        client.rollback(txn("l1"));
        client.rollback(txn("l1"));
        assertThat(doris.labelState("shop", "l1")).isEqualTo(DorisTxnStatus.ABORTED);

        preCommit("l1", 10, 10);
        client.commit(txn("l1"));
        assertThat(doris.rowCount("shop", "orders")).isEqualTo(1);
        assertThatThrownBy(() -> client.rollback(txn("l1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("cannot be aborted");
    }

    @Test
    void anOrphanHoldingTheLabelIsAbortedByItsTxnIdAndTheLoadTakesItsPlace() throws Exception {
        preCommit("l1", 1, 5); // an earlier run's pre-committed transaction
        long orphan = doris.transaction("shop", "l1").orElseThrow().txnId();
        try (DorisTransactionClient restarted = new DorisTransactionClient(TransactionClientConfig.builder()
                .loadUrls(doris.feHostPort()).username("root").retryBackoff(1, 2).build(), metrics)) {
            restarted.begin(txn("l1"), 600);
            restarted.load(txn("l1"), "orders", rows(7, 7), JSON);
            restarted.commit(txn("l1"));
        }

        assertThat(doris.transaction(orphan).orElseThrow().status()).isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.rowCount("shop", "orders")).isEqualTo(1);
    }

    @Test
    void aCommitAfterThePreCommitTimeoutFailsNamingIt() throws Exception {
        preCommit("l1", 1, 2);
        clock.advance(Duration.ofSeconds(3601));
        doris.tick();

        assertThatThrownBy(() -> client.commit(txn("l1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("is ABORTED")
                .hasMessageContaining("stream_load_default_precommit_timeout_second");
        assertThat(doris.rowCount("shop", "orders")).isZero();
    }

    @Test
    void aPlainStreamLoadCommitsAndARetryWithTheSameLabelIsDeduplicated() throws Exception {
        loader.load("shop", "orders", "c1", rows(1, 3), JSON);
        doris.faults().dropReplyNext(FaultOp.STREAM_LOAD, 1);
        loader.load("shop", "orders", "c2", rows(4, 5), JSON);
        loader.load("shop", "orders", "c2", rows(4, 5), JSON);

        assertThat(doris.rowCount("shop", "orders")).isEqualTo(5);
    }

    @Test
    void theRunningTransactionLimitIsRetriedUntilTheBudgetEnds() throws Exception {
        preCommit("l1", 1, 1);
        doris.faults().setMaxRunningTxnPerDb(1);

        assertThatThrownBy(() -> preCommit("l2", 2, 2))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("current running txns on db");
        assertThat(metrics.count("retries." + FailureClass.RUNNING_TXN_LIMIT.name())).isEqualTo(3);
    }
}
