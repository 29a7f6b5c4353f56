package io.lockstep.flink.sink;

import static io.lockstep.flink.sink.ShopSinkJobs.awaitEnd;
import static io.lockstep.flink.sink.ShopSinkJobs.count;
import static io.lockstep.flink.sink.ShopSinkJobs.multiTableOptions;
import static io.lockstep.flink.sink.ShopSinkJobs.openOrderTxn;
import static io.lockstep.flink.sink.ShopSinkJobs.orderTxn;
import static io.lockstep.flink.sink.ShopSinkJobs.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.emulator.StarRocksEmulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-table sink on a MiniCluster (sink parallelism 2, checkpoints on) against the in-JVM emulator: what
 * becomes visible, when, and together with what. Visibility waits are generous Awaitility bounds; ordering is
 * proven by witnesses (a later commit on the same subtask), not by time.
 */
class MultiTableSinkIT {
    private static final long COMMIT_INTERVAL_MS = 300;
    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(20);

    @RegisterExtension
    static final MiniClusterExtension FLINK = ShopSinkJobs.miniCluster();

    /** A fresh emulator with the shop tables per test; gates and the job are cleaned up after it. */
    @RegisterExtension
    final ShopJobFixture shop = new ShopJobFixture();

    private StarRocksEmulator emulator() {
        return shop.emulator();
    }

    private JobClient start(ScriptSource source, long commitIntervalMs, long checkpointMs) throws Exception {
        StreamExecutionEnvironment env = ShopSinkJobs.env(checkpointMs);
        ShopSinkJobs.pipeline(env, source, multiTableOptions(emulator(), commitIntervalMs).build());
        return shop.start(env, "multi-table sink IT");
    }

    @Test
    void multiPartitionTransactionsLandInBothTablesExactlyOnceEach() throws Exception {
        int[] partitions = ShopSinkJobs.spreadPartitions(4);
        assertThat(Arrays.stream(partitions).map(ShopSinkJobs::sinkSubtaskOf).distinct().count())
                .as("both sink subtasks load").isEqualTo(2);
        ScriptSource.Builder script = ScriptSource.script();
        for (int n = 0; n < 25; n++) {
            for (int p : partitions) {
                script.emit(orderTxn(p, p * 1_000_000L + n, 2));
            }
        }

        awaitEnd(start(script.build(), COMMIT_INTERVAL_MS, 200));

        assertThat(count(emulator(), "shop.orders")).isEqualTo(100);
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(200);
        assertThat(scalar(emulator(), "SELECT COUNT(DISTINCT order_id) FROM shop.orders")).isEqualTo(100);
        assertThat(scalar(emulator(), "SELECT COUNT(DISTINCT source_partition) FROM shop.orders")).isEqualTo(4);
        assertThat(scalar(emulator(), "SELECT SUM(quantity) FROM shop.order_items")).isEqualTo(100 * (1 + 2));
        assertThat(scalar(emulator(), "SELECT COUNT(*) FROM shop.orders o WHERE (SELECT COUNT(*) FROM "
                + "shop.order_items i WHERE i.order_id = o.order_id) <> 2")).isZero();
        assertThat(emulator().queryPortLogins()).as("sink subtask 0 probed jdbc-url (MySQL Connector/J) on the"
                + " emulator's query port").isEqualTo(1);
    }

    /**
     * Partition a's rows stay invisible while its transaction is open, even after a commit cycle that came later on
     * the same sink subtask (partition b's transaction, the witness), and become visible after the end row.
     */
    @Test
    void noDataIsVisibleBeforeTheTransactionEndAndAllOfItSoonAfter() throws Exception {
        int[] ab = ShopSinkJobs.partitionsOnOneSubtask(2);
        String endA = shop.newGate("end-a");
        String hold = shop.newGate("hold");
        List<TxnRow> rows = new ArrayList<>(openOrderTxn(ab[0], 1, 3));
        rows.addAll(orderTxn(ab[1], 2, 1));
        ScriptSource source = ScriptSource.script()
                .emitAroundGateHoldingLock(rows, endA, List.of(TxnRow.endOnly(ab[0])))
                .await(hold)
                .build();
        start(source, COMMIT_INTERVAL_MS, 200);

        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.orders") >= 1);
        assertThat(scalar(emulator(), "SELECT COUNT(*) FROM shop.orders WHERE order_id = 1"))
                .as("open transaction of partition %s is not visible", ab[0]).isZero();
        assertThat(count(emulator(), "shop.order_items")).as("only the witness's item").isEqualTo(1);

        Gates.open(endA);
        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.order_items") == 4);
        assertThat(count(emulator(), "shop.orders")).isEqualTo(2);
        assertThat(shop.job().getJobStatus().get().isGloballyTerminalState())
                .as("visible by the commit timer, the job still runs").isFalse();
    }

