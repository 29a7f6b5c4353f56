package io.lockstep.core.client;

import static io.lockstep.core.client.FakeStarRocksServer.dropReply;
import static io.lockstep.core.client.FakeStarRocksServer.json;
import static io.lockstep.core.client.FakeStarRocksServer.redirectTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Classic stream load: success allow-list, label dedup, retry after a lost reply, data errors. */
class StarRocksStreamLoaderTest extends ClientTestSupport {
    private static final String PATH = "/api/shop/orders/_stream_load";
    private StarRocksStreamLoader loader;

    @BeforeEach
    void startLoader() {
        loader = new StarRocksStreamLoader(config(fe.address()).build(), metrics, ticker);
    }

    @AfterEach
    void closeLoader() {
        loader.close();
    }

    @Test
    void loadIsRedirectedToTheBeWithLabelBodyAndExpectContinue() throws Exception {
        fe.on(PATH, redirectTo(be.address()));
        be.on(PATH, json("{\"TxnId\":3,\"Label\":\"c1\",\"Status\":\"Success\",\"Message\":\"OK\",\"LoadBytes\":19}"));

        LoadReply reply = loader.load("shop", "orders", "c1", BODY, JSON_PROPS);

        assertThat(reply).isEqualTo(new LoadReply(19, 1));
        FakeStarRocksServer.Request atBe = be.requests(PATH).get(0);
        assertThat(atBe.method()).isEqualTo("PUT");
        assertThat(atBe.header("label")).isEqualTo("c1");
        assertThat(atBe.header("Expect")).isEqualToIgnoringCase("100-continue");
        assertThat(atBe.header("strip_outer_array")).isEqualTo("true");
        assertThat(atBe.body()).isEqualTo(BODY);
    }

    @Test
    void publishTimeoutCountsAsLoaded() throws Exception {
        fe.on(PATH, json("{\"Status\":\"Publish Timeout\",\"Message\":\"publish timeout\"}"));

        assertThat(loader.load("shop", "orders", "c1", BODY, JSON_PROPS).attempts()).isEqualTo(1);
    }

    @Test
    void lostReplyIsReSentAndTheFinishedLabelIsSuccess() throws Exception {
        fe.on(PATH, dropReply(), json("{\"Status\":\"Label Already Exists\",\"ExistingJobStatus\":\"FINISHED\","
                + "\"Message\":\"Label [c1] has already been used.\"}"));

        LoadReply reply = loader.load("shop", "orders", "c1", BODY, JSON_PROPS);

        assertThat(reply.attempts()).isEqualTo(2);
        assertThat(fe.requests(PATH)).hasSize(2);
        assertThat(retries(FailureClass.CONNECTION)).isEqualTo(1);
        assertThat(fe.requests(PATH)).allSatisfy(r -> assertThat(r.header("label")).isEqualTo("c1"));
    }

    @Test
    void runningLabelIsRetriedUntilFinished() throws Exception {
        FakeStarRocksServer.Reply running = json("{\"Status\":\"Label Already Exists\",\"ExistingJobStatus\":"
                + "\"RUNNING\",\"Message\":\"Label [c1] has already been used.\"}");
        fe.on(PATH, running, json("{\"Status\":\"Label Already Exists\",\"ExistingJobStatus\":\"FINISHED\"}"));

        assertThat(loader.load("shop", "orders", "c1", BODY, JSON_PROPS).attempts()).isEqualTo(2);
        assertThat(retries(FailureClass.LABEL_STILL_OPEN)).isEqualTo(1);
    }

    @Test
    void failWithFilteredRowsIsNotRetriedAndCarriesTheSanitizedLog() {
        loader.close();
        loader = new StarRocksStreamLoader(config(fe.address()).sanitizeErrorLog(true).build(), metrics, ticker);
        be.on("/api/_load_error_log", FakeStarRocksServer.status(200, "text/plain",
                "Error: Value count does not match column count. Row: secret-value\n"));
        fe.on(PATH, json("{\"Status\":\"Fail\",\"Message\":\"too many filtered rows\",\"ErrorURL\":\"http://"
                + be.address() + "/api/_load_error_log?file=e\"}"));

        assertThatThrownBy(() -> loader.load("shop", "orders", "c1", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("DATA_ERROR")
                .hasMessageContaining("Value count does not match column count")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret-value"));
        assertThat(fe.requests(PATH)).hasSize(1);
    }
}
