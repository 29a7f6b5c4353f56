package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.server.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The verification table: green only when every required check passes, and it says which one failed; on Doris the
 * cross-table invariants are informational rows.
 */
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

    @Test
    void onDorisTheCrossTableInvariantsAreInformationalRowsThatDoNotDecideTheVerdict() {
        Map<String, Long> violations = noViolations();
        violations.put(ShopInvariants.ORDER_TOTAL, 3L);
        violations.put(ShopInvariants.ITEM_ORDER, 1L);
        List<String> described = List.of("snapshot 1: a", "snapshot 1: b", "snapshot 2: c", "snapshot 3: d");
        DemoResult result = new DemoResult(2, 2, 0, 7, 2, 0, false, false, false, null, true, 5, 0, null, violations,
                described, state(2), state(2), 1000, Target.DORIS);

        assertThat(result.crossTableInvariantsRequired()).isFalse();
        assertThat(result.violations()).as("still counted").isEqualTo(4);
        assertThat(result.allGreen()).isTrue();
        String printed = printed(result);
        assertThat(printed)
                .containsPattern("invariant: " + ShopInvariants.ORDER_TOTAL
                        + " \\(info\\)\\s+INFO\\s+3 violations in 5 snapshots; not required: Doris commits each "
                        + "table on its own")
                .containsPattern("invariant: " + ShopInvariants.ITEM_COUNT + " \\(info\\)\\s+INFO\\s+0 violations")
                .contains("Doris transactions committed (exactly-once per table)")
                .contains("violation (info): snapshot 2: c").doesNotContain("snapshot 3: d")
                .doesNotContain("FAIL")
                .contains("ALL GREEN");
    }

    @Test
    void onDorisTheFinalStateIsStillRequiredRowByRow() {
        DemoResult result = doris(state(2), state(1), noViolations(), false);
        assertThat(result.allGreen()).isFalse();
        assertThat(printed(result)).contains("difference: orders key [2]").contains("FAILED");
    }

    @Test
    void onStarRocksTheSameViolationsFailWithoutInformationalRows() {
        Map<String, Long> violations = noViolations();
        violations.put(ShopInvariants.ITEM_ORDER, 1L);
        DemoResult result = result(state(2), state(2), violations, null, true);
        assertThat(result.crossTableInvariantsRequired()).isTrue();
        assertThat(result.allGreen()).isFalse();
        assertThat(printed(result)).doesNotContain("INFO").doesNotContain("(info)")
                .containsPattern("invariant: " + ShopInvariants.ITEM_ORDER + "\\s+FAIL");
    }

    private static DemoResult doris(ShopState expected, ShopState actual, Map<String, Long> violations,
            boolean converged) {
        return new DemoResult(2, 2, 0, 7, 2, 0, false, false, false, null, converged, 5, 0, null, violations,
                List.of(), expected, actual, 1000, Target.DORIS);
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
