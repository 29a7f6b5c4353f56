package io.lockstep.core.client;

import static io.lockstep.core.client.FakeStarRocksServer.dropReply;
import static io.lockstep.core.client.FakeStarRocksServer.json;
import static io.lockstep.core.client.FakeStarRocksServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each retry class is retried on the same label with backoff and counted; data errors are not retried. */
class TransactionRetryTest extends ClientTestSupport {

    @Test
    void txnInProcessingOnLoadIsRetriedOnTheSameLabel() throws Exception {
        fe.on(LOAD, json("{\"Status\":\"TXN_IN_PROCESSING\",\"Label\":\"l1\",\"Message\":\"Transaction is in processing\"}"),
                ok());

        LoadReply reply = client.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(reply.attempts()).isEqualTo(2);
        assertThat(fe.requests(LOAD)).extracting(r -> r.header("label")).containsExactly("l1", "l1");
        assertThat(fe.requests(LOAD)).allSatisfy(r -> assertThat(r.body()).isEqualTo(BODY));
        assertThat(retries(FailureClass.TXN_IN_PROCESSING)).isEqualTo(1);
        assertThat(ticker.sleeps()).containsExactly(100L);
    }

    @Test
    void runningTxnLimitOnBeginIsRetriedWithGrowingBackoff() throws Exception {
        FakeStarRocksServer.Reply limit = fail("ANALYSIS_ERROR",
                "current running txns on db 10012 is 1000, larger than limit 1000");
        fe.on(BEGIN, limit, limit, ok());

        assertThat(client.begin(single("l1"), 600)).isEqualTo(42);

        assertThat(fe.requests(BEGIN)).hasSize(3);
        assertThat(retries(FailureClass.RUNNING_TXN_LIMIT)).isEqualTo(2);
        assertThat(ticker.sleeps()).containsExactly(100L, 200L);
    }

    @Test
    void lockTimeoutOnCommitIsRetried() throws Exception {
        fe.on(COMMIT, fail("FAILED", "get database write lock timeout, database=shop"), ok());

        client.commit(single("l1"));

        assertThat(fe.requests(COMMIT)).hasSize(2);
        assertThat(retries(FailureClass.LOCK_TIMEOUT)).isEqualTo(1);
        assertThat(fe.requests(STATE)).as("a retriable reply needs no label-state query").isEmpty();
    }

    @Test
    void http5xxIsRetried() throws Exception {
        fe.on(BEGIN, status(503, "text/plain", "Service Unavailable"), ok());

        assertThat(client.begin(single("l1"), 0)).isEqualTo(42);

        assertThat(retries(FailureClass.HTTP_5XX)).isEqualTo(1);
    }

    @Test
    void anOutageOfThreeRetriesIsOneWarnLineWhenItStartsAndOneWhenItEnds() throws Exception {
        FakeStarRocksServer.Reply down = status(503, "text/plain", "Service Unavailable");
        fe.on(BEGIN, down, down, down, ok());
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThat(client.begin(single("l1"), 0)).isEqualTo(42);
        } finally {
            System.setErr(original);
        }

