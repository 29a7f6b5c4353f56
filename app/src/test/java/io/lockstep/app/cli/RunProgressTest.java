package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.assemble.CommittedSourcePositions;
import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.server.Target;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The summary's figures add up: source transactions read = skipped as committed by an earlier run + committed + the
 * rest, and the rest is named by how the run ended.
 */
class RunProgressTest {
    private final Map<String, Long> counters = new HashMap<>();
    private long nanos;

    @Test
    void aStoppedRunNamesTheTransactionsItRolledBack() {
        counters.put(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC, 12L);
        counters.put(MetricNames.SOURCE_TRANSACTIONS_SKIPPED, 2L);
        counters.put(MetricNames.SOURCE_TRANSACTIONS_COMMITTED, 9L);
        counters.put(MetricNames.COMMITTED_ROWS, 340L);
        counters.put(MetricNames.COMMITS, 4L);

        assertThat(progress(Target.STARROCKS).summary(RunProgress.Ending.STOPPED)).isEqualTo("12 source "
                + "transactions read, 2 skipped as committed by an earlier run, 9 committed, 1 rolled back, 340 rows "
                + "committed, 4 StarRocks transactions, 0 restarts in 12.5 s; stopped by signal");
    }

    @Test
    void eachEndingNamesTheRestByWhatBecameOfIt() {
        counters.put(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC, 3L);
        counters.put(MetricNames.SOURCE_TRANSACTIONS_COMMITTED, 1L);

        assertThat(progress(Target.STARROCKS).summary(RunProgress.Ending.FAILED))
                .contains("3 source transactions read, 1 committed, 2 rolled back, 0 rows committed").endsWith("; failed");
        assertThat(progress(Target.STARROCKS).summary(RunProgress.Ending.NOT_STOPPED_IN_TIME))
                .contains("1 committed, 2 left pending (the server times them out), 0 rows");
        assertThat(progress(Target.STARROCKS).summary(RunProgress.Ending.END_OF_INPUT))
                .contains("1 committed, 2 without rows to load, 0 rows").endsWith("; end of input");
    }

    @Test
    void allCommittedNamesNoRestAndDorisCountsRowsSent() {
        counters.put(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC, 8L);
        counters.put(MetricNames.SOURCE_TRANSACTIONS_COMMITTED, 8L);
        counters.put(MetricNames.LOADED_ROWS, 24L);

        assertThat(progress(Target.STARROCKS).summary(RunProgress.Ending.END_OF_INPUT))
                .startsWith("8 source transactions read, 8 committed, 0 rows committed, ");
        assertThat(progress(Target.DORIS).summary(RunProgress.Ending.END_OF_INPUT))
                .startsWith("8 source transactions read, 24 rows sent, 0 Doris transactions, ");
    }

    @Test
    void transactionsARestartedConnectorSentAgainAreNamedInTheSummaryAndTheProgressLine() {
        counters.put(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC, 5L);
        counters.put(CommittedSourcePositions.RESENT_METRIC, 3L);
        counters.put(MetricNames.SOURCE_TRANSACTIONS_COMMITTED, 5L);

        RunProgress progress = progress(Target.STARROCKS);
        assertThat(progress.summary(RunProgress.Ending.END_OF_INPUT)).startsWith("5 source transactions read, 3 source "
                + "transactions re-sent by the connector dropped (already loaded: same source commit position), 5 "
                + "committed, ");
        assertThat(progress.line()).contains("read 5 | re-sent dropped 3 | committed 5");
        counters.remove(CommittedSourcePositions.RESENT_METRIC);
        assertThat(progress.line()).doesNotContain("re-sent");
    }

    private RunProgress progress(Target target) {
        nanos = 0;
        RunProgress progress = new RunProgress(name -> counters.getOrDefault(name, 0L), name -> -1L, target,
                () -> nanos);
        nanos = 12_500_000_000L;
        return progress;
    }
}
