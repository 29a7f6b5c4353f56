package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The arithmetic the report's figures rest on: quantiles, the freshness budget, per-GB and per-1,000 ratios. */
class ReportArithmeticTest {

    @Test
    void quantilesAreNearestRank() {
        double[] sorted = new double[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = i + 1; // 1..100
        }
        assertThat(FreshnessProbe.quantile(sorted, 0.5)).isEqualTo(50);
        assertThat(FreshnessProbe.quantile(sorted, 0.99)).isEqualTo(99);
        assertThat(FreshnessProbe.quantile(sorted, 1.0)).isEqualTo(100);
        assertThat(FreshnessProbe.quantile(new double[] {7}, 0.99)).isEqualTo(7);
        assertThat(FreshnessProbe.quantile(new double[0], 0.5)).isNaN();
    }

    @Test
    void freshnessBudgetIsTheCommitIntervalPlusTheMiniInterval() {
        assertThat(freshness(1000).budgetMs()).as("mini interval 100 ms").isEqualTo(1100);
        assertThat(freshness(5000).budgetMs()).as("mini interval 500 ms").isEqualTo(5500);
        assertThat(freshness(30_000).budgetMs()).as("mini interval capped at 1 s").isEqualTo(31_000);
        assertThat(freshness(200).budgetMs()).as("mini interval at least 100 ms").isEqualTo(300);
    }

    private static RunResults.Freshness freshness(long intervalMs) {
        return new RunResults.Freshness(1, intervalMs, 100, null, new double[0], 1000);
    }

    @Test
    void figuresDivideByTimeBytesAndTransactions() {
        Figures f = new Figures("x", 1_000_000, 2_000_000_000L, 4.0, 250_000, 500, 400,
                new ProcessCpu.Sample(10_000_000_000L, 4_000_000_000L, 0, 0));
        assertThat(f.rowsPerSecond()).isEqualTo(250_000);
        assertThat(f.megabytesPerSecond()).isEqualTo(500);
        assertThat(f.requestsPerThousandTxns()).isEqualTo(2.0);
        assertThat(f.cpuSecondsPerGb()).isCloseTo(5.0, within(1e-9));
        assertThat(f.clientCpuSecondsPerGb()).as("process minus server threads").isCloseTo(3.0, within(1e-9));
        assertThat(f.averageLoadBytes()).isEqualTo(5_000_000);
        assertThat(new Figures("c", 1, 1, 1, 0, 1, 1, new ProcessCpu.Sample(0, 0, 0, 0)).requestsPerThousandTxns())
                .as("no source transactions").isNaN();
    }

    @Test
    void theMemoryChildsResultLineIsParsedWithAnOutcomeHoldingSpaces() {
        Map<String, String> fields = new LinkedHashMap<>();
        ReportCommand.parseResult("mode=one-txn bufferBytes=134217728 peakLiveHeapBytes=5 outcome=refused: source "
                + "transactions in progress hold 268434516 bytes", fields);
        assertThat(fields).containsEntry("mode", "one-txn").containsEntry("bufferBytes", "134217728")
                .containsEntry("peakLiveHeapBytes", "5")
                .containsEntry("outcome", "refused: source transactions in progress hold 268434516 bytes");
    }
}
