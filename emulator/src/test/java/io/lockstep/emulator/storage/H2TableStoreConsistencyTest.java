package io.lockstep.emulator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.RowChange;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A reader never sees part of a published transaction: one thread publishes transactions that each add an order
 * and its three items (and rewrite an earlier order with new items), keeping COUNT(items) = 3 * COUNT(orders)
 * and order total = sum of its items; another thread checks both invariants in a loop while the publishes run.
 */
class H2TableStoreConsistencyTest {
    private static final int TRANSACTIONS = 300;

    @Test
    void readersSeeWholeTransactionsOnly() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.execute(Files.shop());
        try (H2TableStore store = H2TableStore.attachedTo(catalog)) {
            TableSchema orders = catalog.table("shop", "orders").orElseThrow();
            TableSchema items = catalog.table("shop", "order_items").orElseThrow();
            AtomicBoolean publishing = new AtomicBoolean(true);
            ExecutorService executor = Executors.newFixedThreadPool(2);
            try {
                Future<?> writer = executor.submit(() -> {
                    try {
                        for (long txn = 1; txn <= TRANSACTIONS; txn++) {
                            store.publish(txn, transaction(orders, items, txn));
                        }
                    } finally {
                        publishing.set(false);
                    }
                });
                CompletableFuture<List<String>> reader = CompletableFuture.supplyAsync(() -> {
                    List<String> violations = new ArrayList<>();
                    int checks = 0;
                    // Bounded: stops when the writer is done, and after at most 100000 checks.
                    while ((publishing.get() || checks == 0) && checks < 100_000) {
                        violations.addAll(check(store));
                        checks++;
                    }
                    violations.add("checks=" + checks);
                    return violations;
                }, executor);
                writer.get(60, TimeUnit.SECONDS);
                List<String> result = reader.get(60, TimeUnit.SECONDS);
                assertThat(result).hasSize(1);
                assertThat(result.get(0)).startsWith("checks=");
                assertThat(Integer.parseInt(result.get(0).substring(7))).as("reader ran during publishes")
                        .isGreaterThan(1);
            } finally {
                executor.shutdownNow();
            }
            assertThat(check(store)).isEmpty();
            assertThat(store.rowCount("shop", "orders")).isEqualTo(TRANSACTIONS);
            assertThat(store.rowCount("shop", "order_items")).isEqualTo(3L * TRANSACTIONS);
        }
    }

    /** Transaction n adds order n with items worth n, n+1, n+2, and re-prices order n/2 (upsert + new items). */
    private static List<TableChanges> transaction(TableSchema orders, TableSchema items, long n) {
        List<RowChange> orderRows = new ArrayList<>();
        List<RowChange> itemRows = new ArrayList<>();
        addOrder(orderRows, itemRows, n, n);
        if (n > 1) {
            addOrder(orderRows, itemRows, n / 2, n * 10);
        }
        return List.of(new TableChanges(orders, orderRows), new TableChanges(items, itemRows));
    }

    private static void addOrder(List<RowChange> orderRows, List<RowChange> itemRows, long orderId, long base) {
        BigDecimal total = BigDecimal.ZERO;
        for (int line = 1; line <= 3; line++) {
            BigDecimal price = BigDecimal.valueOf(base + line - 1).setScale(2);
            total = total.add(price);
            itemRows.add(new RowChange(new Object[] {orderId, line, "sku", 1, price}, false));
        }
        orderRows.add(new RowChange(new Object[] {orderId, 1L, "new", total, 3, null}, false));
    }

    /** Both invariants, read in one statement each. */
    private static List<String> check(H2TableStore store) {
        List<String> violations = new ArrayList<>();
        List<Object> counts = store.query("SELECT (SELECT COUNT(*) FROM shop.orders),"
                + " (SELECT COUNT(*) FROM shop.order_items)").rows().get(0);
        long orderCount = ((Number) counts.get(0)).longValue();
        long itemCount = ((Number) counts.get(1)).longValue();
        if (itemCount != 3 * orderCount) {
            violations.add("orders=" + orderCount + " items=" + itemCount);
        }
        List<List<Object>> mismatched = store.query("SELECT o.order_id FROM shop.orders o JOIN (SELECT order_id,"
                + " SUM(price) AS s FROM shop.order_items GROUP BY order_id) i ON o.order_id = i.order_id"
                + " WHERE o.total <> i.s").rows();
        if (!mismatched.isEmpty()) {
            violations.add("totals differ for " + mismatched);
        }
        return violations;
    }

    /** Reads the demo schema. */
    private static final class Files {
        static String shop() throws java.io.IOException {
            return java.nio.file.Files.readString(java.nio.file.Path.of("..", "examples", "shop.sql"));
        }
    }
}
