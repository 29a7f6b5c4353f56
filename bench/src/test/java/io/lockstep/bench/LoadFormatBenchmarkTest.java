package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.bench.LoadFormatBenchmark.Variant;
import io.lockstep.emulator.StarRocksEmulator;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The load-format benchmark at a tiny size: every format and compression loads every row written into the emulator
 * (the run checks it), and the bytes the emulator received are the bytes the client says it sent (the timing and the
 * CPU figures are not checked).
 */
class LoadFormatBenchmarkTest {
    private static final long ROWS = 10_000;
    private static StarRocksEmulator emulator;
    private static WireBytesParser wire;
    private static WideCdcRows rows;

    @BeforeAll
    static void start() throws Exception {
        wire = new WireBytesParser();
        rows = new WideCdcRows(512, 42);
        emulator = StarRocksEmulator.builder().storage("none").parser(wire).ddl(WideCdcRows.ddl()).build().start();
    }

    @AfterAll
    static void stop() {
        if (emulator != null) {
            emulator.close();
        }
    }

    @Test
    void everyVariantLoadsItsRowsAndTheWireBytesAreWhatTheClientSent() throws Exception {
        Map<String, LoadFormatRun> byLabel = new HashMap<>();
        for (Variant variant : LoadFormatBenchmark.VARIANTS) {
            LoadFormatRun run = LoadFormatBenchmark.run(variant, 0, emulator, wire, rows, ROWS);
            System.out.println(LoadFormatBenchmark.describe(run));

            assertThat(run.rows()).as(variant.label()).isBetween(ROWS, ROWS + 3);
            assertThat(run.loads()).as(variant.label()).isPositive();
            assertThat(run.wireBytes()).as(variant.label()).isPositive().isEqualTo(run.clientBodyBytes());
            assertThat(run.loadingCpuNs()).as(variant.label()).isPositive();
            byLabel.put(variant.label(), run);
        }
        // per row: a run ends with its last whole source transaction, so the row counts differ by up to 3
        for (String format : new String[] {"json", "csv"}) {
            double plain = byLabel.get(format).wireBytesPerRow();
            assertThat(byLabel.get(format + " + lz4_frame").wireBytesPerRow()).as(format).isLessThan(plain);
            assertThat(byLabel.get(format + " + gzip").wireBytesPerRow()).as(format).isLessThan(plain);
        }
        assertThat(byLabel.get("csv").wireBytesPerRow()).isLessThan(byLabel.get("json").wireBytesPerRow());
    }

    @Test
    void theWideRowsAreDistinctJsonObjectsOfTheDocumentedWidth() {
        assertThat(rows.averageBytes()).isBetween(350, 550);
        assertThat(new String(rows.get(0), java.nio.charset.StandardCharsets.UTF_8))
                .startsWith("{\"id\":0,").endsWith("}");
        assertThat(rows.get(1)).isNotEqualTo(rows.get(2));
    }
}
