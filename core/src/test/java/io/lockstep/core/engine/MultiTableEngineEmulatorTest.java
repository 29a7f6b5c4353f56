package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.ManualClock;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.storage.QueryResult;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The multi-table engine over the real HTTP client against the embedded StarRocks emulator: two source partitions write
 * interleaved source transactions, each one order plus its items in two tables, while a reader queries committed data
 * in snapshots. The reader must never see an order without all its items, nor items without their order (a commit never
 * contains part of a source transaction: docs/architecture.md#the-multi-table-commit-cycle).
 */
@Timeout(120)
class MultiTableEngineEmulatorTest {
    private static final String DDL = """
            CREATE DATABASE shop;
            CREATE TABLE shop.orders (
              order_id BIGINT NOT NULL,
              item_count INT
            ) PRIMARY KEY (order_id)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1
            PROPERTIES ("replication_num" = "1");
            CREATE TABLE shop.order_items (
              order_id BIGINT NOT NULL,
              line_no INT NOT NULL,
              sku VARCHAR(64)
            ) PRIMARY KEY (order_id, line_no)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1
            PROPERTIES ("replication_num" = "1");
            """;
    /** Per order: its item_count and the items present, in one snapshot. */
    private static final String ORDERS_VS_ITEMS = "SELECT o.order_id, o.item_count, "
            + "(SELECT COUNT(*) FROM shop.order_items i WHERE i.order_id = o.order_id) FROM shop.orders o";
    private static final String ORPHAN_ITEMS = "SELECT COUNT(*) FROM shop.order_items i "
            + "WHERE NOT EXISTS (SELECT 1 FROM shop.orders o WHERE o.order_id = i.order_id)";

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void twoPartitionsTimesTwoTablesCommitAtomicallyForAConcurrentReader() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(DDL).build()) {
            sr.start();
            InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
            StarRocksTransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                    .loadUrls(sr.feUrl()).username("root").password("").build(), metrics);
            MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("it")
                    .commitIntervalMs(200).scanningFrequencyMs(5).build(), client, metrics);

            List<String> violations = new CopyOnWriteArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger snapshots = new AtomicInteger();
            AtomicInteger snapshotsWithData = new AtomicInteger();
            Thread reader = new Thread(() -> {
                while (!stop.get()) {
                    QueryResult orders = sr.query(ORDERS_VS_ITEMS);
                    for (List<Object> row : orders.rows()) {
                        long expected = ((Number) row.get(1)).longValue();
                        long present = ((Number) row.get(2)).longValue();
                        if (expected != present) {
                            violations.add("order " + row.get(0) + " has " + present + " of " + expected + " items");
                        }
                    }
                    long orphans = ((Number) sr.query(ORPHAN_ITEMS).rows().get(0).get(0)).longValue();
                    if (orphans != 0) {
                        violations.add(orphans + " items without their order");
                    }
                    if (!orders.rows().isEmpty()) {
                        snapshotsWithData.incrementAndGet();
                    }
                    snapshots.incrementAndGet();
                }
            }, "snapshot-reader");
            reader.start();

            int orders = 300;
            int items = 0;
            try {
                // partitions 0 and 1 interleave: both open a source transaction, then both end it
                for (int n = 0; n < orders; n += 2) {
                    for (int partition = 0; partition < 2; partition++) {
                        long orderId = n + partition;
                        engine.write(partition, "shop", "orders",
                                json("{\"order_id\":" + orderId + ",\"item_count\":" + (orderId % 3) + "}"));
                    }
                    for (int partition = 0; partition < 2; partition++) {
                        long orderId = n + partition;
                        for (int line = 0; line < orderId % 3; line++) { // some source transactions skip order_items
                            engine.write(partition, "shop", "order_items", json("{\"order_id\":" + orderId
                                    + ",\"line_no\":" + line + ",\"sku\":\"sku-" + orderId + "-" + line + "\"}"));
                            items++;
                        }
                    }
                    engine.txnEnd(0);
                    engine.txnEnd(1);
                    if (n % 60 == 58) {
                        // let a timer-driven commit land while the reader runs (no checkpoint involved)
                        long commits = metrics.count(MetricNames.COMMITS);
                        await().atMost(Duration.ofSeconds(30))
                                .until(() -> metrics.count(MetricNames.COMMITS) > commits);
                    }
                }
                engine.flush();
            } finally {
                stop.set(true);
                reader.join(30_000);
                engine.close();
                client.close();
            }

            assertThat(violations).isEmpty();
            assertThat(snapshotsWithData.get()).as("the reader saw committed data while loading").isPositive();
            assertThat(sr.rowCount("shop", "orders")).isEqualTo(orders);
            assertThat(sr.rowCount("shop", "order_items")).isEqualTo(items);
            assertThat(metrics.count(MetricNames.COMMITS)).as("several commit cycles").isGreaterThanOrEqualTo(5);
            assertThat(engine.bufferedBytes()).isZero();
        }
    }

    @Test
    void anExpiredSharedTransactionFailsLoudlyAtTheNextCall() throws Exception {
        ManualClock serverClock = new ManualClock();
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(DDL).clock(serverClock).build()) {
            sr.start();
            InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
            StarRocksTransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                    .loadUrls(sr.feUrl()).username("root").password("").maxRetries(0).build(), metrics);
            // a long commit interval: the first label, opened for the first row, stays open while the server's clock
            // passes its timeout
            MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().minLoadRowBytes(0).labelPrefix("exp")
                    .database("shop").commitIntervalMs(60_000).serverTimeoutSeconds(600).scanningFrequencyMs(5)
                    .build(), client, metrics);
            try {
                engine.write(0, "shop", "orders", json("{\"order_id\":1,\"item_count\":0}"));
                engine.txnEnd(0);
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> metrics.tableCount(MetricNames.LOADS, "shop", "orders") == 1);
                String label = engine.currentTransaction().label();
                serverClock.advance(Duration.ofSeconds(601));
                sr.tick(); // the server aborts the expired transaction

                engine.write(0, "shop", "orders", json("{\"order_id\":3,\"item_count\":0}"));
                engine.txnEnd(0); // the load under the expired label fails on the manager thread
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> engine.transactionState() == SharedTransactionState.FAILED);
                assertThatThrownBy(() -> engine.write(0, "shop", "orders", json("{\"order_id\":2,\"item_count\":0}")))
                        .isInstanceOf(LoadEngineException.class).hasMessageContaining(label)
                        .hasMessageContaining("shop.orders");
                assertThatThrownBy(engine::flush).isInstanceOf(LoadEngineException.class);
                assertThat(sr.rowCount("shop", "orders")).isZero();
            } finally {
                engine.close();
                client.close();
            }
        }
    }
}
