package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.txn.TransactionStatus;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How the engines fail against the emulator when an epoch cannot be prepared or committed: what they leave open on
 * the server, and whether the failure still says that no restart can heal it.
 */
@Timeout(60)
class ExactlyOnceEngineFailureEmulatorTest {
    private static final String RUN_ID = "run1";

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE eo; "
                    + "CREATE TABLE eo.t4 (id BIGINT NOT NULL, qty INT) DUPLICATE KEY (id); "
                    + "CREATE TABLE eo.t5 (id BIGINT NOT NULL, qty INT) DUPLICATE KEY (id)"));

    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final LabelGenerator labels = new LabelGenerator("eo-f", 0, RUN_ID);

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private StarRocksTransactionClient client() {
        StarRocksTransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                .loadUrls(sr.emulator().feUrl()).username("root").maxRetries(1).retryBackoff(1, 2)
                .labelStateTimeoutMs(2_000).build(), metrics);
        toClose.add(client);
        return client;
    }

    private LoadEngineConfig.Builder config(long bufferBytes) {
        return LoadEngineConfig.builder().labelPrefix("eo-f").runId(RUN_ID).scanningFrequencyMs(5)
                .commitIntervalMs(100).bufferSizeBytes(bufferBytes).loadProperty("format", "json")
                .loadProperty("strip_outer_array", "true").loadProperty("strict_mode", "true");
    }

    private SingleTableLoadEngine exactlyOnceEngine(long bufferBytes) {
        SingleTableLoadEngine engine = SingleTableLoadEngine.start(config(bufferBytes).build(), client(), metrics,
                DeliverySemantic.EXACTLY_ONCE, 0);
        toClose.add(engine);
        return engine;
    }

    private static byte[] row(long id, String qty) {
        return ("{\"id\":" + id + ",\"qty\":" + qty + "}").getBytes(StandardCharsets.UTF_8);
    }

    private TransactionStatus state(String table, long checkpoint) {
        return sr.emulator().labelState("eo", labels.exactlyOnceLabel(table, checkpoint));
    }

    /** The data error in the failure's cause chain, or null. */
    private static TransactionException dataError(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TransactionException e && e.failureClass() == FailureClass.DATA_ERROR) {
                return e;
            }
        }
        return null;
    }

    @Test
    void aFailedPrepareRollsBackTheTablesTheEpochAlreadyPrepared() throws Exception {
        SingleTableLoadEngine engine = exactlyOnceEngine(32); // every second row starts a load before the barrier
        engine.write("eo", "t4", row(1, "1"));
        engine.write("eo", "t4", row(2, "1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> state("t4", 1) == TransactionStatus.PREPARE);
        engine.write("eo", "t5", row(3, "2")); // t5 begins after t4: the barrier prepares t4 first
        engine.write("eo", "t5", row(4, "2"));
        await().atMost(Duration.ofSeconds(10)).until(() -> state("t5", 1) == TransactionStatus.PREPARE);
        OpHold t4Prepare = sr.emulator().faults().hold(FaultOp.PREPARE);

        CompletableFuture<List<PreparedTransaction>> barrier = engine.requestPrepare(1);
        assertThat(t4Prepare.awaitArrived(10, TimeUnit.SECONDS)).as("t4's prepare reached the server").isTrue();
        sr.emulator().faults().failNext(FaultOp.PREPARE, 2, "INTERNAL_ERROR", "injected prepare failure");
        t4Prepare.release(); // t4 is PREPARED; t5's prepare and its retry fail

        assertThatThrownBy(() -> barrier.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasStackTraceContaining("injected prepare failure");
        assertThat(sr.emulator().faults().pending(FaultOp.PREPARE)).as("both injected failures hit t5").isZero();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(state("t4", 1)).as("prepared, but no checkpoint will ever hold it")
                    .isEqualTo(TransactionStatus.ABORTED);
            assertThat(state("t5", 1)).as("its prepare failed").isEqualTo(TransactionStatus.ABORTED);
        });
        assertThat(sr.emulator().runningTransactions("eo")).as("running-transaction slots held").isZero();
    }

    @Test
    void aPrepareRefusedForFilteredRowsFailsTheSingleTableEngineWithADataError() throws Exception {
        SingleTableLoadEngine engine = exactlyOnceEngine(1 << 20);
        engine.write("eo", "t4", row(1, "1"));
        engine.write("eo", "t4", row(2, "\"many\"")); // strict mode filters it: the prepare is refused

        assertThatThrownBy(() -> engine.prepare(1)).isInstanceOf(LoadEngineException.class)
                .satisfies(e -> assertThat(dataError(e)).as("DATA_ERROR in the chain of %s", e).isNotNull()
                        .extracting(Throwable::getMessage).asString().contains("too many filtered rows")
                        .doesNotContain("\n"));
        assertThat(state("t4", 1)).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void aCommitRefusedForFilteredRowsFailsTheMultiTableEngineWithADataError() throws Exception {
        MultiTableLoadEngine engine = MultiTableLoadEngine.start(config(1 << 20).build(), client(), metrics);
        toClose.add(engine);
        engine.write(0, "eo", "t4", row(1, "1"));
        engine.write(0, "eo", "t5", row(2, "\"many\"")); // strict mode filters it: the commit is refused
        engine.txnEnd(0);

        assertThatThrownBy(engine::flush).isInstanceOf(LoadEngineException.class)
                .satisfies(e -> assertThat(dataError(e)).as("DATA_ERROR in the chain of %s", e).isNotNull()
                        .extracting(Throwable::getMessage).asString().contains("too many filtered rows")
                        .contains("error log").doesNotContain("\n"));
        assertThat(sr.emulator().rowCount("eo", "t4")).as("the whole transaction is refused").isZero();
    }
}
