package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The cost-fork section's arithmetic (medians, ratios to the same round's discarding run, goals) and its parsing. */
class ForkedCostFiguresTest {
    private static final String LINE = "rows=800000 bytes=155200000 txns=200000 seconds=4.0000 loads=120 "
            + "cpuNs=7000000000 steadyCpuNs=3000000000 steadyRows=480000 steadySeconds=2.4 jitMs=900";

    @Test
    void parsesAChildsResultLine() {
        ForkedCostRun run = ForkedCostRun.parse("r", LINE, FlinkEndToEnd.AT_LEAST_ONCE, 2, 3, 90, 1_500_000_000L,
                "1.0 1.0 1.0");
        assertThat(run.rows()).isEqualTo(800_000);
        assertThat(run.bytes()).isEqualTo(155_200_000);
        assertThat(run.txns()).isEqualTo(200_000);
        assertThat(run.rowsPerSecond()).isEqualTo(200_000);
        assertThat(run.loads()).isEqualTo(120);
        assertThat(run.cpuSeconds()).isEqualTo(7.0);
        assertThat(run.steadyCpuNs()).isEqualTo(3_000_000_000L);
        assertThat(run.steadyRows()).isEqualTo(480_000);
        assertThat(run.steadyRowsPerSecond()).isEqualTo(200_000);
        assertThat(run.jitMs()).isEqualTo(900);
        assertThat(run.emulatorCpuNs()).isEqualTo(1_500_000_000L);
        assertThat(run.requestsPerThousandTxns()).isCloseTo(0.45, within(1e-12));
        assertThat(run.parallelism()).isEqualTo(2);
        assertThat(run.round()).isEqualTo(3);
    }

