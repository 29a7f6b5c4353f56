package io.lockstep.core.client;

import static io.lockstep.core.client.FakeStarRocksServer.dropReply;
import static io.lockstep.core.client.FakeStarRocksServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Ambiguous prepare/commit/rollback outcomes are settled by a label-state query
 * (docs/protocol.md#how-the-client-decides-coreclient).
 */
class TransactionSettleTest extends ClientTestSupport {

    @Test
    void commitWithNonOkReplyButCommittedLabelSucceeds() throws Exception {
        fe.on(COMMIT, fail("FAILED", "class com.starrocks.common.StarRocksException: publish timeout: 20000"));
        fe.on(STATE, state("COMMITTED"));

        client.commit(single("l1"));

        assertThat(fe.requests(COMMIT)).hasSize(1);
        assertThat(fe.requests(STATE)).hasSize(1);
        assertThat(fe.requests(STATE).get(0).query()).isEqualTo("label=l1");
        assertThat(fe.requests(STATE).get(0).method()).isEqualTo("GET");
    }

    @Test
    void commitWithNonOkReplyAndAbortedLabelFailsNamingLabelDatabaseAndTimeout() throws Exception {
        fe.on(BEGIN, ok());
        fe.on(COMMIT, fail("FAILED", "Can not commit ABORTED transaction 42, label is l1"));
        fe.on(STATE, state("ABORTED"));
        client.begin(single("l1"), 300);

        assertThatThrownBy(() -> client.commit(single("l1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("label l1 in database shop is ABORTED")
                .hasMessageContaining("timed out on the server (timeout header 300 s)")
                .hasMessageContaining("Can not commit ABORTED transaction")
                .extracting(e -> ((TransactionException) e).serverStatus()).isEqualTo("FAILED");
        assertThat(fe.requests(COMMIT)).as("an aborted label is not committed again").hasSize(1);
    }

    @Test
    void commitWhoseReplyWasLostSucceedsWhenTheLabelIsVisible() throws Exception {
        fe.on(COMMIT, dropReply());
        fe.on(STATE, state("VISIBLE"));

        client.commit(multi("shared-1"));

        assertThat(fe.requests(COMMIT)).hasSize(1);
        assertThat(fe.requests(STATE)).hasSize(1);
    }

    @Test
    void commitWhoseReplyWasLostFailsWhenTheLabelIsAborted() {
        fe.on(COMMIT, dropReply());
        fe.on(STATE, state("ABORTED"));

        assertThatThrownBy(() -> client.commit(multi("shared-1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("label shared-1 in database shop is ABORTED")
                .hasMessageContaining("I/O error")
                .hasMessageContaining("timed out on the server");
    }

    @Test
    void commitOfAnUnknownLabelFailsNamingTheCause() {
        fe.on(COMMIT, fail("FAILED", "No transaction found with db[shop] and label[l1]"));
        fe.on(STATE, state("UNKNOWN"));

        assertThatThrownBy(() -> client.commit(single("l1")))
                .hasMessageContaining("label l1 in database shop is UNKNOWN")
                .hasMessageContaining("does not know the label");
    }

    @Test
    void commitWhoseLabelIsStillOpenIsSentAgain() throws Exception {
        fe.on(COMMIT, dropReply(), json("{\"Status\":\"OK\",\"Message\":\"Transaction 42 has already committed,"
                + " label is l1\"}"));
        fe.on(STATE, state("PREPARED"));

        client.commit(single("l1"));

        assertThat(fe.requests(COMMIT)).hasSize(2);
        assertThat(retries(FailureClass.LABEL_STILL_OPEN)).isEqualTo(1);
    }

    @Test
    void publishTimeoutFromTheBeSettlesAsCommitted() throws Exception {
        fe.on(COMMIT, fail("PUBLISH_TIMEOUT", "Publish timeout. The data will be visible after a while"));
        fe.on(STATE, state("COMMITTED"));

        client.commit(single("l1"));

        assertThat(fe.requests(STATE)).hasSize(1);
    }

    @Test
    void prepareTxnNotExistsSettlesAsPreparedAfterPollingWhilePrepare() throws Exception {
        fe.on(PREPARE, fail("TXN_NOT_EXISTS", "transaction with label l1 not exists"));
        fe.on(STATE, state("PREPARE"), state("PREPARE"), state("PREPARED"));

        client.prepare(single("l1"));

        assertThat(fe.requests(PREPARE)).hasSize(1);
        assertThat(fe.requests(STATE)).hasSize(3);
        assertThat(ticker.sleeps()).containsExactly(100L, 200L);
    }

    @Test
    void aPlainErrorReplyToPrepareIsSentAgainWithTheNormalBackoffWithoutPolling() throws Exception {
        fe.on(PREPARE, fail("INTERNAL_ERROR", "prepare failed on a backend"), ok());
        fe.on(STATE, state("PREPARE")); // the prepare failed: the label is open, not being prepared

        client.prepare(single("l1"));

        assertThat(fe.requests(PREPARE)).hasSize(2);
        assertThat(fe.requests(STATE)).as("one label-state query, no polling").hasSize(1);
        assertThat(ticker.sleeps()).containsExactly(100L);
        assertThat(retries(FailureClass.LABEL_STILL_OPEN)).isEqualTo(1);
    }

    @Test
    void prepareStuckInPrepareIsBoundedAndFailsNamingTheState() {
        fe.on(PREPARE, fail("TXN_NOT_EXISTS", "transaction with label l1 not exists"));
        fe.on(STATE, state("PREPARE"));

        assertThatThrownBy(() -> client.prepare(single("l1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("prepare of label l1")
                .hasMessageContaining("label state PREPARE")
                .hasMessageContaining("after 4 attempt(s)");
        assertThat(fe.requests(PREPARE)).hasSize(4);
        assertThat(retries(FailureClass.LABEL_STILL_OPEN)).isEqualTo(3);
    }

    @Test
    void prepareDataErrorEndsAbortedWithTheErrorLog() {
        be.on("/api/_load_error_log", FakeStarRocksServer.status(200, "text/plain", "Error: bad date. Row: x\n"));
        fe.on(PREPARE, json("{\"Status\":\"INTERNAL_ERROR\",\"Message\":\"too many filtered rows\",\"ErrorURL\":\"http://"
                + be.address() + "/api/_load_error_log?file=e\"}"));
        fe.on(STATE, state("ABORTED"));

        assertThatThrownBy(() -> client.prepare(single("l1")))
                .hasMessageContaining("is ABORTED")
                .hasMessageContaining("too many filtered rows")
                .hasMessageContaining("Error: bad date");
        assertThat(fe.requests(PREPARE)).hasSize(1);
    }

    @Test
    void prepareWhoseReplyWasLostSucceedsWhenPrepared() throws Exception {
        fe.on(PREPARE, dropReply());
        fe.on(STATE, state("PREPARED"));

        client.prepare(single("l1"));

        assertThat(fe.requests(PREPARE)).hasSize(1);
    }

    @Test
    void rollbackOfAnAlreadyAbortedLabelSucceeds() throws Exception {
        fe.on(ROLLBACK, json("{\"Status\":\"OK\",\"Message\":\"Transaction 42 has already aborted, label is l1\"}"));

        client.rollback(single("l1"));

        assertThat(fe.requests(STATE)).isEmpty();
    }

    @Test
    void rollbackOfAForgottenLabelSettlesAsDone() throws Exception {
        fe.on(ROLLBACK, fail("FAILED", "No transaction found with db[shop] and label[l1]"));
        fe.on(STATE, state("UNKNOWN"));

        client.rollback(single("l1"));

        assertThat(fe.requests(STATE)).hasSize(1);
    }

    @Test
    void rollbackOfACommittedLabelFails() {
        fe.on(ROLLBACK, fail("FAILED", "Can not abort VISIBLE transaction 42, label is l1"));
        fe.on(STATE, state("VISIBLE"));

        assertThatThrownBy(() -> client.rollback(single("l1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("label l1 in database shop is VISIBLE")
                .hasMessageContaining("already committed");
    }

    @Test
    void labelStateReadsLowerCaseKeysAndFailsOnAnUnknownDatabase() throws Exception {
        fe.on(STATE, state("prepared"));
        assertThat(client.labelState("shop", "l1")).isEqualTo(LabelState.PREPARED);

        fe.on("/api/nope/get_load_state", json("{\"status\":\"FAILED\",\"code\":\"1\",\"msg\":\"unknown database,"
                + " database=nope\",\"message\":\"unknown database, database=nope\"}"));
        assertThatThrownBy(() -> client.labelState("nope", "l1"))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("label l1 in database nope")
                .hasMessageContaining("unknown database");
    }

    @Test
    void labelStateIsRetriedAfterALostReply() throws Exception {
        fe.on(STATE, dropReply(), state("VISIBLE"));

        assertThat(client.labelState("shop", "l1")).isEqualTo(LabelState.VISIBLE);
        assertThat(retries(FailureClass.CONNECTION)).isEqualTo(1);
    }

    @Test
    void cancelPostsToTheTableAndAcceptsAnAbortedLabel() throws Exception {
        fe.on("/api/shop/orders/_cancel", json("{\"status\":\"OK\",\"msg\":\"Success\"}"));
        client.cancel("shop", "orders", "l1");
        assertThat(fe.requests("/api/shop/orders/_cancel").get(0).query()).isEqualTo("label=l1");
        assertThat(fe.requests("/api/shop/orders/_cancel").get(0).method()).isEqualTo("POST");

        fe.on("/api/shop/orders/_cancel", json("{\"status\":\"FAILED\",\"msg\":\"transaction already aborted\"}"));
        fe.on(STATE, state("ABORTED"));
        client.cancel("shop", "orders", "l1");

        fe.on(STATE, state("VISIBLE"));
        assertThatThrownBy(() -> client.cancel("shop", "orders", "l1"))
                .hasMessageContaining("label state VISIBLE");
    }

    @Test
    void commitWhoseOutcomeCannotBeSettledSaysSo() {
        fe.on(COMMIT, dropReply());
        fe.on(STATE, FakeStarRocksServer.status(503, "text/plain", "unavailable"));

        assertThatThrownBy(() -> client.commit(single("l1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("outcome of commit of label l1")
                .hasMessageContaining("is unknown")
                .hasMessageContaining("label state could not be read");
        assertThat(fe.requests(COMMIT)).as("an unsettled commit is not blindly re-sent").hasSize(1);
    }

    @Test
    void abortedMultiTableCommitWithoutTimeoutHeaderNamesTheServerDefault() throws Exception {
        fe.on(BEGIN, json("{\"Status\":\"OK\",\"Message\":\"\"}"));
        fe.on(COMMIT, fail("FAILED", "Can not commit CANCELLED transaction 9, label is shared-2"));
        fe.on(STATE, state("ABORTED"));
        client.begin(multi("shared-2"), 0);

        assertThatThrownBy(() -> client.commit(multi("shared-2")))
                .hasMessageContaining("label shared-2 in database shop is ABORTED")
                .hasMessageContaining("20 s multi-table");
    }

    @Test
    void commitTxnNotExistsAfterAnEarlierCommitSettlesAsVisible() throws Exception {
        fe.on(COMMIT, fail("TXN_NOT_EXISTS", "transaction with label l1 not exists"));
        fe.on(STATE, state("VISIBLE"));

        client.commit(single("l1"));

        assertThat(fe.requests(STATE)).hasSize(1);
    }

    @Test
    void commitThatTimesOutIsSettledByLabelState() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        client.close();
        client = new StarRocksTransactionClient(config(fe.address()).socketTimeoutMs(300).build(), metrics, ticker);
        fe.on(COMMIT, FakeStarRocksServer.hangUntil(release));
        fe.on(STATE, state("COMMITTED"));
        try {
            client.commit(single("l1"));
        } finally {
            release.countDown();
        }

        assertThat(fe.requests(COMMIT)).hasSize(1);
        assertThat(fe.requests(STATE)).hasSize(1);
    }
}
