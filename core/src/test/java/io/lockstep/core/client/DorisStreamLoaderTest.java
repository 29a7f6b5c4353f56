package io.lockstep.core.client;

import static io.lockstep.core.client.FakeStarRocksServer.dropReply;
import static io.lockstep.core.client.FakeStarRocksServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Doris stream load without 2PC (at-least-once): label dedup on retries
 * (docs/protocol.md#doris-states-labels-and-timers).
 */
class DorisStreamLoaderTest extends ClientTestSupport {
    static final String DORIS_LOAD = "/api/shop/orders/_stream_load";

    DorisStreamLoader loader;

    @BeforeEach
    void startLoader() {
        loader = new DorisStreamLoader(config(fe.address()).build(), metrics, ticker);
    }

    @AfterEach
    void stopLoader() {
        loader.close();
    }

    static FakeStarRocksServer.Reply reply(String status, String existing) {
        return json("{\"TxnId\":5,\"Label\":\"c1\",\"TwoPhaseCommit\":\"false\",\"Status\":\"" + status + "\","
                + (existing == null ? "" : "\"ExistingJobStatus\":\"" + existing + "\",")
                + "\"Message\":\"OK\",\"LoadBytes\":19}");
    }

    @Test
    void aLoadCommitsByItselfWithoutTwoPhaseCommit() throws Exception {
        fe.on(DORIS_LOAD, reply("Success", null));

        LoadReply r = loader.load("shop", "orders", "c1", BODY,
                Map.of("format", "json", "two_phase_commit", "true", "timeout", "600"));

        assertThat(r.loadBytes()).isEqualTo(19);
        FakeStarRocksServer.Request sent = fe.requests(DORIS_LOAD).get(0);
        assertThat(sent.header("label")).isEqualTo("c1");
        assertThat(sent.header("two_phase_commit")).isNull();
        assertThat(sent.header("timeout")).isEqualTo("600");
    }

    @Test
    void aLostReplyWhoseLabelIsVisibleIsSettledWithoutASecondLoad() throws Exception {
        fe.on(DORIS_LOAD, dropReply());
        fe.on(STATE, DorisTransactionClientTest.dorisState("VISIBLE"));

        loader.load("shop", "orders", "c1", BODY, Map.of());

        assertThat(fe.requests(DORIS_LOAD)).hasSize(1);
        assertThat(fe.requests(STATE)).hasSize(1);
    }

    @Test
    void aLostReplyWhoseLabelAbortedIsSentAgainUnderTheSameLabel() throws Exception {
        fe.on(DORIS_LOAD, dropReply(), reply("Success", null));
        fe.on(STATE, DorisTransactionClientTest.dorisState("ABORTED"));

        loader.load("shop", "orders", "c1", BODY, Map.of());

        assertThat(fe.requests(DORIS_LOAD)).hasSize(2)
                .allSatisfy(r -> assertThat(r.header("label")).isEqualTo("c1"));
    }

    @Test
    void aRetryAnsweredFinishedIsTheEarlierAttempt() throws Exception {
        fe.on(DORIS_LOAD, status(502), reply("Label Already Exists", "FINISHED"));
        fe.on(STATE, DorisTransactionClientTest.dorisState("UNKNOWN"));

        loader.load("shop", "orders", "c1", BODY, Map.of());

        assertThat(fe.requests(DORIS_LOAD)).hasSize(2);
    }

    private static FakeStarRocksServer.Reply status(int code) {
        return FakeStarRocksServer.status(code, "text/html", "<html>gateway</html>");
    }

    @Test
    void aRunningLabelIsWaitedForAndPublishTimeoutIsSuccess() throws Exception {
        fe.on(DORIS_LOAD, reply("Label Already Exists", "RUNNING"), reply("Publish Timeout", null));

        loader.load("shop", "orders", "c1", BODY, Map.of());

        assertThat(retries(FailureClass.LABEL_STILL_OPEN)).isEqualTo(1);
    }

    @Test
    void aLabelHeldByATwoPhaseTransactionFails() {
        fe.on(DORIS_LOAD, reply("Label Already Exists", "PRECOMMITTED"));

        assertThatThrownBy(() -> loader.load("shop", "orders", "c1", BODY, Map.of()))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("PRECOMMITTED")
                .hasMessageContaining("sink.label-prefix");
    }
}
