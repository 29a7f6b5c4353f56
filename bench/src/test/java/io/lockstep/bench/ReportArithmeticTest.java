package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
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
    void aServerThreadThatEndedBetweenTwoReadingsDropsOutInsteadOfCreditingItsCpuToTheClient() {
        // thread 1 runs on (+1 s), thread 2 (3 s so far) ended, thread 3 started and spent 1 s
        ProcessCpu.Sample start = new ProcessCpu.Sample(20_000_000_000L, 8_000_000_000L, 0, 0,
                Map.of(1L, 5_000_000_000L, 2L, 3_000_000_000L));
        ProcessCpu.Sample end = new ProcessCpu.Sample(25_000_000_000L, 7_000_000_000L, 0, 0,
                Map.of(1L, 6_000_000_000L, 3L, 1_000_000_000L));
        ProcessCpu.Sample run = end.minus(start);
        assertThat(run.processNs()).isEqualTo(5_000_000_000L);
        assertThat(run.serverNs()).isEqualTo(2_000_000_000L);
        assertThat(run.clientNs()).isEqualTo(3_000_000_000L);
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

    @Test
    void spreadIsTheMedianWithMinAndMax() {
        assertThat(ReportWriter.Spread.of(java.util.List.of(3.0, 1.0, 2.0)))
                .isEqualTo(new ReportWriter.Spread(2.0, 1.0, 3.0));
        assertThat(ReportWriter.Spread.of(java.util.List.of(4.0, 1.0, 2.0, 3.0)).median()).isEqualTo(2.5);
        assertThat(ReportWriter.Spread.of(java.util.List.of(5.0)).format("%.1f")).as("one run: no spread")
                .isEqualTo("5.0");
        assertThat(ReportWriter.Spread.of(java.util.List.of(1.0, 3.0)).format("%.1f")).isEqualTo("2.0 (1.0–3.0)");
    }

    @Test
    void sinkCpuIsTheJobsClientCpuMinusTheDiscardingJobsOfTheSameRepeatPerGigabyte() {
        RunResults results = new RunResults();
        results.costs.add(new RunResults.CostRun(FlinkEndToEnd.DISCARDING, 2, 0, cost(3_000_000_000L, 0, 0)));
        results.costs.add(new RunResults.CostRun(FlinkEndToEnd.DISCARDING, 2, 1, cost(4_000_000_000L, 0, 0)));
        // 0.5 GB of rows, 1,000 source transactions
        results.costs.add(new RunResults.CostRun(FlinkEndToEnd.AT_LEAST_ONCE, 2, 0, cost(5_000_000_000L, 800, 300)));
        results.costs.add(new RunResults.CostRun(FlinkEndToEnd.AT_LEAST_ONCE, 2, 1, cost(8_000_000_000L, 600, 200)));
        java.util.List<ReportWriter.CostRow> rows = new ReportWriter(results, Path.of("."), "d").costRows();
        assertThat(rows).extracting(ReportWriter.CostRow::client)
                .containsExactly(FlinkEndToEnd.DISCARDING, FlinkEndToEnd.AT_LEAST_ONCE);
        ReportWriter.CostRow sink = rows.get(1);
        assertThat(sink.sinkCpuPerGb()).as("(5-3)/0.5 and (8-4)/0.5").isEqualTo(new ReportWriter.Spread(6, 4, 8));
        assertThat(sink.httpPerThousand()).isEqualTo(new ReportWriter.Spread(700, 600, 800));
        assertThat(sink.loadsPerThousand()).isEqualTo(new ReportWriter.Spread(250, 200, 300));
    }

    private static Figures cost(long clientCpuNs, long requests, long loads) {
        return new Figures("x", 1000, 500_000_000L, 1.0, 1000, requests, loads,
                new ProcessCpu.Sample(clientCpuNs, 0, 0, 0));
    }
}
