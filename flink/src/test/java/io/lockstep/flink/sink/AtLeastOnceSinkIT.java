package io.lockstep.flink.sink;

import static io.lockstep.flink.sink.ShopSinkJobs.count;
import static io.lockstep.flink.sink.ShopSinkJobs.orderTxn;
import static io.lockstep.flink.sink.ShopSinkJobs.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.engine.LoadEngineException;
import java.time.Duration;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The at-least-once single-table sink (one transaction per table and flush) on a MiniCluster against the emulator,
 * loading into two tables of {@code shop} by each row's table ({@code table-name = *}). Each test leaves exactly one
 * trigger able to commit: the end of input, the commit timer, or checkpoints.
 */
class AtLeastOnceSinkIT {
    private static final long ONE_HOUR_MS = 3_600_000;

    @RegisterExtension
    static final MiniClusterExtension FLINK = ShopSinkJobs.miniCluster();

    /** A fresh emulator with the shop tables per test; gates and the job are cleaned up after it. */
    @RegisterExtension
    final ShopJobFixture shop = new ShopJobFixture();

    private StarRocksSinkOptions options(long commitIntervalMs) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", shop.emulator().feUrl())
                .withProperty("database-name", "shop")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.buffer-flush.interval-ms", String.valueOf(commitIntervalMs))
                .withProperty("sink.properties.timeout", "7200")
                .withProperty("sink.properties.format", "json")
                .build();
    }

    private static ScriptSource.Builder orders(int count, int items) {
        ScriptSource.Builder script = ScriptSource.script();
        int[] partitions = ShopSinkJobs.spreadPartitions(2);
        for (int n = 0; n < count; n++) {
            script.emit(orderTxn(partitions[n % 2], n, items));
        }
        return script;
    }

    private JobClient start(ScriptSource source, long commitIntervalMs, long checkpointMs) throws Exception {
        StreamExecutionEnvironment env = ShopSinkJobs.env(checkpointMs);
        ShopSinkJobs.pipeline(env, source, options(commitIntervalMs));
        return shop.start(env, "at-least-once sink IT");
    }

    /** Neither the timer (an hour) nor a checkpoint (none) can commit: finish() at the end of input does. */
    @Test
    void aBoundedJobCommitsEverythingIntoBothTablesWhenItEnds() throws Exception {
        StreamExecutionEnvironment env = ShopSinkJobs.envWithoutCheckpoints();
        ShopSinkJobs.pipeline(env, orders(60, 2).build(), options(ONE_HOUR_MS));
        shop.start(env, "at-least-once end of input");
        ShopSinkJobs.awaitEnd(shop.job());

        assertThat(count(shop.emulator(), "shop.orders")).isEqualTo(60);
        assertThat(count(shop.emulator(), "shop.order_items")).isEqualTo(120);
        assertThat(scalar(shop.emulator(), "SELECT COUNT(DISTINCT order_id) FROM shop.order_items")).isEqualTo(60);
    }

    @Test
    void theCommitTimerMakesRowsVisibleWhileTheJobRuns() throws Exception {
        String hold = shop.newGate("hold");
        start(orders(20, 1).await(hold).build(), 300, 0);

        await().atMost(Duration.ofSeconds(20)).until(() -> count(shop.emulator(), "shop.order_items") == 20);
        assertThat(count(shop.emulator(), "shop.orders")).isEqualTo(20);
        assertThat(shop.job().getJobStatus().get().isGloballyTerminalState()).isFalse();
    }

    @Test
    void checkpointsFlushAndCommitWhatIsBuffered() throws Exception {
        String hold = shop.newGate("hold");
        start(orders(20, 3).await(hold).build(), ONE_HOUR_MS, 200);

        await().atMost(Duration.ofSeconds(20)).until(() -> count(shop.emulator(), "shop.order_items") == 60);
        assertThat(count(shop.emulator(), "shop.orders")).isEqualTo(20);
        assertThat(shop.job().getJobStatus().get().isGloballyTerminalState()).isFalse();
    }

    /**
     * Rows for a table the server does not have: the flush fails on the engine's threads while the source waits, so
     * the only task-thread call left is the checkpoint, which fails naming the table instead of completing.
     */
    @Test
    void aFailedFlushFailsTheNextCheckpointNamingTheTable() throws Exception {
        String hold = shop.newGate("hold");
        ScriptSource source = ScriptSource.script()
                .emit(List.of(TxnRow.data(0, "shop", "refunds", "{\"refund_id\":1}"))).await(hold).build();
        start(source, 300, 300);

        assertThatThrownBy(() -> ShopSinkJobs.awaitEnd(shop.job()))
                .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, LoadEngineException.class))
                        .get().extracting(Throwable::getMessage).asString()
                        .startsWith("checkpoint ").contains("of at-least-once sink subtask", "refunds"));
    }

    /**
     * A good order, then a row the server rejects (a table it does not have), then the input stalls: no further row
     * and no checkpoint will call the sink, yet the task must fail with the load's error (StarRocks connector #377).
     */
    @Test
    void aRejectedRowAtTheEndOfTheInputFailsTheTaskWithoutAnotherRowOrCheckpoint() throws Exception {
        String stall = shop.newGate("stall");
        ScriptSource source = ScriptSource.script()
                .emit(orderTxn(ShopSinkJobs.spreadPartitions(1)[0], 1, 1))
                .emit(List.of(TxnRow.data(ShopSinkJobs.spreadPartitions(1)[0], "shop", "refunds",
                        "{\"refund_id\":1}").withEnd()))
                .await(stall)
                .build();
        start(source, 100, 0);

        assertThatThrownBy(() -> ShopSinkJobs.awaitEnd(shop.job()))
                .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, LoadEngineException.class))
                        .get().extracting(Throwable::getMessage).asString().contains("refunds"));
        assertThat(Gates.reached(stall)).as("the source had emitted everything and was stalled at the gate").isTrue();
    }
}
