package io.lockstep.core.client;

import static io.lockstep.core.client.FakeStarRocksServer.dropReply;
import static io.lockstep.core.client.FakeStarRocksServer.json;
import static io.lockstep.core.client.FakeStarRocksServer.redirectTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Doris dialect against a scripted FE and BE (docs/protocol.md#apache-doris-stream-load-with-two-phase-commit). */
class DorisTransactionClientTest extends ClientTestSupport {
    static final String DORIS_LOAD = "/api/shop/orders/_stream_load";
    static final String TWO_PC = "/api/shop/_stream_load_2pc";

    DorisTransactionClient doris;

    @BeforeEach
    void startDoris() {
        doris = new DorisTransactionClient(config(fe.address()).build(), metrics, ticker);
    }

    @AfterEach
    void stopDoris() {
        doris.close();
    }

    static FakeStarRocksServer.Reply preCommitted(String label, long txnId) {
        return json("{\"TxnId\":" + txnId + ",\"Label\":\"" + label + "\",\"Comment\":\"\",\"TwoPhaseCommit\":\"true\","
                + "\"Status\":\"Success\",\"Message\":\"OK\",\"NumberTotalRows\":2,\"NumberLoadedRows\":2,"
                + "\"LoadBytes\":19,\"CommitAndPublishTimeMs\":0}\n");
    }

    static FakeStarRocksServer.Reply labelExists(String label, String existing, long txnId) {
        return json("{\"TxnId\":0,\"Label\":\"" + label + "\",\"TwoPhaseCommit\":\"true\",\"Status\":\"Label Already"
                + " Exists\",\"ExistingJobStatus\":\"" + existing + "\",\"Message\":\"[LABEL_ALREADY_EXISTS]Label ["
                + label + "] has already been used, relate to txn [" + txnId + "]\",\"NumberLoadedRows\":0}");
    }

    static FakeStarRocksServer.Reply twoPc(String status, String msg) {
        return json("{\"status\":\"" + status + "\",\"msg\":\"" + msg + "\"}");
    }

    static FakeStarRocksServer.Reply dorisState(String state) {
        return json("{\"msg\":\"success\",\"code\":0,\"data\":\"" + state + "\",\"count\":0}");
    }

    @Test
    void loadIsOneTwoPhaseStreamLoadRedirectedToTheBeWithLabelAndTimeout() throws Exception {
        fe.on(DORIS_LOAD, redirectTo(be.address()));
        be.on(DORIS_LOAD, preCommitted("l1", 42));

        assertThat(doris.begin(single("l1"), 300)).isEqualTo(-1);
        assertThat(fe.requests()).as("begin sends nothing").isEmpty();
        LoadReply reply = doris.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(reply.loadBytes()).isEqualTo(19);
        FakeStarRocksServer.Request sent = be.requests(DORIS_LOAD).get(0);
        assertThat(sent.method()).isEqualTo("PUT");
        assertThat(sent.header("label")).isEqualTo("l1");
        assertThat(sent.header("two_phase_commit")).isEqualTo("true");
        assertThat(sent.header("timeout")).isEqualTo("300");
        assertThat(sent.header("format")).isEqualTo("json");
        assertThat(sent.header("expect")).isEqualTo("100-continue");
        assertThat(sent.bodyText()).isEqualTo(new String(BODY));
        assertThat(fe.requests(DORIS_LOAD)).as("the load went to the FE first, which redirected it").hasSize(1);
    }

    @Test
    void aReplyWithoutTwoPhaseCommitFailsBecauseTheLoadIsAlreadyCommitted() {
        fe.on(DORIS_LOAD, json("{\"TxnId\":42,\"Label\":\"l1\",\"TwoPhaseCommit\":\"false\",\"Status\":\"Success\","
                + "\"Message\":\"OK\"}"));

        assertThatThrownBy(() -> doris.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("WITHOUT two-phase commit")
                .hasMessageContaining("label l1");
    }

    @Test
    void aLoadWhoseReplyIsLostSettlesAsPreCommittedByLabelState() throws Exception {
        fe.on(DORIS_LOAD, dropReply());
        fe.on(STATE, dorisState("PRECOMMITTED"));

        doris.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(fe.requests(DORIS_LOAD)).hasSize(1);
        assertThat(fe.requests(STATE)).hasSize(1);
        assertThat(fe.requests(STATE).get(0).query()).isEqualTo("label=l1");
    }

    @Test
    void aLoadWhoseReplyIsLostAndWhoseLabelAbortedIsSentAgainUnderTheSameLabel() throws Exception {
        fe.on(DORIS_LOAD, dropReply(), preCommitted("l1", 43));
        fe.on(STATE, dorisState("ABORTED"));

        doris.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(fe.requests(DORIS_LOAD)).hasSize(2)
                .allSatisfy(r -> assertThat(r.header("label")).isEqualTo("l1"));
        assertThat(retries(FailureClass.CONNECTION)).isEqualTo(1);
    }

    @Test
    void aRetriedLoadAnsweredLabelAlreadyExistsPreCommittedIsTheEarlierAttempt() throws Exception {
        fe.on(DORIS_LOAD, status502(), labelExists("l1", "PRECOMMITTED", 42));
        fe.on(STATE, dorisState("UNKNOWN"));

        doris.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(fe.requests(DORIS_LOAD)).hasSize(2);
        assertThat(fe.requests(TWO_PC)).as("its own transaction is never aborted").isEmpty();
    }

    @Test
    void labelAlreadyExistsOnAFirstAttemptAbortsTheOrphanByTxnIdAndLoadsAgain() throws Exception {
        fe.on(DORIS_LOAD, labelExists("l1", "PRECOMMITTED", 77), preCommitted("l1", 78));
        fe.on(TWO_PC, twoPc("Success", "transaction [77] abort successfully."));

        doris.load(single("l1"), "orders", BODY, JSON_PROPS);

        FakeStarRocksServer.Request abort = fe.requests(TWO_PC).get(0);
        assertThat(abort.method()).isEqualTo("PUT");
        assertThat(abort.header("txn_id")).isEqualTo("77");
        assertThat(abort.header("txn_operation")).isEqualTo("abort");
        assertThat(fe.requests(DORIS_LOAD)).hasSize(2);
    }

    @Test
    void labelAlreadyExistsFinishedFailsNamingTheLabelPrefix() {
        fe.on(DORIS_LOAD, labelExists("l1", "FINISHED", 77));

        assertThatThrownBy(() -> doris.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("already committed")
                .hasMessageContaining("txn 77")
                .hasMessageContaining("sink.label-prefix");
        assertThat(fe.requests(TWO_PC)).isEmpty();
    }

    @Test
    void aDataErrorFailsAtOnce() {
        fe.on(DORIS_LOAD, json("{\"TxnId\":42,\"Label\":\"l1\",\"TwoPhaseCommit\":\"true\",\"Status\":\"Fail\","
                + "\"Message\":\"[DATA_QUALITY_ERROR]too many filtered rows\",\"NumberFilteredRows\":2}"));

        assertThatThrownBy(() -> doris.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("DATA_ERROR")
                .hasMessageContaining("too many filtered rows");
        assertThat(fe.requests(DORIS_LOAD)).hasSize(1);
    }

    @Test
    void theRunningTransactionLimitIsRetriedWithBackoff() throws Exception {
        fe.on(DORIS_LOAD, json("{\"Status\":\"Fail\",\"Message\":\"current running txns on db 10001 is 100, larger"
                + " than limit 100\"}"), preCommitted("l1", 42));

        doris.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(retries(FailureClass.RUNNING_TXN_LIMIT)).isEqualTo(1);
        assertThat(ticker.sleeps()).containsExactly(100L);
    }

    @Test
    void commitGoesByLabelThroughTheFeToWhicheverBeItRedirectsTo() throws Exception {
        fe.on(TWO_PC, redirectTo(be.address()));
        be.on(TWO_PC, twoPc("Success", "label [l1] commit successfully."));

        doris.commit(single("l1"));

        FakeStarRocksServer.Request first = fe.requests(TWO_PC).get(0);
        assertThat(first.method()).isEqualTo("PUT");
        assertThat(first.header("label")).isEqualTo("l1");
        assertThat(first.header("txn_operation")).isEqualTo("commit");
        assertThat(first.header("txn_id")).isNull();
        assertThat(be.requests(TWO_PC)).hasSize(1);
    }

    @Test
    void committingAnAlreadyVisibleLabelSucceedsByLabelState() throws Exception {
        fe.on(TWO_PC, twoPc("ANALYSIS_ERROR", "errCode = 2, detailMessage = transaction [42] is already visible, not"
                + " pre-committed."));
        fe.on(STATE, dorisState("VISIBLE"));

        doris.commit(single("l1"));

        assertThat(fe.requests(TWO_PC)).hasSize(1);
        assertThat(fe.requests(STATE)).hasSize(1);
    }

    @Test
    void aCommitWhoseReplyIsLostSettlesByLabelState() throws Exception {
        fe.on(TWO_PC, dropReply());
        fe.on(STATE, dorisState("COMMITTED"));

        doris.commit(single("l1"));

        assertThat(fe.requests(TWO_PC)).hasSize(1);
    }

    @Test
    void aCommitWhoseLabelIsStillPreCommittedIsSentAgain() throws Exception {
        fe.on(TWO_PC, dropReply(), twoPc("Success", "label [l1] commit successfully."));
        fe.on(STATE, dorisState("PRECOMMITTED"));

        doris.commit(single("l1"));

        assertThat(fe.requests(TWO_PC)).hasSize(2);
        assertThat(retries(FailureClass.LABEL_STILL_OPEN)).isEqualTo(1);
    }

    @Test
    void committingAnAbortedLabelFailsNamingThePreCommitTimeout() {
        fe.on(TWO_PC, twoPc("Fail", "transaction [42] is already aborted. abort reason: timeout by txn manager"));
        fe.on(STATE, dorisState("ABORTED"));

        assertThatThrownBy(() -> doris.commit(single("l1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("label l1 in database shop is ABORTED")
                .hasMessageContaining("stream_load_default_precommit_timeout_second");
    }

    @Test
    void abortingAnUnknownLabelSucceedsAndACommittedOneFails() throws Exception {
        fe.on(TWO_PC, twoPc("Fail", "transaction not found, label=l1"));
        fe.on(STATE, dorisState("UNKNOWN"));
        doris.rollback(single("l1"));
        assertThat(fe.requests(TWO_PC).get(0).header("txn_operation")).isEqualTo("abort");

        fe.on(TWO_PC, twoPc("Fail", "transaction [42] is already COMMITTED, could not abort."));
        fe.on(STATE, dorisState("VISIBLE"));
        assertThatThrownBy(() -> doris.rollback(single("l2")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("is VISIBLE")
                .hasMessageContaining("cannot be aborted");
    }

    @Test
    void cancelAbortsByLabel() throws Exception {
        fe.on(TWO_PC, twoPc("Success", "label [l1] abort successfully."));

        doris.cancel("shop", "orders", "l1");

        assertThat(fe.requests(TWO_PC).get(0).header("label")).isEqualTo("l1");
        assertThat(fe.requests(TWO_PC).get(0).header("txn_operation")).isEqualTo("abort");
    }

    @Test
    void labelStateReadsTheFeEnvelopeAndMapsPreCommitted() throws Exception {
        fe.on(STATE, dorisState("PRECOMMITTED"), dorisState("VISIBLE"),
                json("{\"msg\":\"Error\",\"code\":1,\"data\":\"unknown database shop\",\"count\":0}"));

        assertThat(doris.labelState("shop", "l1")).isEqualTo(LabelState.PREPARED);
        assertThat(doris.labelState("shop", "l1")).isEqualTo(LabelState.VISIBLE);
        assertThatThrownBy(() -> doris.labelState("shop", "l1"))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("unknown database shop");
    }

    @Test
    void prepareOnlyChecksThatTheLabelIsPreCommitted() throws Exception {
        fe.on(STATE, dorisState("PRECOMMITTED"));
        doris.prepare(single("l1"));
        assertThat(fe.requests(TWO_PC)).isEmpty();

        fe.on(STATE, dorisState("ABORTED"));
        assertThatThrownBy(() -> doris.prepare(single("l1")))
                .hasMessageContaining("is ABORTED, not PRECOMMITTED");
    }

    @Test
    void multiTableTransactionsAreRefused() {
        assertThatThrownBy(() -> doris.begin(multi("m1"), 60))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no multi-table transaction");
    }

    @Test
    void thePasswordNeverAppearsInFailures() {
        fe.on(DORIS_LOAD, json("{\"status\":\"FAILED\",\"msg\":\"Access denied for user loader\"}"));

        assertThatThrownBy(() -> doris.load(single("l1"), "orders", BODY, Map.of()))
                .hasMessageContaining("ACCESS_DENIED")
                .hasMessageNotContaining(PASSWORD);
    }

    private static FakeStarRocksServer.Reply status502() {
        return FakeStarRocksServer.status(502, "text/html", "<html>bad gateway</html>");
    }
}
