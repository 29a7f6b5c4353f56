package io.lockstep.flink.sink;

import static io.lockstep.flink.sink.ShopSinkJobs.count;
import static io.lockstep.flink.sink.ShopSinkJobs.multiTableOptions;
import static io.lockstep.flink.sink.ShopSinkJobs.orderTxn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** How the multi-table sink fails: asynchronous load failures at the next checkpoint, open transactions at the end. */
class SinkFailureIT {
    @RegisterExtension
    static final MiniClusterExtension FLINK = ShopSinkJobs.miniCluster();

    /** A fresh emulator with the shop tables per test; gates and the job are cleaned up after it. */
    @RegisterExtension
    final ShopJobFixture shop = new ShopJobFixture();

    /**
     * A transaction into a table the server does not have: its load fails on the engine's I/O thread while the source
     * waits, so no row will call into the sink again; the job must fail with the load's error (through the next
     * checkpoint or the engine-failure watch, whichever runs first) instead of completing a checkpoint over a lost
     * load.
     */
    @Test
    void aFailedLoadFailsTheNextCheckpointNamingTheTable() throws Exception {
        String hold = shop.newGate("hold");
        List<TxnRow> txn = List.of(TxnRow.data(0, "shop", "refunds", "{\"refund_id\":1}").withEnd());
        ScriptSource source = ScriptSource.script().emit(txn).await(hold).build();
        StreamExecutionEnvironment env = ShopSinkJobs.env(300);
        ShopSinkJobs.pipeline(env, source, multiTableOptions(shop.emulator(), 100).build());
        shop.start(env, "failed load");

        assertThatThrownBy(() -> ShopSinkJobs.awaitEnd(shop.job()))
                .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, LoadEngineException.class))
                        .get().extracting(Throwable::getMessage).asString()
                        .satisfiesAnyOf(
                                // the checkpoint came first
                                m -> assertThat(m).startsWith("checkpoint ").contains(
                                        "of multi-table sink subtask " + ShopSinkJobs.sinkSubtaskOf(0) + " failed"),
                                // the engine-failure watch came first (it fails the task within 200 ms)
                                m -> assertThat(m).startsWith("call refused: the engine failed earlier: "))
                        .contains("refunds")
                        .contains("DATA_ERROR"));
    }

    /**
     * The input ends while partition 3 is inside a source transaction: finish() refuses to commit half of it and
     * the job fails naming the partition; the complete transaction before it was committed by the timer.
     */
    @Test
    void inputEndingInsideASourceTransactionFailsTheJobNamingThePartition() throws Exception {
        String hold = shop.newGate("hold");
        ScriptSource source = ScriptSource.script()
                .emit(orderTxn(3, 1, 1))
                .emitAroundGateHoldingLock(ShopSinkJobs.openOrderTxn(3, 2, 1), hold, List.of())
                .build();
        StreamExecutionEnvironment env = ShopSinkJobs.envWithoutCheckpoints();
        ShopSinkJobs.pipeline(env, source, multiTableOptions(shop.emulator(), 100).build());
        shop.start(env, "input ends mid-transaction");
        await().atMost(Duration.ofSeconds(20)).until(() -> count(shop.emulator(), "shop.orders") == 1);
        Gates.open(hold);

        assertThatThrownBy(() -> ShopSinkJobs.awaitEnd(shop.job()))
                .satisfies(e -> assertThat(ExceptionUtils.findThrowableWithMessage(e, "end of input"))
                        .get().extracting(Throwable::getMessage).asString()
                        .contains("source partitions [3] are in the middle of a source transaction"));
        assertThat(count(shop.emulator(), "shop.orders")).isEqualTo(1);
        assertThat(count(shop.emulator(), "shop.order_items")).isEqualTo(1);
    }

    /**
     * Cancelling a job whose shared transaction holds loaded, uncommitted rows (the commit timer is an hour away, no
     * checkpoints): close() rolls it back ("user abort" on the server, not a timeout or a failed load), nothing
     * becomes visible, and no transaction is left open.
     */
    @Test
    void cancellingRollsBackTheOpenSharedTransaction() throws Exception {
        String hold = shop.newGate("hold");
        ScriptSource source = ScriptSource.script().emit(orderTxn(0, 1, 2)).await(hold).build();
        // No checkpoints here: Flink takes the first one after a random delay, and it would commit the rows.
        StreamExecutionEnvironment env = ShopSinkJobs.envWithoutCheckpoints();
        ShopSinkJobs.pipeline(env, source, multiTableOptions(shop.emulator(), 3_600_000)
                .withProperty("sink.properties.timeout", "7200").build());
        shop.start(env, "cancel with an open transaction");
        AtomicReference<String> label = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            JsonNode open = liveTransactions();
            if (open.size() == 1 && open.get(0).path("NumberLoadedRows").asLong() == 3) {
                label.set(open.get(0).path("Label").asText());
                return true;
            }
            return false;
        });

        shop.job().cancel().get();

        await().atMost(Duration.ofSeconds(20)).until(() -> liveTransactions().isEmpty());
        TransactionSnapshot txn = shop.emulator().transaction("shop", label.get()).orElseThrow();
        assertThat(txn.status()).isEqualTo(TransactionStatus.ABORTED);
        assertThat(txn.reason()).isEqualTo("user abort");
        assertThat(count(shop.emulator(), "shop.orders")).isZero();
        assertThat(count(shop.emulator(), "shop.order_items")).isZero();
    }

    /** The BE's live load contexts ({@code POST /api/transaction/list}), one per open transaction. */
    private JsonNode liveTransactions() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(shop.emulator().beUrl() + "/api/transaction/list"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        "root:".getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        String body = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
        return new ObjectMapper().readTree(body);
    }
}
