package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.client.DorisTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.doris.DorisTxnStatus;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The single-table engine with {@link LoadMethod#TWO_PHASE_STREAM_LOAD} (a real manager thread, the Doris client)
 * against the emulator's Doris mode. DUPLICATE KEY tables keep every row sent, so a row loaded twice would show.
 */
@Timeout(60)
class SingleTableTwoPhaseEmulatorTest {
    private static final String DDL = "CREATE DATABASE shop; "
            + "CREATE TABLE shop.orders (id INT, note VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1; "
            + "CREATE TABLE shop.events (id INT, note VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1";
    private static final String RUN_ID = "run1";

    private DorisEmulator doris;
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final LabelGenerator labels = new LabelGenerator("dx", 0, RUN_ID);

    @BeforeEach
    void startEmulator() throws Exception {
        doris = DorisEmulator.builder().ddl(DDL).build().start();
        toClose.add(doris);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private SingleTableLoadEngine engine(long bufferBytes) {
        DorisTransactionClient client = new DorisTransactionClient(TransactionClientConfig.builder()
                .loadUrls(doris.feHostPort()).username("root").maxRetries(5).retryBackoff(1, 5).build(), metrics);
        toClose.add(client);
        SingleTableLoadEngine engine = SingleTableLoadEngine.start(LoadEngineConfig.builder()
                .labelPrefix("dx").runId(RUN_ID).scanningFrequencyMs(5).bufferSizeBytes(bufferBytes)
                .loadMethod(LoadMethod.TWO_PHASE_STREAM_LOAD).loadProperty("format", "json")
                .loadProperty("strip_outer_array", "true").build(), client, metrics,
                DeliverySemantic.EXACTLY_ONCE, 0);
        toClose.add(engine);
        return engine;
    }

    private static byte[] row(int id) {
        return ("{\"id\":" + id + ",\"note\":\"n" + id + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCheckpointPreCommitsEachTableOnceAndItsCommitMakesEveryRowVisibleOnce() throws Exception {
        SingleTableLoadEngine engine = engine(1 << 20);
        for (int id = 0; id < 10; id++) {
            engine.write("shop", id % 2 == 0 ? "orders" : "events", row(id));
        }

        List<PreparedTransaction> prepared = engine.prepare(1);

        assertThat(prepared).extracting(PreparedTransaction::label).containsExactlyInAnyOrder(
                labels.exactlyOnceFlushLabel("orders", 1, 1), labels.exactlyOnceFlushLabel("events", 1, 1));
        assertThat(doris.labelState("shop", labels.exactlyOnceFlushLabel("orders", 1, 1)))
                .isEqualTo(DorisTxnStatus.PRECOMMITTED);
        assertThat(doris.rowCount("shop", "orders")).as("invisible before the commit").isZero();

        engine.requestCommit(prepared).get();

        assertThat(doris.rowCount("shop", "orders")).isEqualTo(5);
        assertThat(doris.rowCount("shop", "events")).isEqualTo(5);
    }

    @Test
    void pressureFlushesBecomeSeveralTransactionsOfTheEpochAndCloseAbortsTheNextEpochs() throws Exception {
        SingleTableLoadEngine engine = engine(64);
        for (int id = 0; id < 20; id++) {
            engine.write("shop", "orders", row(id));
        }
        List<PreparedTransaction> prepared = engine.prepare(1);
        assertThat(prepared).as("the 64-byte buffer flushed several times").hasSizeGreaterThan(1);
        engine.requestCommit(prepared).get();
        assertThat(doris.rowCount("shop", "orders")).isEqualTo(20);

        for (int id = 20; id < 30; id++) {
            engine.write("shop", "orders", row(id));
        }
        String pending = labels.exactlyOnceFlushLabel("orders", 2, 1);
        org.awaitility.Awaitility.await().until(() -> doris.labelState("shop", pending) == DorisTxnStatus.PRECOMMITTED);
        engine.close();

        assertThat(doris.labelState("shop", pending)).as("never handed to a checkpoint: aborted at close")
                .isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.rowCount("shop", "orders")).isEqualTo(20);
    }
}
