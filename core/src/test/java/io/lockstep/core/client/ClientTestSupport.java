package io.lockstep.core.client;

import io.lockstep.core.metrics.InMemoryLoadMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Shared set-up: a fake FE and BE, a fake ticker, in-memory metrics, and a client on the FE. */
abstract class ClientTestSupport {
    static final String USER = "loader";
    static final String PASSWORD = "s3cret-pw";
    static final String BEGIN = "/api/transaction/begin";
    static final String LOAD = "/api/transaction/load";
    static final String PREPARE = "/api/transaction/prepare";
    static final String COMMIT = "/api/transaction/commit";
    static final String ROLLBACK = "/api/transaction/rollback";
    static final String STATE = "/api/shop/get_load_state";
    static final Map<String, String> JSON_PROPS = Map.of("format", "json", "strip_outer_array", "true");
    static final byte[] BODY = "[{\"id\":1},{\"id\":2}]".getBytes(StandardCharsets.UTF_8);

    FakeStarRocksServer fe;
    FakeStarRocksServer be;
    RecordingTicker ticker;
    InMemoryLoadMetrics metrics;
    StarRocksTransactionClient client;

    @BeforeEach
    void startServers() throws IOException {
        fe = FakeStarRocksServer.start();
        be = FakeStarRocksServer.start();
        ticker = new RecordingTicker();
        metrics = new InMemoryLoadMetrics();
        client = newClient(fe.address());
    }

    @AfterEach
    void stopServers() {
        client.close();
        fe.close();
        be.close();
    }

    StarRocksTransactionClient newClient(String loadUrl) {
        return new StarRocksTransactionClient(config(loadUrl).build(), metrics, ticker);
    }

    static TransactionClientConfig.Builder config(String loadUrl) {
        return TransactionClientConfig.builder()
                .loadUrls(loadUrl)
                .username(USER)
                .password(PASSWORD)
                .connectTimeoutMs(2_000)
                .socketTimeoutMs(10_000)
                .waitForContinueTimeoutMs(1_000)
                .maxRetries(3)
                .retryBackoff(100, 1_000)
                .labelStateTimeoutMs(5_000);
    }

    static TransactionRef single(String label) {
        return TransactionRef.singleTable("shop", "orders", label);
    }

    static TransactionRef multi(String label) {
        return TransactionRef.multiTable("shop", label);
    }

    static FakeStarRocksServer.Reply ok() {
        return FakeStarRocksServer.json("{\"Status\":\"OK\",\"Message\":\"\",\"TxnId\":42,\"Label\":\"l1\"}");
    }

    static FakeStarRocksServer.Reply fail(String status, String message) {
        return FakeStarRocksServer.json("{\"Status\":\"" + status + "\",\"Message\":\"" + message + "\"}");
    }

    /** A get_load_state reply in the FE's lower-case REST shape (docs/protocol.md#labels-and-label-state). */
    static FakeStarRocksServer.Reply state(String state) {
        return FakeStarRocksServer.json("{\"state\":\"" + state + "\",\"status\":\"OK\",\"code\":\"0\","
                + "\"msg\":\"Success\",\"message\":\"OK\"}");
    }

    long retries(FailureClass failureClass) {
        return metrics.count("retries." + failureClass.name());
    }
}
