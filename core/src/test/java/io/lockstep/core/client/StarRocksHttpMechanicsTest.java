package io.lockstep.core.client;

import static io.lockstep.core.client.FakeStarRocksServer.json;
import static io.lockstep.core.client.FakeStarRocksServer.redirectTo;
import static io.lockstep.core.client.FakeStarRocksServer.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Redirects, failover, headers, access denied and unreadable replies of the StarRocks HTTP dialect. */
class StarRocksHttpMechanicsTest extends ClientTestSupport {
    private static final String EXPECTED_AUTH = "Basic " + Base64.getEncoder()
            .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));

    @Test
    void loadFollowsRedirectReSendingMethodBodyAndCredentials() throws Exception {
        fe.on(LOAD, redirectTo(be.address()));
        be.on(LOAD, json("{\"Status\":\"OK\",\"Message\":\"\",\"Label\":\"l1\",\"TxnId\":42,\"LoadBytes\":17}"));

        LoadReply reply = client.load(single("l1"), "orders", BODY, JSON_PROPS);

        assertThat(reply).isEqualTo(new LoadReply(17, 1));
        FakeStarRocksServer.Request atBe = be.requests(LOAD).get(0);
        assertThat(atBe.method()).isEqualTo("PUT");
        assertThat(atBe.body()).isEqualTo(BODY);
        assertThat(atBe.header("Authorization")).isEqualTo(EXPECTED_AUTH);
        assertThat(atBe.header("Expect")).isEqualToIgnoringCase("100-continue");
        assertThat(atBe.header("label")).isEqualTo("l1");
        assertThat(atBe.header("db")).isEqualTo("shop");
        assertThat(atBe.header("table")).isEqualTo("orders");
        assertThat(atBe.header("format")).isEqualTo("json");
        assertThat(atBe.header("transaction_type")).isNull();
        assertThat(fe.requests(LOAD).get(0).header("Authorization")).isEqualTo(EXPECTED_AUTH);
    }

    @Test
    void followsTwoHopsFollowerToLeaderToBe() throws Exception {
        try (FakeStarRocksServer leader = FakeStarRocksServer.start()) {
            fe.on(BEGIN, redirectTo(leader.address()));
            leader.on(BEGIN, redirectTo(be.address()));
            be.on(BEGIN, ok());

            long txnId = client.begin(single("l1"), 600);

            assertThat(txnId).isEqualTo(42);
            FakeStarRocksServer.Request atBe = be.requests(BEGIN).get(0);
            assertThat(atBe.method()).isEqualTo("POST");
            assertThat(atBe.header("Authorization")).isEqualTo(EXPECTED_AUTH);
            assertThat(atBe.header("timeout")).isEqualTo("600");
            assertThat(leader.requests(BEGIN)).hasSize(1);
        }
    }

    @Test
    void loadBodyIsReSentOnEveryHopOfATwoHopRedirect() throws Exception {
        try (FakeStarRocksServer leader = FakeStarRocksServer.start()) {
            fe.on(LOAD, redirectTo(leader.address()));
            leader.on(LOAD, redirectTo(be.address()));
            be.on(LOAD, ok());

            client.load(single("l1"), "orders", BODY, JSON_PROPS);

            assertThat(be.requests(LOAD).get(0).body()).isEqualTo(BODY);
            assertThat(be.requests(LOAD).get(0).header("Authorization")).isEqualTo(EXPECTED_AUTH);
        }
    }

    @Test
    void endlessRedirectsFailNamingTheHops() {
        fe.on(BEGIN, redirectTo(fe.address()));

        assertThatThrownBy(() -> client.begin(single("l1"), 0))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("still redirects after " + StarRocksHttp.MAX_REDIRECT_HOPS + " hops");
    }

    @Test
    void failsOverToTheSecondUrlWhenTheFirstRefusesConnections() throws Exception {
        int dead = FakeStarRocksServer.refusedPort();
        client.close();
        client = newClient("127.0.0.1:" + dead + ";http://" + fe.address());
        fe.on(BEGIN, ok());
        fe.on(COMMIT, ok());

        assertThat(client.begin(single("l1"), 0)).isEqualTo(42);
        client.commit(single("l1"));

        assertThat(fe.requests(BEGIN)).hasSize(1);
        assertThat(fe.requests(COMMIT)).hasSize(1);
        assertThat(retries(FailureClass.CONNECTION)).as("failover is not a retry").isZero();
        assertThat(ticker.sleeps()).isEmpty();
    }

    @Test
    void allUrlsRefusingIsRetriedThenFailsNamingTheUrl() throws Exception {
        int dead = FakeStarRocksServer.refusedPort();
        client.close();
        client = newClient("127.0.0.1:" + dead);

        assertThatThrownBy(() -> client.begin(single("l1"), 0))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("begin of label l1")
                .hasMessageContaining("after 4 attempt(s)")
                .hasMessageContaining("127.0.0.1:" + dead)
                .hasMessageContaining("CONNECTION");
        assertThat(retries(FailureClass.CONNECTION)).isEqualTo(3);
        assertThat(ticker.sleeps()).containsExactly(100L, 200L, 400L);
    }

    @Test
    void multiTableOpsCarryTransactionTypeAndBeginHasNoTable() throws Exception {
        fe.on(BEGIN, json("{\"Status\":\"OK\",\"Message\":\"\"}"));
        fe.on(LOAD, ok());
        fe.on(COMMIT, ok());
        fe.on(ROLLBACK, ok());
        TransactionRef txn = multi("shared-1");

        assertThat(client.begin(txn, 0)).isEqualTo(-1);
        client.load(txn, "orders", BODY, JSON_PROPS);
        client.load(txn, "items", BODY, JSON_PROPS);
        client.commit(txn);
        client.rollback(txn);

        FakeStarRocksServer.Request begin = fe.requests(BEGIN).get(0);
        assertThat(begin.header("transaction_type")).isEqualTo("multi");
        assertThat(begin.header("table")).isNull();
        assertThat(begin.header("timeout")).isNull();
        List<FakeStarRocksServer.Request> loads = fe.requests(LOAD);
        assertThat(loads).extracting(r -> r.header("table")).containsExactly("orders", "items");
        assertThat(loads).allSatisfy(r -> assertThat(r.header("transaction_type")).isEqualTo("multi"));
        assertThat(fe.requests(COMMIT).get(0).header("transaction_type")).isEqualTo("multi");
        assertThat(fe.requests(COMMIT).get(0).header("table")).isNull();
        assertThat(fe.requests(ROLLBACK).get(0).header("transaction_type")).isEqualTo("multi");
    }

    @Test
    void multiTablePrepareIsRejectedWithoutARequest() {
        assertThatThrownBy(() -> client.prepare(multi("shared-1")))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("not supported");
        assertThat(fe.requests()).isEmpty();
    }

    @Test
    void singleTableLoadIntoAnotherTableIsRefused() {
        assertThatThrownBy(() -> client.load(single("l1"), "items", BODY, JSON_PROPS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("items");
    }

    @Test
    void http401IsAccessDeniedNotRetriedAndNeverShowsThePassword() {
        fe.on(BEGIN, status(401, "application/json",
                "{\"status\":\"FAILED\",\"code\":\"1\",\"msg\":\"Access denied for user\",\"message\":\"Access denied\"}"));

        assertThatThrownBy(() -> client.begin(single("l1"), 0))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("ACCESS_DENIED")
                .hasMessageContaining("HTTP 401")
                .hasMessageContaining("username '" + USER + "'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(PASSWORD)
                        .doesNotContain(EXPECTED_AUTH.substring(6)));
        assertThat(fe.requests(BEGIN)).hasSize(1);
        assertThat(ticker.sleeps()).isEmpty();
    }

    @Test
    void nonJsonReplyFailsNamingTheUrlAndTheFirstBytes() {
        fe.on(BEGIN, status(200, "text/html", "<html><body>proxy says hello</body></html>"));

        assertThatThrownBy(() -> client.begin(single("l1"), 0))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("http://" + fe.address() + BEGIN)
                .hasMessageContaining("non-JSON")
                .hasMessageContaining("<html><body>proxy says hello");
        assertThat(fe.requests(BEGIN)).hasSize(1);
    }

    @Test
    void repliesAreDecodedCaseInsensitively() throws Exception {
        fe.on(BEGIN, json("{\"status\":\"ok\",\"msg\":\"\",\"txnid\":\"7\"}"));

        assertThat(client.begin(single("l1"), 0)).isEqualTo(7);
    }

    @Test
    void configToStringMasksThePassword() {
        assertThat(config(fe.address()).build().toString()).contains("password=******").doesNotContain(PASSWORD);
    }

    @Test
    void loadsFromSeveralThreadsAtOnceAllArrive() throws Exception {
        fe.on(LOAD, redirectTo(be.address()));
        be.on(LOAD, ok());
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<LoadReply>> replies = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                TransactionRef txn = single("l" + i);
                replies.add(threads.submit(() -> client.load(txn, "orders", BODY, JSON_PROPS)));
            }
            for (Future<LoadReply> reply : replies) {
                assertThat(reply.get(30, TimeUnit.SECONDS).attempts()).isEqualTo(1);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(be.requests(LOAD)).hasSize(64).allSatisfy(r -> assertThat(r.body()).isEqualTo(BODY));
        assertThat(be.requests(LOAD)).extracting(r -> r.header("label")).doesNotHaveDuplicates();
    }

    @Test
    void aRedirectToAnUnreachableAdvertisedAddressNamesTheRedirectingFeAndTheOptionThatMapsIt() throws Exception {
        String advertised = unusedAddress();
        fe.on(LOAD, redirectTo(advertised));

        assertThatThrownBy(() -> client.load(single("l1"), "orders", BODY, JSON_PROPS))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("http://" + fe.address() + LOAD + " redirected the request to " + advertised)
                .hasMessageContaining("sink.be-address-map=" + advertised + "=<reachable-host>:<port>");
    }

    @Test
    void theAddressMapSendsARedirectToTheReachableAddress() throws Exception {
        String advertised = unusedAddress();
        fe.on(LOAD, redirectTo(advertised));
        be.on(LOAD, json("{\"Status\":\"OK\",\"Message\":\"\",\"Label\":\"l1\",\"TxnId\":42,\"LoadBytes\":17}"));
        client.close();
        client = new StarRocksTransactionClient(config(fe.address())
                .redirectAddressMap(AddressMap.parse(advertised + "=" + be.address(), "sink.be-address-map")).build(),
                metrics, ticker);

        assertThat(client.load(single("l1"), "orders", BODY, JSON_PROPS)).isEqualTo(new LoadReply(17, 1));
        assertThat(be.requests(LOAD)).hasSize(1).allSatisfy(r -> assertThat(r.body()).isEqualTo(BODY));
    }

    @Test
    void aMalformedAddressMapIsRefusedNamingTheEntry() {
        assertThatThrownBy(() -> AddressMap.parse("be1:8040=localhost", "sink.be-address-map"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sink.be-address-map: 'localhost' in entry 'be1:8040=localhost' is not host:port");
        assertThat(AddressMap.parse(" ", "sink.be-address-map").isEmpty()).isTrue();
    }

    private static String unusedAddress() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
