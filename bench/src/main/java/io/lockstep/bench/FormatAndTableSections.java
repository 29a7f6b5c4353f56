package io.lockstep.bench;

import picocli.CommandLine.Option;

/**
 * The report's {@code formats} and {@code tables} sections and their options (a picocli mixin of
 * {@link ReportCommand}): JSON / CSV x none / lz4_frame / gzip ({@link LoadFormatBenchmark},
 * {@link LoadFormatFigures}), and 10 to 1,000 tables with idle ones ({@link TableCountBenchmark},
 * {@link TableCountFigures}). Each section's warm-up runs a quarter of a measured run.
 */
final class FormatAndTableSections {
    /** Repeats of either section when {@code --repeats} is not given. */
    static final int DEFAULT_REPEATS = 3;

    @Option(names = "--format-rows", description = "Rows per run of the formats section, before --scale "
            + "(default: ${DEFAULT-VALUE}).")
    long formatRows = 300_000;

    @Option(names = "--table-ms", description = "Duration of a run of the tables section, ms, before --scale "
            + "(default: ${DEFAULT-VALUE}).")
    long tableMs = 8000;

    /**
     * Runs the formats section into {@code results}.
     *
     * @param repeats rounds, null = {@value #DEFAULT_REPEATS}
     */
    void loadFormats(RunResults results, double scale, Integer repeats) throws Exception {
        results.formatRows = Math.max(1000, Math.round(formatRows * scale));
        results.formatRepeats = repeats == null ? DEFAULT_REPEATS : repeats;
        results.formats.addAll(LoadFormatBenchmark.measure(results.formatRows, results.formatRows / 4,
                results.formatRepeats, System.out::println));
    }

    /**
     * Runs the tables section into {@code results}.
     *
     * @param repeats rounds, null = {@value #DEFAULT_REPEATS}
     */
    void tableCounts(RunResults results, double scale, Integer repeats) throws Exception {
        results.tableCountMs = Math.max(1000, Math.round(tableMs * scale));
        results.tableCountRepeats = repeats == null ? DEFAULT_REPEATS : repeats;
        results.tableCounts.addAll(TableCountBenchmark.measure(results.tableCountMs, results.tableCountMs / 4,
                results.tableCountRepeats, System.out::println));
    }
}
