package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verification table: green only when every check passes, and it says which one failed. */
class DemoResultTest {

    @Test
    void allGreenWhenTheFinalStateMatchesAndNoSnapshotBrokeAnInvariant() {
        DemoResult result = result(state(2), state(2), noViolations(), null, true);
        assertThat(result.allGreen()).isTrue();
        assertThat(printed(result)).contains("rows in shop.orders").contains("ALL GREEN");
    }

    @Test
    void aMissingRowIsAFailureNamingTheTableAndKey() {
        DemoResult result = result(state(2), state(1), noViolations(), null, false);
        assertThat(result.allGreen()).isFalse();
        assertThat(printed(result)).contains("difference: orders key [2]").contains("FAILED");
    }

    @Test
    void aSingleViolationInAnySnapshotIsAFailure() {
        Map<String, Long> violations = noViolations();
        violations.put(ShopInvariants.ORDER_TOTAL, 1L);
        DemoResult result = result(state(2), state(2), violations, null, true);
        assertThat(result.violations()).isEqualTo(1);
        assertThat(result.allGreen()).isFalse();
    }

    @Test
    void aRequestedKillMustHaveRestoredFromACheckpoint() {
        DemoResult fired = new DemoResult(2, 3, 2, 1, 2, 1, true, true, true, null, true, 5, 0, null, noViolations(),
                List.of(), state(1), state(1), 1000);
        assertThat(fired.allGreen()).isTrue();
        DemoResult freshStart = new DemoResult(2, 3, 2, 1, 2, 1, false, true, true, null, true, 5, 0, null,
                noViolations(), List.of(), state(1), state(1), 1000);
        assertThat(freshStart.allGreen()).isFalse();
        assertThat(printed(freshStart)).contains("restored from a checkpoint: false");
    }

    @Test
    void aFailedJobIsAFailure() {
        DemoResult result = result(state(1), state(1), noViolations(), "LoadEngineException: boom", true);
        assertThat(result.allGreen()).isFalse();
        assertThat(printed(result)).contains("LoadEngineException: boom");
    }

    private static DemoResult result(ShopState expected, ShopState actual, Map<String, Long> violations,
            String failure, boolean converged) {
        return new DemoResult(2, 2, 2, 1, 2, 0, false, false, false, failure, converged, 5, 0, null, violations,
                List.of(), expected, actual, 1000);
    }

    private static Map<String, Long> noViolations() {
        Map<String, Long> violations = new LinkedHashMap<>();
        ShopInvariants.NAMES.forEach(name -> violations.put(name, 0L));
        return violations;
    }

    /** {@code orders} empty orders (no items: total 0, item_count 0) with ids 1..n. */
    private static ShopState state(int orders) {
        ShopState state = new ShopState();
        for (long id = 1; id <= orders; id++) {
            state.upsert(ShopSchema.ORDERS, Map.of("order_id", id, "customer_id", 7L, "status", "NEW",
                    "total", "0.00", "item_count", 0, "created_at", "2026-11-30 08:00:00"));
        }
        return state;
    }

    private static String printed(DemoResult result) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        result.print(new PrintStream(text, true, StandardCharsets.UTF_8));
        return text.toString(StandardCharsets.UTF_8);
    }
}
