package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.bench.LoadFormatBenchmark.Variant;
import io.lockstep.core.format.BodyCompression;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The formats and tables sections' arithmetic and tables: medians (min–max) over repeats, per GB and per commit. */
class FormatAndTableFiguresTest {
    private static final Variant JSON_GZIP = new Variant("json", BodyCompression.GZIP);

    @Test
    void formatFiguresAreMediansPerGbOfInputRows() {
        // 1 GB of input each; wire 0.2, 0.1, 0.3 GB; loading CPU 10, 20, 30 s; client CPU 40 s; 10, 20, 40 s
        List<LoadFormatRun> runs = List.of(format(0, 200_000_000L, 10, 10), format(1, 100_000_000L, 20, 20),
                format(2, 300_000_000L, 30, 40));

        List<String> md = new LoadFormatFigures(runs).markdown(2_000_000, 3);

        // wire per row: 0.2e9 / 2e6 rows = 100 B; input MB/s: 1000 / 10, 20, 40 s
        assertThat(md).contains("| json + gzip | 3 | 0.200 (0.100–0.300) | 100 (50–150) | 4 | 20.0 (10.0–30.0) | "
                + "40.0 | 50.0 (25.0–100.0) | 100,000 (50,000–200,000) |");
        assertThat(md).noneMatch(line -> line.startsWith("| csv"));
        assertThat(new LoadFormatFigures(List.of()).markdown(1000, 3)).contains("(not measured)");
    }

    @Test
    void tableFiguresArePerCommitAndPerTableWithRows() {
        List<TableCountRun> runs = List.of(tables(1000, 10, 0, 2.0), tables(1000, 10, 1, 4.0),
                tables(1000, 10, 2, 8.0));

        List<String> md = new TableCountFigures(runs).markdown(100_000, 3);

        // 200,000 rows in 2, 4, 8 s; 1,030 requests and 2,060 HTTP requests over 10 commits; heap 12 MiB over 10
        // tables with rows = 1,228.8 KiB
        assertThat(md).contains("| 1,000 tables, rows for 10 | 3 | 50,000 (25,000–100,000) | 4.0 (2.0–8.0) | 10 | "
                + "103.0 | 206.0 | 10 | 5 | 9 | 12.00 | 2.00 | 1228.8 | 0.50 |");
        assertThat(md).noneMatch(line -> line.startsWith("| 10 tables"));
        assertThat(md).noneMatch(line -> line.startsWith("Idle heap per table"));
        assertThat(new TableCountFigures(List.of()).markdown(1000, 3)).contains("(not measured)");
    }

    @Test
    void theIdleHeapPerTableIsTheSlopeFromTenToAThousandTables() {
        TableCountRun ten = new TableCountRun(10, 10, 0, 1, 1, 1, 1, 1, 1, 1, 10, 1, 1, 1, 1, 400_000, "1 1 1");
        TableCountRun thousand = new TableCountRun(1000, 1000, 0, 1, 1, 1, 1, 1, 1, 1, 1000, 1, 1, 1, 1, 598_000,
                "1 1 1");

        // (598,000 - 400,000) B / 990 tables = 200 B
        assertThat(new TableCountFigures(List.of(ten, thousand)).markdown(8000, 1))
                .contains("Idle heap per table once loaded (median idle heap at 1,000 tables less that at 10, per "
                        + "extra table): 200 B.");
    }

    private static LoadFormatRun format(int repeat, long wire, long loadingSeconds, double seconds) {
        return new LoadFormatRun(JSON_GZIP, repeat, 2_000_000, 1_000_000_000L, wire, wire, 4, seconds,
                loadingSeconds * 1_000_000_000L, 40_000_000_000L, "1 1 1");
    }

    private static TableCountRun tables(int configured, int active, int repeat, double seconds) {
        return new TableCountRun(configured, active, repeat, 200_000, 100_000, seconds, 1010, 10, 1030, 2060, active,
                5, 9, 12L << 20, 2L << 20, 1L << 19, "1 1 1");
    }
}
