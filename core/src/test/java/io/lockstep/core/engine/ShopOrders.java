package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.storage.QueryResult;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The shop schema of the engine's emulator tests (PRIMARY KEY orders and order_items) and its source transactions:
 * order {@code n} is one source transaction of one order row plus {@value #ITEMS_PER_ORDER} item rows, written by
 * source partition {@code n % 2}; the two partitions interleave their rows.
 */
final class ShopOrders {
    static final int ITEMS_PER_ORDER = 3;
    static final String DDL = """
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
    private static final String ORDERS = "SELECT order_id, item_count FROM shop.orders ORDER BY order_id";
    private static final String ITEMS = "SELECT order_id, line_no, sku FROM shop.order_items ORDER BY order_id, line_no";
    private static final String ORDERS_VS_ITEMS = "SELECT o.order_id, o.item_count, "
            + "(SELECT COUNT(*) FROM shop.order_items i WHERE i.order_id = o.order_id) FROM shop.orders o";
    private static final String ORPHAN_ITEMS = "SELECT COUNT(*) FROM shop.order_items i "
            + "WHERE NOT EXISTS (SELECT 1 FROM shop.orders o WHERE o.order_id = i.order_id)";

    private ShopOrders() {
    }

    /**
     * Writes the source transactions of orders {@code from} (even) to {@code to} (exclusive, even): per pair, both
     * partitions write their order, then their items alternately, then both end their source transaction.
     */
    static void write(MultiTableLoadEngine engine, int from, int to) throws InterruptedException {
        for (int n = from; n < to; n += 2) {
            for (int partition = 0; partition < 2; partition++) {
                engine.write(partition, "shop", "orders",
                        json("{\"order_id\":" + (n + partition) + ",\"item_count\":" + ITEMS_PER_ORDER + "}"));
            }
            for (int line = 0; line < ITEMS_PER_ORDER; line++) {
                for (int partition = 0; partition < 2; partition++) {
                    long orderId = n + partition;
                    engine.write(partition, "shop", "order_items", json("{\"order_id\":" + orderId + ",\"line_no\":"
                            + line + ",\"sku\":\"sku-" + orderId + "-" + line + "\"}"));
                }
            }
            engine.txnEnd(0);
            engine.txnEnd(1);
        }
    }

    /** Asserts that both tables hold exactly orders {@code 0..orders-1} with all their items, nothing else. */
    static void assertExactly(StarRocksEmulator sr, int orders) {
        List<String> expectedOrders = new ArrayList<>();
        List<String> expectedItems = new ArrayList<>();
        for (int n = 0; n < orders; n++) {
            expectedOrders.add(n + "," + ITEMS_PER_ORDER);
            for (int line = 0; line < ITEMS_PER_ORDER; line++) {
                expectedItems.add(n + "," + line + ",sku-" + n + "-" + line);
            }
        }
        assertThat(rows(sr.query(ORDERS))).as("shop.orders").containsExactlyElementsOf(expectedOrders);
        assertThat(rows(sr.query(ITEMS))).as("shop.order_items").containsExactlyElementsOf(expectedItems);
    }

    private static List<String> rows(QueryResult result) {
        return result.rows().stream()
                .map(row -> row.stream().map(String::valueOf).collect(Collectors.joining(",")))
                .toList();
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A thread that queries committed data in snapshots until closed and records every snapshot holding an order
     * without all its items, or items without their order (a partial source transaction made visible).
     */
    static final class SnapshotReader implements AutoCloseable {
        private final StarRocksEmulator sr;
        private final List<String> violations = new CopyOnWriteArrayList<>();
        private final AtomicInteger snapshots = new AtomicInteger();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;

        SnapshotReader(StarRocksEmulator sr) {
            this.sr = sr;
            this.thread = new Thread(this::run, "snapshot-reader");
            thread.start();
        }

        private void run() {
            while (!stop.get()) {
                for (List<Object> row : sr.query(ORDERS_VS_ITEMS).rows()) {
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
                snapshots.incrementAndGet();
            }
        }

        /** Stops the reader and asserts it took snapshots and never saw a partial source transaction. */
        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(30_000);
            assertThat(thread.isAlive()).as("reader ended").isFalse();
            assertThat(violations).as("partial source transactions seen by the reader").isEmpty();
            assertThat(snapshots.get()).as("snapshots taken").isPositive();
        }
    }
}
