package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.server.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@code lockstep demo --target doris} end to end: in-JVM Kafka, the emulator's Doris mode with the UNIQUE KEY shop
 * schema, 15 s of shop traffic (item removals and cancels included, so CDC deletes must reach Doris as
 * {@code __DORIS_DELETE_SIGN__}), the job at parallelism 2 with the per-table exactly-once sink and checkpoints every
 * 500 ms. The final tables must equal the generator's expected state row by row; the cross-table invariants are
 * reported as informational rows.
 */
class ShopDemoDorisIT {

    @Test
    void theDemoAgainstDorisEndsInTheExpectedStateWithTheInvariantsReportedAsInformational() throws Exception {
        DemoConfig config = new DemoConfig(15_000, 30, 2, 2, 17, 500, 10_000, -1, 60_000, 100);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

        DemoResult result = new ShopDemo(config, new DorisDemoTarget(), out).run();
        result.print(out);
        String printed = text.toString(StandardCharsets.UTF_8);

        assertThat(result.target()).isEqualTo(Target.DORIS);
        assertThat(result.jobFailure()).as(printed).isNull();
        assertThat(result.written()).as(printed).isGreaterThan(300);
        assertThat(result.read()).as(printed).isGreaterThanOrEqualTo(result.written());
        assertThat(result.starRocksTransactions()).as("Doris 2PC commits; " + printed).isPositive();
        assertThat(result.snapshots()).as(printed).isGreaterThan(10);
        assertThat(result.readErrors()).as(printed).isZero();
        assertThat(result.converged()).as(printed).isTrue();
        assertThat(result.differences()).as(printed).isEmpty();
        assertThat(result.actual()).isEqualTo(result.expected());
        assertThat(result.allGreen()).as(printed).isTrue();
        assertThat(printed)
                .contains("target: in-JVM Apache Doris-compatible server")
                .contains("invariant: " + ShopInvariants.ORDER_TOTAL + " (info)")
                .containsPattern("invariant: " + ShopInvariants.ITEM_ORDER + " \\(info\\)\\s+INFO")
                .contains("Doris transactions committed (exactly-once per table)")
                .contains("ALL GREEN");
    }
}
