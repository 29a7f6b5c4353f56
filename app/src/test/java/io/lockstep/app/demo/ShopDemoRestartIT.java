package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The demo end to end with a task killed in the middle: in-JVM Kafka and StarRocks-compatible server, shop
 * traffic, the job at parallelism 2 with checkpoints every 500 ms; the {@link FaultTrigger} kills the task once
 * after 40 source transactions on a subtask and a completed checkpoint, Flink restores from that checkpoint.
 * Every snapshot read during the run must keep the invariants, and the final tables must equal the generator's
 * expected state row by row.
 */
class ShopDemoRestartIT {

    @Test
    void aKilledTaskRestoresFromItsCheckpointWithoutViolationsAndEndsInTheExactState() throws Exception {
        DemoConfig config = new DemoConfig(20_000, 30, 2, 2, 11, 500, 10_000, 40, 60_000, 100);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

        DemoResult result = new ShopDemo(config, new EmulatorDemoTarget(), out).run();
        result.print(out);
        String printed = text.toString(StandardCharsets.UTF_8);

        assertThat(result.faultFired()).as(printed).isTrue();
        assertThat(result.restarts()).as(printed).isGreaterThanOrEqualTo(1);
        assertThat(result.restoredFromCheckpoint()).as(printed).isTrue();
        assertThat(result.jobFailure()).as(printed).isNull();
        assertThat(result.written()).as(printed).isGreaterThan(400);
        assertThat(result.snapshots()).as(printed).isGreaterThan(10);
        assertThat(result.readErrors()).as(printed).isZero();
        assertThat(result.violations()).as(printed).isZero();
        assertThat(result.differences()).as(printed).isEmpty();
        assertThat(result.actual()).isEqualTo(result.expected());
        assertThat(result.read()).as(printed).isGreaterThanOrEqualTo(result.written());
        assertThat(result.committed()).as(printed).isGreaterThanOrEqualTo(result.written());
        assertThat(result.allGreen()).as(printed).isTrue();
        assertThat(printed).contains("task killed, restored from checkpoint").contains("ALL GREEN");
    }
}
