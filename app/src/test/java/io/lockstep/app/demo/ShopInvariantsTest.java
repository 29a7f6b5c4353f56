package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.demo.ShopInvariants.Violation;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each invariant is detected when broken, and a consistent shop passes. */
class ShopInvariantsTest {

    private static ShopState consistentShop() {
        ShopState state = new ShopState();
        state.upsert(ShopSchema.CUSTOMERS, Map.of("customer_id", 1L, "name", "Ada Chen"));
        state.upsert(ShopSchema.ORDERS, Map.of("order_id", 10L, "customer_id", 1L, "status", "NEW",
                "total", "25.50", "item_count", 2));
        state.upsert(ShopSchema.ORDER_ITEMS, Map.of("order_id", 10L, "line_no", 1, "quantity", 3, "price", "4.50"));
        state.upsert(ShopSchema.ORDER_ITEMS, Map.of("order_id", 10L, "line_no", 2, "quantity", 1, "price", "12.00"));
        state.upsert(ShopSchema.ORDERS, Map.of("order_id", 11L, "customer_id", 1L, "status", "NEW",
                "total", "0.00", "item_count", 0));
        return state;
    }

    @Test
    void aConsistentShopHasNoViolations() {
        assertThat(ShopInvariants.check(consistentShop())).isEmpty();
        assertThat(ShopInvariants.check(new ShopState())).isEmpty();
    }

    @Test
    void aTotalThatIsNotTheSumOfItsItemsIsReported() {
        ShopState state = consistentShop();
        state.upsert(ShopSchema.ORDERS, Map.of("order_id", 10L, "customer_id", 1L, "status", "NEW",
                "total", "25.51", "item_count", 2));
        assertThat(ShopInvariants.check(state)).containsExactly(new Violation(ShopInvariants.ORDER_TOTAL,
                "order 10 total 25.51 but its items sum to 25.50"));
    }

    @Test
    void aMissingItemBreaksTotalAndCount() {
        ShopState state = consistentShop();
        state.delete(ShopSchema.ORDER_ITEMS, List.of(10L, 2));
        assertThat(ShopInvariants.check(state)).extracting(Violation::invariant)
                .containsExactly(ShopInvariants.ORDER_TOTAL, ShopInvariants.ITEM_COUNT);
    }

    @Test
    void anItemWithoutItsOrderIsReported() {
        ShopState state = consistentShop();
        state.upsert(ShopSchema.ORDER_ITEMS, Map.of("order_id", 99L, "line_no", 1, "quantity", 1,
                "price", new BigDecimal("1.00")));
        assertThat(ShopInvariants.check(state)).containsExactly(new Violation(ShopInvariants.ITEM_ORDER,
                "item (order_id 99, line_no 1) has no order"));
    }
}
