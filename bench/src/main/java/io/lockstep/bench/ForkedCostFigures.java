package io.lockstep.bench;

import io.lockstep.bench.ReportWriter.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The arithmetic and the markdown of the {@code cost-fork} section: per parallelism and mode, the figures over the
 * rounds next to the same round's discarding-sink run, the goals, and the frozen baseline (the official StarRocks
 * Flink connector measured side by side with Lockstep on the same 2-core machine and emulator, {@code --storage
 * none}, 200,000 source transactions, a fresh JVM per run, medians of 3).
 *
 * <p>Sink CPU of a run = its child's process CPU minus the same round's discarding child's; the ratios divide by the
 * same round's discarding run, then take the median over rounds. A goal is met when the median meets it.
 */
final class ForkedCostFigures {
    static final int[] PARALLELISMS = {1, 2, 4};
    /** Sink CPU over the discarding job's CPU must be at most this, at p = 1, 2, 4. */
    static final double[] CPU_RATIO_GOAL = {0.57, 0.43, 0.26};
    /** rows/s over the discarding job's rows/s must be at least this, at p = 1, 2, 4. */
    static final double[] RATE_RATIO_GOAL = {0.39, 0.55, 0.73};
    /** HTTP requests per 1,000 source transactions: Lockstep's in the baseline, not to be exceeded, p = 1, 2, 4. */
    static final double[] REQUESTS_GOAL = {0.40, 0.67, 0.72};
    /** The frozen baseline, p = 1, 2, 4: the official connector's and Lockstep's figures of the comparison. */
    static final double[] OFFICIAL_ROWS_PER_SECOND = {102_904, 136_285, 173_304};
    static final double[] BASELINE_ROWS_PER_SECOND = {186_863, 169_521, 179_599};
    static final double[] OFFICIAL_REQUESTS = {2.08, 2.15, 1.76};
    static final double[] OFFICIAL_SINK_CPU = {5.16, 4.14, 2.61};
    static final double[] BASELINE_SINK_CPU = {2.29, 2.65, 2.47};
    static final double[] OFFICIAL_CPU_RATIO = {1.14, 0.85, 0.52};
    static final double[] OFFICIAL_RATE_RATIO = {0.30, 0.42, 0.56};
    private static final double ROWS_800K = 800_000;

    /** One (parallelism, mode) over its rounds; rounds without a discarding run stay out of the CPU figures and ratios. */
    record Row(String client, int parallelism, int rounds, Spread rowsPerSecond, Spread sinkCpuSeconds,
               Spread sinkCpuPer800kRows, Spread sinkCpuPerGb, Spread steadySinkCpuPer800kRows,
               Spread requestsPerThousandTxns, Spread cpuRatio, Spread rateRatio, Spread steadyRateRatio,
               Spread jitSeconds, Spread emulatorCpuSeconds) {
        boolean cpuGoalMet() {
            return cpuRatio.median() <= CPU_RATIO_GOAL[index(parallelism)];
        }

        boolean rateGoalMet() {
            return rateRatio.median() >= RATE_RATIO_GOAL[index(parallelism)];
        }

        boolean requestsGoalMet() {
            return requestsPerThousandTxns.median() <= REQUESTS_GOAL[index(parallelism)];
        }
    }

    private final List<ForkedCostRun> runs;

    ForkedCostFigures(List<ForkedCostRun> runs) {
        this.runs = List.copyOf(runs);
    }

    static int index(int parallelism) {
        for (int i = 0; i < PARALLELISMS.length; i++) {
            if (PARALLELISMS[i] == parallelism) {
                return i;
            }
        }
        throw new IllegalArgumentException("no goal for parallelism " + parallelism + " (1, 2, 4)");
    }

    /** The discarding run of {@code parallelism} in {@code round}, or null. */
    ForkedCostRun discarding(int parallelism, int round) {
        for (ForkedCostRun d : runs) {
            if (d.client().equals(FlinkEndToEnd.DISCARDING) && d.parallelism() == parallelism
                    && d.round() == round) {
                return d;
            }
        }
        return null;
    }

    /** The runs of one client at one parallelism, in round order. */
    List<ForkedCostRun> of(String client, int parallelism) {
        return runs.stream().filter(r -> r.client().equals(client) && r.parallelism() == parallelism).toList();
    }

