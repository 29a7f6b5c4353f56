package io.lockstep.core.restart;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.txn.TransactionStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link EarlierRunSettlement} against the emulator: an earlier run's labels after its settled cycle are walked,
 * committed ones are left alone and the walk goes past them, the open one is rolled back; runs without a known
 * database and this run itself are not touched.
 */
class EarlierRunSettlementTest {
    private static final Map<String, String> JSON = Map.of("format", "json", "strip_outer_array", "true");

    private StarRocksEmulator sr;
    private StarRocksTransactionClient client;
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();

    @BeforeEach
    void start() throws Exception {
        sr = StarRocksEmulator.builder().ddl("CREATE DATABASE rel; CREATE TABLE rel.orders (id BIGINT) "
                + "DUPLICATE KEY (id)").build().start();
        client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                .loadUrls(sr.feUrl().replace("http://", "")).username("root").password("").maxRetries(0).build(),
                metrics, Ticker.system());
    }

    @AfterEach
    void stop() {
        client.close();
        sr.close();
    }

    /** Begins {@code label}, loads one row, and commits it when {@code commit}. */
    private void run(String label, long id, boolean commit) throws Exception {
        TransactionRef txn = TransactionRef.multiTable("rel", label);
        client.begin(txn, 600);
        client.load(txn, "orders", ("[{\"id\":" + id + "}]").getBytes(StandardCharsets.UTF_8), JSON);
        if (commit) {
            client.commit(txn);
        }
    }

    private EarlierRunSettlement settlement() {
        return new EarlierRunSettlement(new SharedLabelWalk(client, Ticker.system(), metrics, 10_000, false));
    }

    @Test
    void committedLabelsAfterTheCheckpointAreLeftAndTheOpenOneIsRolledBack() throws Exception {
        LabelGenerator earlier = new LabelGenerator("p", 1, "old1");
        run(earlier.sharedLabel(1), 1, true); // finished at the checkpoint
        run(earlier.sharedLabel(2), 2, true); // a timer commit after it
        run(earlier.sharedLabel(3), 3, false); // open when the run died

        List<SharedLabelRun> walked = settlement().settle(List.of(
                new MultiTableRunState("p", 1, "old1", "rel", 1),
                new MultiTableRunState("p", 1, "old1", "rel", 1), // a union state may repeat it
                new MultiTableRunState("p", 0, "gone", null, 0),
                new MultiTableRunState("p", 2, "mine", "rel", 0)), "mine", "test subtask");

        assertThat(walked).singleElement().satisfies(run -> {
            assertThat(run.runId()).isEqualTo("old1");
            assertThat(run.lastCommittedCycle()).isEqualTo(2);
            assertThat(run.open()).isEmpty();
        });
        assertThat(sr.labelState("rel", earlier.sharedLabel(3))).isEqualTo(TransactionStatus.ABORTED);
        assertThat(sr.labelState("rel", earlier.sharedLabel(2))).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(sr.rowCount("rel", "orders")).isEqualTo(2);
        assertThat(sr.runningTransactions("rel")).isZero();
        assertThat(metrics.count(MetricNames.SETTLED_TRANSACTIONS)).isEqualTo(1);
    }
}