        List<String> warnings = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("WARN")).toList();
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0)).contains("is failing (HTTP_5XX): begin").contains("retry 1/3");
        assertThat(warnings.get(1)).contains("answers again after").contains("3 retries in between");
        assertThat(retries(FailureClass.HTTP_5XX)).as("each retry still counted").isEqualTo(3);
    }

    @Test
    void retriesAreBoundedAndTheLastFailureIsNamed() {
        fe.on(LOAD, json("{\"Status\":\"TXN_IN_PROCESSING\",\"Message\":\"Transaction is in processing\"}"));

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("after 4 attempt(s)")
                .hasMessageContaining("TXN_IN_PROCESSING")
                .hasMessageContaining("shop.orders")
                .extracting(e -> ((TransactionException) e).serverStatus()).isEqualTo("TXN_IN_PROCESSING");
        assertThat(fe.requests(LOAD)).hasSize(4);
        assertThat(ticker.sleeps()).containsExactly(100L, 200L, 400L);
    }

    @Test
    void backoffIsCappedAtTheMaximum() throws Exception {
        client.close();
        client = new StarRocksTransactionClient(config(fe.address()).maxRetries(6).retryBackoff(100, 500).build(),
                metrics, ticker);
        FakeStarRocksServer.Reply busy = status(502, "text/plain", "bad gateway");
        fe.on(BEGIN, busy, busy, busy, busy, busy, ok());

        client.begin(single("l1"), 0);

        assertThat(ticker.sleeps()).containsExactly(100L, 200L, 400L, 500L, 500L);
    }

    @Test
    void tooManyFilteredRowsIsNotRetriedAndCarriesTheErrorLog() throws Exception {
        be.on("/api/_load_error_log", status(200, "text/plain",
                "Error: Value count does not match column count. Expect 3, but got 1. Row: 1,alice@example.com\n"));
        String errorUrl = "http://" + be.address() + "/api/_load_error_log?file=error_log_1_2";
        fe.on(LOAD, json("{\"Status\":\"INTERNAL_ERROR\",\"Message\":\"too many filtered rows\","
                + "\"ErrorURL\":\"" + errorUrl + "\"}"));

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("DATA_ERROR")
                .hasMessageContaining("too many filtered rows")
                .hasMessageContaining("error log " + errorUrl)
                .hasMessageContaining("Row: 1,alice@example.com");
        assertThat(fe.requests(LOAD)).hasSize(1);
        assertThat(ticker.sleeps()).isEmpty();
    }

    @Test
    void errorLogIsSanitizedWhenAsked() throws Exception {
        client.close();
        client = new StarRocksTransactionClient(config(fe.address()).sanitizeErrorLog(true).build(), metrics, ticker);
        be.on("/api/_load_error_log", status(200, "text/plain",
                "Error: Value count does not match column count. Expect 3, but got 1. Row: 1,alice@example.com\n"
                        + "Error: column(email) value is null. Row: {\"id\":2,\"email\":null}\n"));
        fe.on(LOAD, json("{\"Status\":\"INTERNAL_ERROR\",\"Message\":\"too many filtered rows\",\"ErrorURL\":\"http://"
                + be.address() + "/api/_load_error_log?file=e\"}"));

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .hasMessageContaining("Value count does not match column count. Expect 3, but got 1. Row: "
                        + ErrorLogExcerpt.REDACTED)
                .hasMessageContaining("column(email) value is null")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("alice@example.com")
                        .doesNotContain("\"id\":2"));
    }

    @Test
    void errorLogExcerptQuotesTheFirstLinesCutShortInOneLine() throws Exception {
        be.on("/api/_load_error_log", status(200, "text/plain", ("Error: bad row. " + "y".repeat(400) + "\n")
                .repeat(2_000)));
        fe.on(LOAD, json("{\"Status\":\"INTERNAL_ERROR\",\"Message\":\"too many filtered rows\",\"ErrorURL\":\"http://"
                + be.address() + "/api/_load_error_log?file=e\"}"));

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("y".repeat(
                        ErrorLogExcerpt.MAX_LINE_CHARS)))
                .satisfies(e -> assertThat(e.getMessage().split("Error: bad row", -1))
                        .hasSize(ErrorLogExcerpt.MAX_LINES + 1))
                .hasMessageContaining("(first " + ErrorLogExcerpt.MAX_LINES + " lines)");
    }

    @Test
    void loadRequestNotEqualLastIsNotRetried() {
        fe.on(LOAD, fail("INTERNAL_ERROR", "load request not equal last."));

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("DATA_ERROR")
                .hasMessageContaining("load request not equal last");
        assertThat(fe.requests(LOAD)).hasSize(1);
    }

    @Test
    void unknownTableOnBeginIsNotRetried() {
        fe.on(BEGIN, fail("ANALYSIS_ERROR", "Unknown table 'orders'"));

        assertThatThrownBy(() -> client.begin(single("l1"), 0))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("DATA_ERROR")
                .hasMessageContaining("Unknown table");
        assertThat(fe.requests(BEGIN)).hasSize(1);
    }

    @Test
    void accessDeniedInTheBodyIsNotRetried() {
        fe.on(BEGIN, fail("ANALYSIS_ERROR", "Access denied; you need (at least one of) the INSERT privilege(s)"));

        assertThatThrownBy(() -> client.begin(single("l1"), 0))
                .hasMessageContaining("ACCESS_DENIED");
        assertThat(fe.requests(BEGIN)).hasSize(1);
    }

    @Test
    void labelAlreadyExistsOnAFirstBeginFails() {
        fe.on(BEGIN, json("{\"Status\":\"LABEL_ALREADY_EXISTS\",\"ExistingJobStatus\":\"RUNNING\","
                + "\"Message\":\"Label [l1] has already been used.\"}"));

        assertThatThrownBy(() -> client.begin(single("l1"), 0))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("has already been used");
    }

    @Test
    void beginWhoseReplyWasLostAcceptsItsOwnOpenLabel() throws Exception {
        fe.on(BEGIN, dropReply(), json("{\"Status\":\"LABEL_ALREADY_EXISTS\",\"ExistingJobStatus\":\"RUNNING\","
                + "\"Message\":\"Label [l1] has already been used.\"}"));

        assertThat(client.begin(single("l1"), 0)).isEqualTo(-1);
        assertThat(retries(FailureClass.CONNECTION)).isEqualTo(1);
    }

    @Test
    void loadWhoseReplyWasLostIsNotReSent() {
        fe.on(LOAD, dropReply(), ok());

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(LoadOutcomeUnknownException.class)
                .hasMessageContaining("outcome unknown")
                .hasMessageContaining("Roll the transaction back");
        assertThat(fe.requests(LOAD)).hasSize(1);
    }

    @Test
    void loadIsRetriedWhenTheBeRedirectTargetRefusesConnections() throws Exception {
        int dead = FakeStarRocksServer.refusedPort();
        fe.on(LOAD, FakeStarRocksServer.redirectTo("127.0.0.1:" + dead), FakeStarRocksServer.redirectTo(be.address()));
        be.on(LOAD, ok());

        LoadReply reply = client.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(reply.attempts()).isEqualTo(2);
        assertThat(be.requests(LOAD)).hasSize(1);
        assertThat(retries(FailureClass.CONNECTION)).isEqualTo(1);
    }

    @Test
    void gatewayErrorOnLoadIsAnUnknownOutcomeNotARetry() {
        fe.on(LOAD, status(504, "text/html", "<html>Gateway Timeout</html>"), ok());

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(LoadOutcomeUnknownException.class)
                .hasMessageContaining("HTTP 504")
                .hasMessageContaining("gateway lost the server's reply");
        assertThat(fe.requests(LOAD)).hasSize(1);
    }

    @Test
    void http500OnLoadIsRetried() throws Exception {
        fe.on(LOAD, status(500, "application/json", "{\"status\":\"FAILED\",\"msg\":\"NullPointerException\"}"),
                ok());

        assertThat(client.load(single("l1"), "orders", BODY, JSON_PROPS).attempts()).isEqualTo(2);
        assertThat(retries(FailureClass.HTTP_5XX)).isEqualTo(1);
    }
}