    /** The row of one sink mode at one parallelism; rounds without a discarding run are left out of the ratios. */
    Row row(String client, int parallelism) {
        List<Double> rate = new ArrayList<>();
        List<Double> sinkCpu = new ArrayList<>();
        List<Double> per800k = new ArrayList<>();
        List<Double> perGb = new ArrayList<>();
        List<Double> steady = new ArrayList<>();
        List<Double> requests = new ArrayList<>();
        List<Double> cpuRatio = new ArrayList<>();
        List<Double> rateRatio = new ArrayList<>();
        List<Double> steadyRateRatio = new ArrayList<>();
        List<Double> jit = new ArrayList<>();
        List<Double> emulatorCpu = new ArrayList<>();
        List<ForkedCostRun> mine = of(client, parallelism);
        for (ForkedCostRun run : mine) {
            rate.add(run.rowsPerSecond());
            requests.add(run.requestsPerThousandTxns());
            jit.add(run.jitMs() / 1e3);
            emulatorCpu.add(run.emulatorCpuNs() / 1e9);
            ForkedCostRun d = discarding(parallelism, run.round());
            if (d == null) {
                continue;
            }
            double sink = run.cpuSeconds() - d.cpuSeconds();
            sinkCpu.add(sink);
            per800k.add(sink * ROWS_800K / run.rows());
            perGb.add(sink / (run.bytes() / 1e9));
            if (run.steadyCpuNs() >= 0 && d.steadyCpuNs() >= 0 && run.steadyRows() > 0 && d.steadyRows() > 0) {
                steady.add((run.steadyCpuNs() / 1e9 / run.steadyRows() - d.steadyCpuNs() / 1e9 / d.steadyRows())
                        * ROWS_800K);
            }
            cpuRatio.add(sink / d.cpuSeconds());
            rateRatio.add(run.rowsPerSecond() / d.rowsPerSecond());
            double steadyRatio = run.steadyRowsPerSecond() / d.steadyRowsPerSecond();
            if (!Double.isNaN(steadyRatio)) {
                steadyRateRatio.add(steadyRatio);
            }
        }
        return new Row(client, parallelism, mine.size(), Spread.of(rate), Spread.of(sinkCpu), Spread.of(per800k),
                Spread.of(perGb), Spread.of(steady), Spread.of(requests), Spread.of(cpuRatio), Spread.of(rateRatio),
                Spread.of(steadyRateRatio), Spread.of(jit), Spread.of(emulatorCpu));
    }

    /** The row of every (parallelism, mode) that has runs, in parallelism order, at-least-once first. */
    private List<Row> measuredRows() {
        List<Row> rows = new ArrayList<>();
        for (int p : PARALLELISMS) {
            for (String mode : new String[] {FlinkEndToEnd.AT_LEAST_ONCE, FlinkEndToEnd.EXACTLY_ONCE}) {
                if (!of(mode, p).isEmpty()) {
                    rows.add(row(mode, p));
                }
            }
        }
        return rows;
    }

    /** The rows of the report's goals table: per parallelism and mode, CPU, rows/s and requests against the goals. */
    List<String> goalLines() {
        List<String> md = new ArrayList<>();
        for (Row r : measuredRows()) {
            String mode = r.client();
            int p = r.parallelism();
            int i = index(p);
            md.add(String.format(Locale.ROOT, "| sink CPU <= %.2fx the discarding job's (cost-fork, %s, p%d) | "
                    + "%.2fx | %s |", CPU_RATIO_GOAL[i], mode, p, r.cpuRatio().median(), yes(r.cpuGoalMet())));
            md.add(String.format(Locale.ROOT, "| rows/s >= %.2fx the discarding job's (cost-fork, %s, p%d) | "
                    + "%.2fx | %s |", RATE_RATIO_GOAL[i], mode, p, r.rateRatio().median(), yes(r.rateGoalMet())));
            md.add(String.format(Locale.ROOT, "| HTTP requests <= %.2f / 1,000 source txns (cost-fork, %s, p%d) | "
                    + "%.2f | %s |", REQUESTS_GOAL[i], mode, p, r.requestsPerThousandTxns().median(),
                    yes(r.requestsGoalMet())));
        }
        return md;
    }

