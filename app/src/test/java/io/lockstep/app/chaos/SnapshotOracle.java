package io.lockstep.app.chaos;

import io.lockstep.emulator.StarRocksEmulator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reader of the chaos oracle: every {@link #PERIOD_MS} ms it runs one SQL query on the emulator (one
 * snapshot of the committed data) whose result columns count violations, and records every sample with a
 * non-zero count. Shapes:
 * <ul>
 *   <li>{@link #SHOP_INVARIANTS}: the {@link io.lockstep.app.demo.ShopInvariants} across {@code orders} and
 *       {@code order_items} (order total = sum of its items, item_count = number of its items, every item's
 *       order exists);</li>
 *   <li>{@link #CDC_INVARIANTS}: the same, and change-log rows loaded twice (the exactly-once multi-table
 *       scenario);</li>
 *   <li>{@link #EVENT_DUPLICATES}: rows of the DUPLICATE KEY table {@code shop.events} loaded twice.</li>
 * </ul>
 * Thread: samples run on the scheduler's thread; the lists are synchronized, read by the test after stop().
 */
final class SnapshotOracle {
    /** Sampling period (the issue asks for 50–100 ms). */
    static final long PERIOD_MS = 75;

    static final String SHOP_INVARIANTS = "SELECT "
            + "(SELECT COUNT(*) FROM shop.orders o WHERE o.total <> COALESCE((SELECT SUM(i.price * i.quantity) "
            + "FROM shop.order_items i WHERE i.order_id = o.order_id), 0)), "
            + "(SELECT COUNT(*) FROM shop.orders o WHERE o.item_count <> (SELECT COUNT(*) FROM shop.order_items i "
            + "WHERE i.order_id = o.order_id)), "
            + "(SELECT COUNT(*) FROM shop.order_items i WHERE NOT EXISTS (SELECT 1 FROM shop.orders o "
            + "WHERE o.order_id = i.order_id)), "
            + "(SELECT COUNT(*) FROM shop.orders)";
    /** {@link #SHOP_INVARIANTS} and, in the same snapshot, rows of the DUPLICATE KEY change log loaded twice. */
    static final String CDC_INVARIANTS = SHOP_INVARIANTS.substring(0, SHOP_INVARIANTS.lastIndexOf(", (SELECT COUNT(*)"))
            + ", (SELECT COUNT(*) - COUNT(DISTINCT event_id) FROM shop.change_log), (SELECT COUNT(*) FROM shop.orders)";
    static final List<String> CDC_COLUMNS = List.of("orders whose total is not the sum of their items",
            "orders whose item_count is not their number of items", "items without their order",
            "change-log rows loaded twice", "orders");
    static final List<String> SHOP_COLUMNS = List.of("orders whose total is not the sum of their items",
            "orders whose item_count is not their number of items", "items without their order", "orders");

    static final String EVENT_DUPLICATES = "SELECT COUNT(*) - COUNT(DISTINCT event_id), COUNT(*) FROM shop.events";
    static final List<String> EVENT_COLUMNS = List.of("event rows loaded twice", "events");

    private final StarRocksEmulator sr;
    private final String sql;
    private final List<String> columns;
    private final AtomicInteger samples = new AtomicInteger();
    private final AtomicInteger samplesWithData = new AtomicInteger();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private ScheduledFuture<?> task;

    /**
     * @param sql the query; every column but the last counts violations, the last counts rows
     * @param columns a name per column
     */
    SnapshotOracle(StarRocksEmulator sr, String sql, List<String> columns) {
        this.sr = sr;
        this.sql = sql;
        this.columns = columns;
    }

    void start(ScheduledExecutorService scheduler) {
        task = scheduler.scheduleAtFixedRate(this::sample, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Stops sampling and takes one last sample. */
    void stop() {
        task.cancel(false);
        sample();
    }

    private synchronized void sample() {
        try {
            List<Object> row = sr.query(sql).rows().get(0);
            int n = samples.incrementAndGet();
            if (((Number) row.get(row.size() - 1)).longValue() > 0) {
                samplesWithData.incrementAndGet();
            }
            for (int i = 0; i < row.size() - 1; i++) {
                long count = ((Number) row.get(i)).longValue();
                if (count != 0) {
                    violations.add("sample " + n + ": " + count + " " + columns.get(i));
                }
            }
        } catch (RuntimeException e) {
            errors.add(e.toString());
        }
    }

    int samples() {
        return samples.get();
    }

    int samplesWithData() {
        return samplesWithData.get();
    }

    List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    List<String> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }
}
