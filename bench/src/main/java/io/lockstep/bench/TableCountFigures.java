package io.lockstep.bench;

import io.lockstep.bench.ReportWriter.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The markdown of the {@code tables} section ({@link TableCountBenchmark}): per case the median (min–max) over the
 * repeats of rows/s, requests per commit, commit latency and the heap the engine retains.
 */
final class TableCountFigures {
    private static final double MIB = 1024 * 1024;
    private final List<TableCountRun> runs;

    TableCountFigures(List<TableCountRun> runs) {
        this.runs = List.copyOf(runs);
    }

    /** @return the section's lines; "(not measured)" without runs */
    List<String> markdown(long durationMs, int repeats) {
        List<String> md = new ArrayList<>();
        md.add("## Table count: 10 to 1,000 tables in one multi-table engine (`tables`)");
        md.add("");
        md.add(String.format(Locale.ROOT, "The multi-table engine (core, the path of `lockstep run` and of the "
                + "multi-table sink, without Flink) fed by one thread for %,d ms per run: source transactions of one "
                + "~%d B JSON row into each of 1-%d distinct tables drawn at random (seeded) from the active ones, "
                + "over %d source partitions, commit interval %d ms, buffer-size 128 MiB, unpaced (the writer blocks "
                + "on a full buffer, so the engine's loads and commits set the pace), then a flush. "
                + "Every configured table has its own load properties (as per-table `sink.properties` give them). "
                + "The emulator in the report's JVM (`none` store, FE -> BE redirect) holds all %,d tables in every "
                + "case. **requests / commit** = the client's loads + begins + commits per committed shared "
                + "transaction; **HTTP / commit** = requests the emulator served per commit (a redirected request "
                + "counts at the FE and the BE). **Commit p50/p99** = the engine's commit call latency "
                + "(`commitLatencyMs`), nearest rank over the run's commits (with fewer than 100 commits the p99 is "
                + "the largest). **Heap while loading** = used heap after two full collections once every source "
                + "transaction is written (the open shared transaction's rows still buffered, up to a second's "
                + "worth), less the same after the engine is closed and unreferenced (the emulator's and the "
                + "metrics' heap are in both readings; the pause is left out of the time); **buffer** = the "
                + "engine's `bufferedBytes` gauge then (its memory budget in use: row bytes and chunk space); "
                + "**per table** = heap while loading / tables with rows (buffered rows included); **idle** = "
                + "the same heap figure after the flush (all committed, engine open). One unrecorded warm-up of "
                + "each case, then %d round(s), the cases' order rotating per round.", durationMs, TableCountBenchmark.ROW_BYTES,
                TableCountBenchmark.MAX_TABLES_PER_TXN, EngineScenario.PARTITIONS,
                TableCountBenchmark.COMMIT_INTERVAL_MS, TableCountBenchmark.MAX_TABLES, repeats));
        md.add("");
        if (runs.isEmpty()) {
            md.add("(not measured)");
            md.add("");
            return md;
        }
        md.add("| tables | runs | rows/s | s | commits | requests / commit | HTTP / commit | tables loaded "
                + "| commit p50 ms | commit p99 ms | heap while loading MiB | buffer MiB "
                + "| heap while loading KiB / table with rows | idle heap MiB |");
        md.add("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (TableCountBenchmark.Case c : TableCountBenchmark.CASES) {
            List<TableCountRun> cell = runs.stream().filter(r -> r.configuredTables() == c.configured()
                    && r.activeTables() == c.active()).toList();
            if (cell.isEmpty()) {
                continue;
            }
            md.add(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                            + "| %s |",
                    TableCountRun.label(c.configured(), c.active()), cell.size(),
                    spread(cell, TableCountRun::rowsPerSecond).format("%,.0f"),
                    spread(cell, TableCountRun::seconds).format("%.1f"),
                    spread(cell, r -> r.commits()).format("%.0f"),
                    spread(cell, TableCountRun::requestsPerCommit).format("%.1f"),
                    spread(cell, r -> (double) r.httpRequests() / r.commits()).format("%.1f"),
                    spread(cell, r -> r.tablesLoaded()).format("%.0f"),
                    spread(cell, TableCountRun::commitP50Ms).format("%.0f"),
                    spread(cell, TableCountRun::commitP99Ms).format("%.0f"),
                    spread(cell, r -> r.loadingHeapBytes() / MIB).format("%.2f"),
                    spread(cell, r -> r.bufferedBytes() / MIB).format("%.2f"),
                    spread(cell, r -> r.loadingHeapBytesPerActiveTable() / 1024).format("%.1f"),
                    spread(cell, r -> r.idleHeapBytes() / MIB).format("%.2f")));
        }
        md.add("");
        idleSlope().ifPresent(md::add);
        md.add("");
        md.add("Load average per run (1/5/15 min): " + String.join("; ", runs.stream()
                .map(r -> r.label() + " r" + r.repeat() + " " + r.loadAverage()).toList()) + ".");
        md.add("");
        return md;
    }

    /**
     * What a table the engine loaded once keeps costing when idle: the median idle heap at 1,000 tables less that at
     * 10 tables, per extra table; empty unless both cases ran.
     */
    private java.util.Optional<String> idleSlope() {
        List<TableCountRun> many = runs.stream().filter(r -> r.configuredTables() == 1000 && r.activeTables() == 1000)
                .toList();
        List<TableCountRun> few = runs.stream().filter(r -> r.configuredTables() == 10 && r.activeTables() == 10)
                .toList();
        if (many.isEmpty() || few.isEmpty()) {
            return java.util.Optional.empty();
        }
        double perTable = (spread(many, r -> r.idleHeapBytes()).median() - spread(few, r -> r.idleHeapBytes())
                .median()) / (1000 - 10);
        return java.util.Optional.of(String.format(Locale.ROOT, "Idle heap per table once loaded (median idle heap "
                + "at 1,000 tables less that at 10, per extra table): %.0f B.", perTable));
    }

    private static Spread spread(List<TableCountRun> cell, ToDoubleFunction<TableCountRun> figure) {
        return Spread.of(cell.stream().map(figure::applyAsDouble).toList());
    }
}