    /** The section's markdown lines. */
    List<String> markdown(long txns, int rounds) {
        List<String> md = new ArrayList<>();
        md.add("## Cost, a fresh JVM per run (cost-fork)");
        md.add("");
        md.add(String.format(Locale.ROOT, "The order workload (1 `orders` + 3 `order_items` rows of ~194 B per source "
                + "transaction, 2 source partitions, commit interval 1 s), %,d source transactions per run, %d "
                + "round(s): median (min–max). Each run is a child JVM (same class path and JVM flags) running one "
                + "Flink 1.20 MiniCluster job against the emulator (`none` store) in the report's JVM, so the child's "
                + "process CPU is the client's alone (JVM start included). Per round, at p = 1, 2, 4: the discarding "
                + "sink, at-least-once and exactly-once across tables, in an order that rotates per round. **Sink "
                + "CPU** = the child's CPU minus the same round's discarding child's; **steady** = the same between "
                + "20 %% and 80 %% of the rows, per 800,000 rows; **x disc.** = ratio to the same round's discarding "
                + "run; **steady rows/s x disc.** = the rate between those marks over the discarding run's; **JIT s** = "
                + "the child's JIT compilation time (all compiler threads), which in a run this short is a large part "
                + "of its CPU; **emulator CPU s** = the report JVM's CPU during the run (the emulator receiving and "
                + "counting the rows), which shares the machine's cores with the child.", txns, rounds));
        md.add("");
        md.add("| p | discarding rows/s | discarding CPU s | discarding JIT s |");
        md.add("|---|---|---|---|");
        for (int p : PARALLELISMS) {
            List<ForkedCostRun> d = of(FlinkEndToEnd.DISCARDING, p);
            if (!d.isEmpty()) {
                md.add("| " + p + " | " + Spread.of(d.stream().map(ForkedCostRun::rowsPerSecond).toList())
                        .format("%,.0f") + " | " + Spread.of(d.stream().map(ForkedCostRun::cpuSeconds).toList())
                        .format("%.2f") + " | " + Spread.of(d.stream().map(r -> r.jitMs() / 1e3).toList())
                        .format("%.1f") + " |");
            }
        }
        md.add("");
        md.add("| mode | p | rows/s | x disc. (goal >=) | sink CPU s | x disc. (goal <=) | sink CPU s / 800k rows "
                + "| steady / 800k rows | sink CPU s / GB | requests / 1,000 txns (goal <=) | steady rows/s x disc. "
                + "| JIT s | emulator CPU s | goals met |");
        md.add("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Row r : measuredRows()) {
            String mode = r.client();
            int p = r.parallelism();
            int i = index(p);
            md.add(String.format(Locale.ROOT, "| %s | %d | %s | %s (%.2f) | %s | %s (%.2f) | %s | %s | %s | %s "
                            + "(%.2f) | %s | %s | %s | rows/s %s, CPU %s, requests %s |", mode, p,
                    r.rowsPerSecond().format("%,.0f"),
                    r.rateRatio().format("%.2f"), RATE_RATIO_GOAL[i], r.sinkCpuSeconds().format("%.2f"),
                    r.cpuRatio().format("%.2f"), CPU_RATIO_GOAL[i], r.sinkCpuPer800kRows().format("%.2f"),
                    r.steadySinkCpuPer800kRows().format("%.2f"), r.sinkCpuPerGb().format("%.1f"),
                    r.requestsPerThousandTxns().format("%.2f"), REQUESTS_GOAL[i],
                    r.steadyRateRatio().format("%.2f"), r.jitSeconds().format("%.1f"),
                    r.emulatorCpuSeconds().format("%.2f"), yes(r.rateGoalMet()),
                    yes(r.cpuGoalMet()), yes(r.requestsGoalMet())));
        }
        md.add("");
        md.add("Frozen baseline: the official StarRocks Flink connector measured side by side with Lockstep on this "
                + "2-core machine, same emulator with `--storage none`, 200,000 source transactions, a fresh JVM per "
                + "run, medians of 3 (the discarding job then: 305,000–357,000 rows/s, 4.3–5.0 s of client CPU).");
        md.add("");
        md.add("| p | official rows/s | Lockstep rows/s | requests / 1,000 txns (official -> Lockstep) | sink CPU s "
                + "(official -> Lockstep) | official x disc. CPU | official x disc. rows/s |");
        md.add("|---|---|---|---|---|---|---|");
        for (int i = 0; i < PARALLELISMS.length; i++) {
            md.add(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %.2f -> %.2f | %.2f -> %.2f | %.2f | %.2f |",
                    PARALLELISMS[i], OFFICIAL_ROWS_PER_SECOND[i], BASELINE_ROWS_PER_SECOND[i], OFFICIAL_REQUESTS[i],
                    REQUESTS_GOAL[i], OFFICIAL_SINK_CPU[i], BASELINE_SINK_CPU[i], OFFICIAL_CPU_RATIO[i],
                    OFFICIAL_RATE_RATIO[i]));
        }
        md.add("");
        md.add("| round | load average (1/5/15 min) at its end |");
        md.add("|---|---|");
        for (int round = 0; round < rounds; round++) {
            final int n = round;
            runs.stream().filter(r -> r.round() == n).reduce((a, b) -> b)
                    .ifPresent(last -> md.add("| " + n + " | " + last.loadAverage() + " |"));
        }
        md.add("");
        return md;
    }

    private static String yes(boolean met) {
        return met ? "yes" : "**no**";
    }
}