    @Test
    void aResultLineWithoutAFigureFailsNamingTheRunAndTheField() {
        assertThatThrownBy(() -> ForkedCostRun.parse("round 0, exactly-once p4", LINE.replace("cpuNs=7000000000 ", ""),
                FlinkEndToEnd.EXACTLY_ONCE, 4, 0, 0, 0, ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("round 0, exactly-once p4").hasMessageContaining("'cpuNs'");
        assertThatThrownBy(() -> ForkedCostRun.parse("r1", LINE.replace("rows=800000", "rows=x"),
                FlinkEndToEnd.EXACTLY_ONCE, 4, 0, 0, 0, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("r1");
    }

    @Test
    void clientNamesRoundTripAndAnUnknownOneIsRefused() {
        for (String client : List.of(FlinkEndToEnd.DISCARDING, FlinkEndToEnd.AT_LEAST_ONCE,
                FlinkEndToEnd.EXACTLY_ONCE)) {
            assertThat(ForkedCostRun.clientName(ForkedCostRun.argument(client))).isEqualTo(client);
        }
        assertThatThrownBy(() -> ForkedCostRun.clientName("official")).hasMessageContaining("'official'");
    }

    @Test
    void sinkCpuAndRatiosAreAgainstTheSameRoundsDiscardingRunAndMediansDecideTheGoals() {
        // p1, three rounds; discarding CPU 4, 5, 4.5 s at 300k, 350k, 320k rows/s
        List<ForkedCostRun> runs = List.of(
                run(FlinkEndToEnd.DISCARDING, 0, 4.0, 300_000, 10),
                run(FlinkEndToEnd.DISCARDING, 1, 5.0, 350_000, 10),
                run(FlinkEndToEnd.DISCARDING, 2, 4.5, 320_000, 10),
                run(FlinkEndToEnd.AT_LEAST_ONCE, 0, 6.0, 150_000, 60),   // sink 2.0 s, x0.50 CPU, x0.50 rows/s
                run(FlinkEndToEnd.AT_LEAST_ONCE, 1, 7.0, 140_000, 80),   // sink 2.0 s, x0.40 CPU, x0.40 rows/s
                run(FlinkEndToEnd.AT_LEAST_ONCE, 2, 7.2, 160_000, 100)); // sink 2.7 s, x0.60 CPU, x0.50 rows/s
        ForkedCostFigures.Row row = new ForkedCostFigures(runs).row(FlinkEndToEnd.AT_LEAST_ONCE, 1);
        assertThat(row.rounds()).isEqualTo(3);
        assertThat(row.rowsPerSecond().median()).isEqualTo(150_000);
        assertThat(row.rowsPerSecond().min()).isEqualTo(140_000);
        assertThat(row.rowsPerSecond().max()).isEqualTo(160_000);
        assertThat(row.sinkCpuSeconds().median()).isCloseTo(2.0, within(1e-9));
        assertThat(row.sinkCpuSeconds().max()).isCloseTo(2.7, within(1e-9));
        assertThat(row.sinkCpuPer800kRows().median()).as("800,000 rows per run").isCloseTo(2.0, within(1e-9));
        assertThat(row.sinkCpuPerGb().median()).as("155.2 MB per run").isCloseTo(2.0 / 0.1552, within(1e-9));
        assertThat(row.cpuRatio().median()).isCloseTo(0.5, within(1e-9));
        assertThat(row.rateRatio().median()).isCloseTo(0.5, within(1e-9));
        assertThat(row.requestsPerThousandTxns().median()).isCloseTo(0.40, within(1e-9));
        // steady: (3 s / 480k rows - 3 s / 480k rows) * 800k = 0: every run here has the same steady CPU
        assertThat(row.steadySinkCpuPer800kRows().median()).isCloseTo(0.0, within(1e-9));
        // steady rates here are the whole-run rates: ratios 0.50, 0.40, 0.50
        assertThat(row.steadyRateRatio().median()).isCloseTo(0.5, within(1e-9));
        assertThat(row.steadyRateRatio().min()).isCloseTo(0.4, within(1e-9));
        assertThat(row.jitSeconds().median()).isCloseTo(0.9, within(1e-9));
        assertThat(row.emulatorCpuSeconds().median()).isCloseTo(1.0, within(1e-9));
        // p1 goals: CPU <= 0.57x, rows/s >= 0.39x, requests <= 0.40
        assertThat(row.cpuGoalMet()).isTrue();
        assertThat(row.rateGoalMet()).isTrue();
        assertThat(row.requestsGoalMet()).isTrue();
    }

    @Test
    void aMedianOverTheGoalIsNotMet() {
        List<ForkedCostRun> runs = List.of(
                run(FlinkEndToEnd.DISCARDING, 0, 4.0, 300_000, 10),
                run(FlinkEndToEnd.EXACTLY_ONCE, 0, 6.0, 100_000, 90)); // p1: x0.50 CPU ok; x0.33 rows/s < 0.39
        ForkedCostFigures.Row row = new ForkedCostFigures(runs).row(FlinkEndToEnd.EXACTLY_ONCE, 1);
        assertThat(row.cpuGoalMet()).isTrue();
        assertThat(row.rateGoalMet()).isFalse();
        assertThat(row.requestsGoalMet()).as("0.45 > 0.40").isFalse();
        assertThat(new ForkedCostFigures(runs).markdown(200_000, 1))
                .anySatisfy(l -> assertThat(l).startsWith("| exactly-once | 1 |")
                        .contains("rows/s **no**, CPU yes, requests **no**"));
        assertThat(new ForkedCostFigures(runs).goalLines()).containsExactly(
                "| sink CPU <= 0.57x the discarding job's (cost-fork, exactly-once, p1) | 0.50x | yes |",
                "| rows/s >= 0.39x the discarding job's (cost-fork, exactly-once, p1) | 0.33x | **no** |",
                "| HTTP requests <= 0.40 / 1,000 source txns (cost-fork, exactly-once, p1) | 0.45 | **no** |");
    }

    private static ForkedCostRun run(String client, int round, double cpuSeconds, double rowsPerSecond,
                                     long requests) {
        return new ForkedCostRun(client, 1, round, 800_000, 155_200_000, 200_000, 800_000 / rowsPerSecond, 0,
                Math.round(cpuSeconds * 1e9), 3_000_000_000L, 480_000, 480_000 / rowsPerSecond, 900, requests,
                1_000_000_000L, "0.5 0.5 0.5");
    }
}
