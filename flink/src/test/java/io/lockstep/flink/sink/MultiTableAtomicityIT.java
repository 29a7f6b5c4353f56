package io.lockstep.flink.sink;

import static io.lockstep.flink.sink.ShopSinkJobs.count;
import static io.lockstep.flink.sink.ShopSinkJobs.multiTableOptions;
import static io.lockstep.flink.sink.ShopSinkJobs.orderTxn;
import static io.lockstep.flink.sink.ShopSinkJobs.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Atomicity of the multi-table sink across tables, and its one-database rule, on a MiniCluster against the
 * emulator.
 */
class MultiTableAtomicityIT {
    @RegisterExtension
    static final MiniClusterExtension FLINK = ShopSinkJobs.miniCluster();

    /** A fresh emulator with the shop tables per test; gates and the job are cleaned up after it. */
    @RegisterExtension
    final ShopJobFixture shop = new ShopJobFixture();

    /**
     * 4 partitions × 200 transactions of 1 order + 3 items, paced by a reader that samples both tables in one
     * snapshot between batches: no sample ever shows an order without all its items, or items without their order.
     */
    @Test
    void aSamplingReaderNeverSeesPartOfATransaction() throws Exception {
        String prefix = Gates.newName("batch");
        PacedOrderSource source = new PacedOrderSource(ShopSinkJobs.spreadPartitions(4), 200, 3, 10, prefix);
        for (int b = 0; b < source.batches(); b++) {
            shop.gate(PacedOrderSource.gateName(prefix, b));
        }
        StreamExecutionEnvironment env = ShopSinkJobs.env(500);
        env.addSource(source, "paced").setParallelism(1)
                .keyBy(DefaultStarRocksRowData::getSourcePartition)
                .addSink(com.starrocks.connector.flink.table.sink.SinkFunctionFactory.createSinkFunction(
                        multiTableOptions(shop.emulator(), 100).build()));
        shop.start(env, "atomic visibility");

        AtomicVisibilityReader reader = new AtomicVisibilityReader(shop.emulator(), 3, prefix);
        await().pollInterval(Duration.ofMillis(100)).atMost(Duration.ofSeconds(90)).until(() -> {
            reader.sample();
            return shop.job().getJobStatus().get().isGloballyTerminalState();
        });
        ShopSinkJobs.awaitEnd(shop.job());
        reader.sample();

        assertThat(reader.violations()).isEmpty();
        assertThat(reader.samplesInProgress()).as("samples that saw committed data")
                .isGreaterThan(source.batches() / 4);
        assertThat(count(shop.emulator(), "shop.orders")).isEqualTo(800);
        assertThat(count(shop.emulator(), "shop.order_items")).isEqualTo(2400);
        assertThat(scalar(shop.emulator(), "SELECT COUNT(*) FROM shop.orders o WHERE (SELECT COUNT(*) FROM "
                + "shop.order_items i WHERE i.order_id = o.order_id) <> 3")).isZero();
    }

    /** One source transaction writes shop.orders and audit.events: the job fails naming both databases. */
    @Test
    void aWriteToASecondDatabaseFailsTheJobClearly() throws Exception {
        List<TxnRow> txn = new ArrayList<>(orderTxn(0, 1, 0));
        txn.set(0, new TxnRow(0, "shop", "orders", txn.get(0).json(), false));
        txn.add(TxnRow.data(0, "audit", "events", "{\"event_id\":1,\"note\":\"order 1 placed\"}").withEnd());
        ScriptSource source = ScriptSource.script().emit(orderTxn(0, 0, 1)).emit(txn).build();
        StreamExecutionEnvironment env = ShopSinkJobs.env(60_000);
        ShopSinkJobs.pipeline(env, source, multiTableOptions(shop.emulator(), 100).build());
        shop.start(env, "cross-database");

        assertThatThrownBy(() -> ShopSinkJobs.awaitEnd(shop.job()))
                .satisfies(e -> assertThat(ExceptionUtils.findThrowableWithMessage(e, "cross-database write refused"))
                        .get().extracting(Throwable::getMessage).asString()
                        .contains("audit.events", "database 'audit'", "database 'shop'",
                                "a StarRocks multi-table transaction covers one database"));
        assertThat(count(shop.emulator(), "audit.events")).isZero();
        assertThat(scalar(shop.emulator(), "SELECT COUNT(*) FROM shop.orders WHERE order_id = 1"))
                .as("nothing of the refused transaction").isZero();
    }

    /**
     * A checkpoint barrier that reaches the sink while a source transaction is open (the source released its
     * checkpoint lock mid-transaction) fails the checkpoint, naming the partition; with no tolerated checkpoint
     * failures the job fails, and the open transaction's rows are not visible.
     */
    @Test
    void aCheckpointInTheMiddleOfASourceTransactionFailsNamingThePartition() throws Exception {
        String hold = shop.newGate("hold");
        ScriptSource source = ScriptSource.script()
                .emit(ShopSinkJobs.openOrderTxn(2, 7, 1))
                .await(hold)
                .build();
        StreamExecutionEnvironment env = ShopSinkJobs.env(200);
        ShopSinkJobs.pipeline(env, source, multiTableOptions(shop.emulator(), 100).build());
        shop.start(env, "checkpoint mid-transaction");

        assertThatThrownBy(() -> ShopSinkJobs.awaitEnd(shop.job()))
                .satisfies(e -> assertThat(ExceptionUtils.findThrowableWithMessage(e, "flush refused"))
                        .get().extracting(Throwable::getMessage).asString()
                        .contains("multi-table sink subtask " + ShopSinkJobs.sinkSubtaskOf(2),
                                "source partitions [2] are in the middle of a source transaction"));
        assertThat(count(shop.emulator(), "shop.orders")).isZero();
    }
}