    @Test
    void consecutiveTransactionsAreCommittedSeparately() throws Exception {
        String second = shop.newGate("second");
        String third = shop.newGate("third");
        String hold = shop.newGate("hold");
        ScriptSource source = ScriptSource.script()
                .emit(orderTxn(0, 1, 2)).await(second)
                .emit(orderTxn(0, 2, 2)).await(third)
                .emit(orderTxn(0, 3, 2)).await(hold)
                .build();
        start(source, COMMIT_INTERVAL_MS, 0);

        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.orders") == 1);
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(2);
        Gates.open(second);
        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.orders") == 2);
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(4);
        Gates.open(third);
        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.orders") == 3);
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(6);
    }

    /** A source transaction with no rows (only its end mark), on a partition with and without earlier data. */
    @Test
    void anEmptyTransactionCommitsNothingAndBlocksNothing() throws Exception {
        String hold = shop.newGate("hold");
        ScriptSource source = ScriptSource.script()
                .emit(List.of(TxnRow.endOnly(3)))
                .emit(orderTxn(0, 1, 1))
                .emit(List.of(TxnRow.endOnly(0)))
                .emit(orderTxn(0, 2, 1))
                .await(hold)
                .build();
        start(source, COMMIT_INTERVAL_MS, 200);

        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.orders") == 2);
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(2);
        Gates.open(hold);
        awaitEnd(shop.job());
        assertThat(count(emulator(), "shop.orders")).isEqualTo(2);
    }

    /** Partition a stays open while partition b (same sink subtask) commits three transactions one by one. */
    @Test
    void aPartitionInTheMiddleOfATransactionDoesNotBlockAnothersCommits() throws Exception {
        int[] ab = ShopSinkJobs.partitionsOnOneSubtask(2);
        String endA = shop.newGate("end-a");
        List<TxnRow> rows = new ArrayList<>(openOrderTxn(ab[0], 100, 2));
        for (int n = 1; n <= 3; n++) {
            rows.addAll(orderTxn(ab[1], n, 1));
        }
        ScriptSource source = ScriptSource.script()
                .emitAroundGateHoldingLock(rows, endA, List.of(TxnRow.endOnly(ab[0]))).build();
        start(source, COMMIT_INTERVAL_MS, 200);

        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.orders") == 3);
        assertThat(scalar(emulator(), "SELECT COUNT(*) FROM shop.orders WHERE order_id = 100")).isZero();
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(3);

        Gates.open(endA);
        awaitEnd(shop.job());
        assertThat(count(emulator(), "shop.orders")).isEqualTo(4);
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(5);
    }

    /** The commit timer is an hour away: only checkpoints (flushes of the engine) can make the rows visible. */
    @Test
    void checkpointsCommitWhatIsBuffered() throws Exception {
        String hold = shop.newGate("hold");
        ScriptSource source = ScriptSource.script()
                .emit(orderTxn(0, 1, 2)).emit(orderTxn(1, 2, 2)).emit(orderTxn(2, 3, 2))
                .await(hold)
                .build();
        StreamExecutionEnvironment env = ShopSinkJobs.env(200);
        ShopSinkJobs.pipeline(env, source, multiTableOptions(emulator(), 3_600_000)
                .withProperty("sink.properties.timeout", "7200").build());
        shop.start(env, "checkpoint-driven flush");

        await().atMost(VISIBLE_WITHIN).until(() -> count(emulator(), "shop.order_items") == 6);
        assertThat(count(emulator(), "shop.orders")).isEqualTo(3);
        assertThat(shop.job().getJobStatus().get().isGloballyTerminalState()).as("committed while running").isFalse();
    }

    /** Neither the timer (an hour) nor a checkpoint (none) can commit: finish() at the end of input does. */
    @Test
    void aBoundedJobCommitsEverythingWhenItEnds() throws Exception {
        ScriptSource.Builder script = ScriptSource.script();
        int[] partitions = ShopSinkJobs.spreadPartitions(4);
        for (int n = 0; n < 10; n++) {
            script.emit(orderTxn(partitions[n % 4], n, 3));
        }
        StreamExecutionEnvironment env = ShopSinkJobs.envWithoutCheckpoints();
        ShopSinkJobs.pipeline(env, script.build(), multiTableOptions(emulator(), 3_600_000)
                .withProperty("sink.properties.timeout", "7200").build());
        shop.start(env, "finish commits");
        awaitEnd(shop.job());

        assertThat(count(emulator(), "shop.orders")).isEqualTo(10);
        assertThat(count(emulator(), "shop.order_items")).isEqualTo(30);
    }
}
