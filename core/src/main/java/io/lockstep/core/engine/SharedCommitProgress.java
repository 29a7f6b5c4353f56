package io.lockstep.core.engine;

import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.progress.ProgressClock;
import io.lockstep.core.progress.ProgressRow;
import io.lockstep.core.progress.ProgressSettings;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.time.Ticker;

import java.util.ArrayList;
import java.util.List;

/**
 * Multi-table exactly-once mode: the progress rows a shared commit carries
 * (docs/exactly-once.md#multi-table-exactly-once-progress-table). Just before the commit, it loads into the progress
 * table, under the shared label, one row per (job id, source, source partition) the commit covers, with its highest
 * position, one {@code #commit:<commitSource>} row per (commit source, source partition) whose transaction ends
 * carried a commit position, with the last such end's position and text (not with a legacy table without
 * {@code commit_position}: {@link ProgressSettings#commitPositions()}), and this run's registration row with the
 * commit cycle, so data, positions, commit positions and the run's last committed cycle become visible together or
 * not at all.
 *
 * <p>Immutable; the manager thread calls it (from {@link SharedTransactionCycle}).
 */
final class SharedCommitProgress {
    private final ProgressSettings progress;
    private final String runId;
    private final int subtaskIndex;
    private final TransactionClient client;
    private final LoadMetrics metrics;
    /** The engine's clock: the rows' {@code committed_at}, informational only. */
    private final Ticker ticker;

    /**
     * @param progress     the job id and progress table
     * @param runId        this run's identity (its labels' run id)
     * @param subtaskIndex this sink subtask, the source partition of the run's registration row
     */
    SharedCommitProgress(ProgressSettings progress, String runId, int subtaskIndex, TransactionClient client,
                         LoadMetrics metrics, Ticker ticker) {
        this.progress = progress;
        this.runId = runId;
        this.subtaskIndex = subtaskIndex;
        this.client = client;
        this.metrics = metrics;
        this.ticker = ticker;
    }

    /**
     * Loads the progress rows of the commit of {@code txn} under its label.
     *
     * @param cycle     the commit cycle of {@code txn}, written into the run's registration row
     * @param covered highest source position per (source, source partition) and last commit position per (commit
     *                source, source partition) that the commit's cut covers
     * @throws TransactionException if the load fails (the cycle then fails; nothing is committed)
     */
    void load(TransactionRef txn, long cycle, SourcePositionsByFreeze.Covered covered) throws TransactionException {
        String committedAt = ProgressClock.now(ticker);
        List<ProgressRow> rows = new ArrayList<>();
        covered.positions().forEach((source, position) -> rows.add(new ProgressRow(progress.jobId(), source.source(),
                source.partition(), position, runId, txn.label(), committedAt)));
        if (progress.commitPositions()) {
            covered.commits().forEach((commit, mark) -> rows.add(new ProgressRow(progress.jobId(),
                    ProgressTable.commitSource(commit.source()), commit.partition(), mark.position(), runId,
                    txn.label(), committedAt, mark.text())));
        }
        rows.add(new ProgressRow(progress.jobId(), ProgressTable.runSource(runId), subtaskIndex, cycle, runId,
                txn.label(), committedAt));
        String table = progress.table().table();
        byte[] body = ProgressTable.body(rows);
        client.load(txn, table, body, ProgressTable.LOAD_PROPERTIES);
        metrics.tableCounter(MetricNames.LOADS, txn.database(), table).inc();
        metrics.tableCounter(MetricNames.LOADED_ROWS, txn.database(), table).inc(rows.size());
    }
}
