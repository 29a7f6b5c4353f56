package io.lockstep.app.demo;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The invariants every committed state of the shop keeps, because each source transaction keeps them
 * (the generator only writes transactions that do). Seeing one broken in the target tables means rows of
 * one source transaction became visible without the others. Checked:
 * <ol>
 *   <li>{@value #ORDER_TOTAL}: each order's {@code total} equals the sum of its items' {@code price × quantity};
 *   <li>{@value #ITEM_COUNT}: each order's {@code item_count} equals the number of its items;
 *   <li>{@value #ITEM_ORDER}: every item's {@code order_id} names an existing order.
 * </ol>
 */
public final class ShopInvariants {

    /** Name of invariant 1. */
    public static final String ORDER_TOTAL = "order total = sum of its items";
    /** Name of invariant 2. */
    public static final String ITEM_COUNT = "order item_count = number of its items";
    /** Name of invariant 3. */
    public static final String ITEM_ORDER = "every item's order exists";

    /** The invariant names, in check order. */
    public static final List<String> NAMES = List.of(ORDER_TOTAL, ITEM_COUNT, ITEM_ORDER);

    /**
     * One broken invariant.
     *
     * @param invariant which one ({@link #NAMES})
     * @param detail the order or item concerned, without other row content
     */
    public record Violation(String invariant, String detail) {
        @Override
        public String toString() {
            return invariant + ": " + detail;
        }
    }

    private ShopInvariants() {
    }

    /**
     * @param state a state of the shop (a generator's expected state, or a snapshot of the target)
     * @return every violation, grouped by invariant (in {@link #NAMES} order); empty when all hold
     */
    public static List<Violation> check(ShopState state) {
        Map<List<Object>, Map<String, Object>> orders = state.rows(ShopSchema.ORDERS);
        Map<Object, BigDecimal> itemTotals = new LinkedHashMap<>();
        Map<Object, Integer> itemCounts = new LinkedHashMap<>();
        List<Violation> orphans = new ArrayList<>();
        for (Map<String, Object> item : state.rows(ShopSchema.ORDER_ITEMS).values()) {
            Object orderId = item.get("order_id");
            BigDecimal price = (BigDecimal) item.get("price");
            Integer quantity = (Integer) item.get("quantity");
            BigDecimal amount = price == null || quantity == null ? BigDecimal.ZERO
                    : price.multiply(BigDecimal.valueOf(quantity));
            itemTotals.merge(orderId, amount, BigDecimal::add);
            itemCounts.merge(orderId, 1, Integer::sum);
            if (!orders.containsKey(List.of(orderId))) {
                orphans.add(new Violation(ITEM_ORDER, "item (order_id " + orderId + ", line_no "
                        + item.get("line_no") + ") has no order"));
            }
        }
        List<Violation> totals = new ArrayList<>();
        List<Violation> counts = new ArrayList<>();
        for (Map<String, Object> order : orders.values()) {
            Object orderId = order.get("order_id");
            BigDecimal expectedTotal = itemTotals.getOrDefault(orderId, BigDecimal.ZERO);
            BigDecimal total = (BigDecimal) order.get("total");
            if (total == null || total.compareTo(expectedTotal) != 0) {
                totals.add(new Violation(ORDER_TOTAL, "order " + orderId + " total " + total
                        + " but its items sum to " + expectedTotal));
            }
            int expectedCount = itemCounts.getOrDefault(orderId, 0);
            Integer count = (Integer) order.get("item_count");
            if (count == null || count != expectedCount) {
                counts.add(new Violation(ITEM_COUNT, "order " + orderId + " item_count " + count
                        + " but it has " + expectedCount + " items"));
            }
        }
        List<Violation> all = new ArrayList<>(totals);
        all.addAll(counts);
        all.addAll(orphans);
        return all;
    }
}
