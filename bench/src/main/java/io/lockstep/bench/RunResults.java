package io.lockstep.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one report run measured, filled in by {@link ReportCommand}, read by {@link ReportWriter}. */
final class RunResults {
    /** Engine alone next to its ceiling (same tables, row size, body size and concurrency). */
    record EnginePair(int parallelism, int tables, int rowBytes, Figures engine, Figures ceiling, int concurrency) {
        double ratio() {
            return engine.megabytesPerSecond() / ceiling.megabytesPerSecond();
        }
    }

    /** One freshness run: latencies in ms, sorted. */
    record Freshness(int parallelism, long commitIntervalMs, long txnsPerSecond, Figures figures, double[] sortedMs,
                     long pollMicros) {
        long miniIntervalMs() {
            return Math.min(1000, Math.max(100, commitIntervalMs / 10));
        }

        long budgetMs() {
            return commitIntervalMs + miniIntervalMs();
        }

        double p(double q) {
            return FreshnessProbe.quantile(sortedMs, q);
        }

        double max() {
            return sortedMs.length == 0 ? Double.NaN : sortedMs[sortedMs.length - 1];
        }
    }

    /**
     * One delivery mode of the multi-table sink, measured in the same report run as the other: throughput
     * (unpaced) and freshness (paced), both at commit interval 1 s.
     *
     * @param mode {@code at-least-once} or {@code exactly-once}
     */
    record Mode(String mode, Figures throughput, Freshness freshness) {
    }

    /** One exactly-once run; {@code emitSeconds} is how long the source ran (sink accepting rows). */
    record ExactlyOnce(long checkpointMs, Figures figures, double emitSeconds) {
    }

    /**
     * One run of the order workload (issue-sized cost comparison): {@code client} is the discarding sink or a mode of
     * the multi-table sink, {@code repeat} counts from 0; the figures' requests are HTTP requests the emulator served.
     */
    record CostRun(String client, int parallelism, int repeat, Figures figures) {
    }

    String startedAt;
    String loadAtStart;
    String loadAtEnd;
    double totalSeconds;
    final List<EnginePair> engine = new ArrayList<>();
    final List<EnginePair> endToEnd = new ArrayList<>();
    final List<Freshness> freshness = new ArrayList<>();
    final List<ExactlyOnce> exactlyOnce = new ArrayList<>();
    /** At-least-once and exactly-once across tables, side by side. */
    final List<Mode> modes = new ArrayList<>();
    /** The order workload: every client, parallelism and repeat. */
    final List<CostRun> costs = new ArrayList<>();
    /** Source transactions per run of the order workload, and its repeats. */
    long costTxns;
    int costRepeats;
    /** The order workload, a fresh JVM per run: every client, parallelism and round, in the order run. */
    final List<ForkedCostRun> costFork = new ArrayList<>();
    long costForkTxns;
    int costForkRounds;
    /** The topic-layout section: every run in the order run, its source transactions per layout and repeats. */
    final List<TopicLayoutRun> layouts = new ArrayList<>();
    long layoutTxns;
    int layoutRepeats;
    /** The load-format section: every run in the order run, its rows per run and repeats. */
    final List<LoadFormatRun> formats = new ArrayList<>();
    long formatRows;
    int formatRepeats;
    /** The table-count section: every run in the order run, its duration per run (ms) and repeats. */
    final List<TableCountRun> tableCounts = new ArrayList<>();
    long tableCountMs;
    int tableCountRepeats;
    /** mode → the memory child's RESULT fields. */
    final Map<String, Map<String, String>> memory = new LinkedHashMap<>();
    final List<JmhSuite.Score> jmh = new ArrayList<>();
    final List<HotSpots.Summary> hotSpots = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
}
