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

    @Option(names = "--table-txns", description = "Source transactions per run of the tables section, before "
            + "--scale (default: ${DEFAULT-VALUE}).")
    long tableTxns = 100_000;

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
        results.tableCountTxns = Math.max(1000, Math.round(tableTxns * scale));
        results.tableCountRepeats = repeats == null ? DEFAULT_REPEATS : repeats;
        results.tableCounts.addAll(TableCountBenchmark.measure(results.tableCountTxns, results.tableCountTxns / 4,
                results.tableCountRepeats, System.out::println));
    }
}
