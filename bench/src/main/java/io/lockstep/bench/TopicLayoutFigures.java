package io.lockstep.bench;

import io.lockstep.bench.LayoutTopics.Layout;
import io.lockstep.bench.ReportWriter.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The markdown of the {@code layout} section ({@link TopicLayoutBenchmark}): per layout and parallelism the median
 * (min–max) over the repeats, and per parallelism the topic-per-table layout's rows/s over the one-topic layout's in
 * the same repeat.
 */
final class TopicLayoutFigures {
    private static final double MIB = 1024 * 1024;
    private final List<TopicLayoutRun> runs;

    TopicLayoutFigures(List<TopicLayoutRun> runs) {
        this.runs = List.copyOf(runs);
    }

    /** @return the section's lines; "(not measured)" without runs */
    List<String> markdown(long transactions, int repeats) {
        List<String> md = new ArrayList<>();
        md.add("## Topic layouts: one topic against a topic per table (`lockstep run`)");
        md.add("");
        md.add(String.format(Locale.ROOT, "The same Debezium PostgreSQL workload (%,d source transactions, each 1 "
                + "`public.orders` insert, %d `public.order_items` inserts and 1 `public.customers` update, rows of "
                + "~%d B JSON; END ids `txId:LSN`) written into the embedded Kafka broker twice: **one topic** (one "
                + "partition, BEGIN/data/END in order) and **topic per table** (Debezium's default: "
                + "`pg.public.<table>` with %d partitions each, keyed by primary key, plus the one-partition "
                + "`pg.transaction`). Each run is the real `lockstep run --bounded` (exactly-once across tables, a "
                + "fresh job id, so it reads from the beginning) on a MiniCluster in the report's JVM into the emulator "
                + "(`none` store, progress table kept), checkpoint and commit interval %s, at `--parallelism` 1, 2, 4; "
                + "two unrecorded warm-up runs of each layout (p1 and p4) first, then %d repeat(s), the layouts' order "
                + "alternating. Checkpoints go to files in a temporary directory in both layouts (what `lockstep run` "
                + "does when it keeps no state). Every run's committed rows and source transactions (its summary "
                + "line) and the rows "
                + "the emulator received are checked against what was written. The time runs from the Kafka "
                + "source's first record to the command's return (every row committed); 'command' adds the option "
                + "checks, pre-flight and MiniCluster start. CPU is the process's (the job, the broker and the "
                + "emulator share it). Peak held = the rebuild's held-bytes gauge, sampled every %d ms.",
                transactions, PgOrderWorkload.ITEMS, PgOrderWorkload.ROW_BYTES, LayoutTopics.TABLE_PARTITIONS,
                TopicLayoutBenchmark.INTERVAL, repeats, TopicLayoutBenchmark.GAUGE_POLL_MS));
        md.add("");
        if (runs.isEmpty()) {
            md.add("(not measured)");
            md.add("");
            return md;
        }
        boolean held = runs.stream().anyMatch(r -> r.peakHeldBytes() >= 0);
        md.add("| layout | p | runs | rows/s | source txns/s | s | command s | StarRocks txns | CPU s |"
                + (held ? " peak held MiB |" : ""));
        md.add("|---|---|---|---|---|---|---|---|---|" + (held ? "---|" : ""));
        for (Layout layout : Layout.values()) {
            for (int p : parallelisms()) {
                List<TopicLayoutRun> cell = runs.stream()
                        .filter(r -> r.layout() == layout && r.parallelism() == p).toList();
                if (cell.isEmpty()) {
                    continue;
                }
                String peak = "";
                if (held) {
                    List<TopicLayoutRun> withGauge = cell.stream().filter(r -> r.peakHeldBytes() >= 0).toList();
                    peak = " " + (withGauge.isEmpty() ? "–"
                            : spread(withGauge, r -> r.peakHeldBytes() / MIB).format("%.1f")) + " |";
                }
                md.add(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s | %s | %s |%s", layout.label(),
                        p, cell.size(), spread(cell, TopicLayoutRun::rowsPerSecond).format("%,.0f"),
                        spread(cell, TopicLayoutRun::transactionsPerSecond).format("%,.0f"),
                        spread(cell, TopicLayoutRun::seconds).format("%.2f"),
                        spread(cell, TopicLayoutRun::commandSeconds).format("%.2f"),
                        spread(cell, r -> r.targetCommits()).format("%.0f"),
                        spread(cell, TopicLayoutRun::cpuSeconds).format("%.1f"), peak));
            }
        }
        md.add("");
        md.add("| p | topic per table / one topic, rows/s (per repeat, median) |");
        md.add("|---|---|");
        for (int p : parallelisms()) {
            List<Double> ratios = new ArrayList<>();
            for (TopicLayoutRun perTable : runs) {
                if (perTable.layout() != Layout.TOPIC_PER_TABLE || perTable.parallelism() != p) {
                    continue;
                }
                runs.stream().filter(r -> r.layout() == Layout.ONE_TOPIC && r.parallelism() == p
                                && r.repeat() == perTable.repeat()).findFirst()
                        .ifPresent(one -> ratios.add(perTable.rowsPerSecond() / one.rowsPerSecond()));
            }
            if (!ratios.isEmpty()) {
                md.add(String.format(Locale.ROOT, "| %d | %s |", p, Spread.of(ratios).format("%.2f")));
            }
        }
        md.add("");
        md.add("Load average per run (1/5/15 min): " + String.join("; ", runs.stream()
                .map(r -> r.layout().label() + " p" + r.parallelism() + " r" + r.repeat() + " " + r.loadAverage())
                .toList()) + ".");
        md.add("");
        return md;
    }

    private List<Integer> parallelisms() {
        return runs.stream().map(TopicLayoutRun::parallelism).distinct().sorted().toList();
    }

    private static Spread spread(List<TopicLayoutRun> cell, ToDoubleFunction<TopicLayoutRun> figure) {
        return Spread.of(cell.stream().map(figure::applyAsDouble).toList());
    }
}
