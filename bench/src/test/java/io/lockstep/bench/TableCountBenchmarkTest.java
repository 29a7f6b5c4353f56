package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.bench.TableCountBenchmark.Case;
import io.lockstep.emulator.StarRocksEmulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The table-count benchmark at a tiny size: the rows written reach the emulator (the run checks it), the tables that
 * receive rows are loaded, those that do not are not, and the client's requests match what the emulator served (the
 * timing is not checked).
 */
class TableCountBenchmarkTest {
    private static final long RUN_MS = 300;
    private static StarRocksEmulator emulator;
    private static final RowPool POOL = new RowPool(256, TableCountBenchmark.ROW_BYTES);

    @BeforeAll
    static void start() throws Exception {
        emulator = TableCountBenchmark.emulator();
    }

    @AfterAll
    static void stop() {
        if (emulator != null) {
            emulator.close();
        }
    }

    @Test
    void configuredTablesWithoutRowsAreNeverLoaded() throws Exception {
        TableCountRun run = TableCountBenchmark.run(new Case(1000, 10), 0, emulator, POOL, RUN_MS);
        System.out.println(TableCountBenchmark.describe(run));

        assertThat(run.label()).isEqualTo("1,000 tables, rows for 10");
        assertThat(run.tablesLoaded()).isEqualTo(10);
        assertThat(run.commits()).isPositive();
        assertThat(run.loads()).isPositive();
    }

    @Test
    void hundredTablesAreAllLoadedAndEveryClientRequestReachesTheEmulator() throws Exception {
        TableCountRun run = TableCountBenchmark.run(new Case(100, 100), 0, emulator, POOL, RUN_MS);
        System.out.println(TableCountBenchmark.describe(run));

        assertThat(run.sourceTxns() % 64).isZero();
        assertThat(run.rows()).isBetween(run.sourceTxns(), run.sourceTxns() * TableCountBenchmark.MAX_TABLES_PER_TXN);
        assertThat(run.tablesLoaded()).isEqualTo(100);
        assertThat(run.requests()).isEqualTo(run.loads() + 2 * run.commits() + 1);
        // each client request is one HTTP request at the FE, plus one at the BE when redirected
        assertThat(run.httpRequests()).isBetween(run.requests(), 2 * run.requests());
        assertThat(run.commitP99Ms()).isGreaterThanOrEqualTo(run.commitP50Ms());
    }

    @Test
    void percentileIsTheNearestRank() {
        assertThat(TableCountBenchmark.percentile(java.util.List.of(1L, 2L, 3L, 4L), 0.5)).isEqualTo(2.0);
        assertThat(TableCountBenchmark.percentile(java.util.List.of(1L, 2L, 3L, 4L), 0.99)).isEqualTo(4.0);
        assertThat(TableCountBenchmark.percentile(java.util.List.of(), 0.99)).isNaN();
    }
}
