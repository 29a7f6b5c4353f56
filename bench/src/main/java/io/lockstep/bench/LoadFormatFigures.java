package io.lockstep.bench;

import io.lockstep.bench.ReportWriter.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The markdown of the {@code formats} section ({@link LoadFormatBenchmark}): per format and compression the median
 * (min–max) over the repeats of the bytes on the wire, the sink's CPU per GB of input rows and the rates.
 */
final class LoadFormatFigures {
    private final List<LoadFormatRun> runs;

    LoadFormatFigures(List<LoadFormatRun> runs) {
        this.runs = List.copyOf(runs);
    }

    /** @return the section's lines; "(not measured)" without runs */
    List<String> markdown(long rowsPerRun, int repeats) {
        long averageRowBytes = runs.isEmpty() ? 0 : runs.get(0).inputBytes() / runs.get(0).rows();
        List<String> md = new ArrayList<>();
        md.add("## Load formats: bytes on the wire and sink CPU (`formats`)");
        md.add("");
        md.add(String.format(Locale.ROOT, "The same %,d wide CDC rows per run (`%s.%s`, 18 columns: BIGINT, INT, "
                + "DECIMAL, BOOLEAN, DATE, DATETIME(6), short codes, e-mail, city, a free-text note, DOUBLE, NULLs; "
                + "~%d B of JSON each, values drawn from small vocabularies by a seeded generator) written by one "
                + "thread into the multi-table engine (core, no Flink; source transactions of 1-4 rows over %d "
                + "source partitions, commit interval %d ms, buffer-size 128 MiB), then a flush; StarRocks headers "
                + "(JSON: `compression: LZ4_FRAME|GZIP`; CSV: `format: lz4|gzip`, tab and line feed). The emulator in "
                + "the report's JVM (`none` store, FE -> BE redirect) decompresses, parses and type-checks every "
                + "body. **Wire** = load body bytes the emulator received (compressed as sent; HTTP headers and the "
                + "body-less 307 not counted; equal to the client's `loadedBytes`). **Sink CPU** = CPU time of the "
                + "writer thread and the engine's manager and I/O threads (row checks, CSV encoding, buffering, "
                + "body assembly and compression, HTTP), read per thread; **client CPU** = process CPU outside the "
                + "emulator's server threads, which adds GC and JIT (the emulator's garbage from decompressing and "
                + "parsing is collected on the same heap, so it overstates the sink). Per GB = per GB of input rows "
                + "as JSON. One unrecorded warm-up run of each variant, then %d round(s), the variants' order "
                + "rotating per round. The time includes the final flush: the emulator's parsing on the same 2 cores "
                + "bounds it, so rows/s is not the sink's limit.", rowsPerRun, BenchTables.DATABASE,
                WideCdcRows.TABLE, averageRowBytes, EngineScenario.PARTITIONS, LoadFormatBenchmark.COMMIT_INTERVAL_MS,
                repeats));
        md.add("");
        if (runs.isEmpty()) {
            md.add("(not measured)");
            md.add("");
            return md;
        }
        md.add("| format | runs | wire / input | wire B/row | loads | sink CPU s/GB | client CPU s/GB | input MB/s "
                + "| rows/s |");
        md.add("|---|---|---|---|---|---|---|---|---|");
        for (LoadFormatBenchmark.Variant variant : LoadFormatBenchmark.VARIANTS) {
            List<LoadFormatRun> cell = runs.stream().filter(r -> r.variant().equals(variant)).toList();
            if (cell.isEmpty()) {
                continue;
            }
            md.add(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |", variant.label(),
                    cell.size(), spread(cell, LoadFormatRun::wireRatio).format("%.3f"),
                    spread(cell, LoadFormatRun::wireBytesPerRow).format("%.0f"),
                    spread(cell, r -> r.loads()).format("%.0f"),
                    spread(cell, LoadFormatRun::loadingCpuSecondsPerGb).format("%.1f"),
                    spread(cell, LoadFormatRun::clientCpuSecondsPerGb).format("%.1f"),
                    spread(cell, LoadFormatRun::inputMegabytesPerSecond).format("%.1f"),
                    spread(cell, LoadFormatRun::rowsPerSecond).format("%,.0f")));
        }
        md.add("");
        md.add("Load average per run (1/5/15 min): " + String.join("; ", runs.stream()
                .map(r -> r.variant().label() + " r" + r.repeat() + " " + r.loadAverage()).toList()) + ".");
        md.add("");
        return md;
    }

    private static Spread spread(List<LoadFormatRun> cell, ToDoubleFunction<LoadFormatRun> figure) {
        return Spread.of(cell.stream().map(figure::applyAsDouble).toList());
    }
}
