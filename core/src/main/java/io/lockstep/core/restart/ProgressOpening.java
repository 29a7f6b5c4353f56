package io.lockstep.core.restart;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.LabelStatePoller;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.label.RunId;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.progress.AnotherWriterException;
import io.lockstep.core.progress.CommittedPositions;
import io.lockstep.core.progress.ProgressClock;
import io.lockstep.core.progress.ProgressRow;
import io.lockstep.core.progress.ProgressStore;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.ProgressTableException;
import io.lockstep.core.progress.ProgressTableShape;
import io.lockstep.core.time.Ticker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a sink subtask does at open in the multi-table exactly-once mode, before its engine starts (fresh start,
 * restore, rescale alike):
 * <ol>
 *   <li><b>Check</b> the progress table (missing or other columns → {@link ProgressTableException} with the DDL).</li>
 *   <li><b>Register</b> this run in its own shared transaction (label {@code ...-m0}, its run row with position 0),
 *       waited for until VISIBLE, then <b>read</b> the job's rows until they show it: a follower FE may answer from
 *       an older journal position, and a read that shows the registration shows every run registered before it.
 *       A run registers before it begins any data label, so a later open always finds it.</li>
 *   <li><b>Settle</b> every run of this job id that is registered and not closed, except the sibling subtasks of this
 *       attempt ({@link RunId#sameAttempt}): a run's shared labels are {@code <base>m<cycle>} and its registration
 *       row holds the last cycle it committed, so only later labels can be open or in flight; they are walked
 *       upward until two consecutive labels are unknown to the server. COMMITTED labels (publish timeout, a commit
 *       whose reply was lost) are waited for until VISIBLE; then the runs are watched for
 *       {@code liveWriterGraceMs}, open labels or not (a live writer holds no label between a commit and its next
 *       data) — if a run begins a later label meanwhile it is alive, and the open fails with
 *       {@link AnotherWriterException} — and their open labels (PREPARE) are rolled back. Every subtask settles every such run (a partition may have
 *       moved between subtasks in a rescale, so no subtask may read positions before all are settled); a rollback
 *       of a label a sibling already rolled back succeeds.</li>
 *   <li><b>Close</b> the settled runs, if any: one more transaction (label {@code ...-s1}) sets their run rows to
 *       position {@link ProgressTable#RUN_CLOSED}; waited for until VISIBLE, then the rows are read again until they
 *       show it (the closing commit comes after every label settled above, so such a read reflects them all).
 *       Reads are bounded by {@code readTimeoutMs}. Finally no other writer may have advanced the rows meanwhile
 *       ({@link AnotherWriterException}).</li>
 * </ol>
 * Runs on the thread that opens the subtask; the clock and sleeps go through the given {@link Ticker}.
 */
public final class ProgressOpening {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressOpening.class);
    /** How often the runs being settled are looked at during the live-writer grace period, ms. */
    private static final long WATCH_INTERVAL_MS = 200;

    /** Settings of one open. */
    public record Params(String jobId, String labelPrefix, int subtaskIndex, String runId, int serverTimeoutSeconds,
                         Map<String, String> progressLoadProperties, long liveWriterGraceMs, long visibleTimeoutMs,
                         long readTimeoutMs) {
        /** @throws IllegalArgumentException naming the bad value */
        public Params {
            ProgressTable.checkedJobId(jobId);
            new LabelGenerator(labelPrefix, subtaskIndex, runId); // validates prefix, index and run id
            Objects.requireNonNull(progressLoadProperties, "progressLoadProperties");
        }
    }

    /**
     * The outcome of an open.
     *
     * @param positions         the committed positions after the settle
     * @param registrationLabel this run's registration label ({@code ...-m0})
     * @param settledRuns       run ids this open settled
     */
    public record Result(CommittedPositions positions, String registrationLabel, List<String> settledRuns) {
    }

    /** An earlier run being settled: its run row and what the walk over its labels found. */
    private record RunWalk(ProgressRow row, SharedLabelRun labels) {
    }

    private final TransactionClient client;
    private final ProgressStore store;
    private final Params params;
    private final Ticker ticker;
    private final LoadMetrics metrics;
    private final String database;
    private final SharedLabelWalk walk;

    /**
     * @param ticker the clock of the waits and of {@code committed_at} (informational, {@link ProgressClock#now})
     */
    public ProgressOpening(TransactionClient client, ProgressStore store, Params params, Ticker ticker,
                           LoadMetrics metrics) {
        this.client = Objects.requireNonNull(client, "client");
        this.store = Objects.requireNonNull(store, "store");
        this.params = Objects.requireNonNull(params, "params");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.database = store.table().database();
        this.walk = new SharedLabelWalk(client, ticker, metrics, params.visibleTimeoutMs(), true);
    }

    /**
     * Checks, settles, registers and reads (see the class comment).
     *
     * @throws ProgressTableException  if the progress table is missing or has other columns
     * @throws AnotherWriterException  if another writer advances this job's rows
     * @throws TransactionException    if the server cannot be read or a settle step fails; nothing is lost, the next
     *                                 open settles again
     * @throws InterruptedException    if interrupted while waiting
     */
    public Result open() throws TransactionException, InterruptedException {
        ProgressTableShape shape = store.checkTable();
        if (!shape.hasCommitPositions()) {
            warnLegacy();
        }
        LabelGenerator labels = new LabelGenerator(params.labelPrefix(), params.subtaskIndex(), params.runId());
        String registration = labels.sharedLabel(0);
        commitProgressRows(registration, List.of(new ProgressRow(params.jobId(),
                ProgressTable.runSource(params.runId()), params.subtaskIndex(), 0, params.runId(), registration,
                ProgressClock.now(ticker))));
        List<ProgressRow> rows = readUntil(shape, r -> showsRegistration(r, registration),
                "this run's registration label " + registration);
        List<RunWalk> runs = new ArrayList<>();
        for (ProgressRow row : rows) {
            if (row.isRunRow() && row.position() != ProgressTable.RUN_CLOSED && mustSettle(row)) {
                runs.add(new RunWalk(row, new SharedLabelRun(row.runId(), database, labelBase(row.label()),
                        row.position())));
            }
        }
        for (RunWalk run : runs) {
            walk.walk(run.labels());
        }
        settleOpen(runs);
        if (!runs.isEmpty()) {
            String closing = labels.closingLabel();
            commitProgressRows(closing, closingRows(runs));
            rows = readUntil(shape, r -> showsClosed(r, runs), "the closing rows (label " + closing + ") of the runs it "
                    + "settled");
        }
        checkNoOtherWriter(rows, runs);
        List<String> settled = new ArrayList<>();
        for (RunWalk run : runs) {
            settled.add(run.row.runId());
        }
        CommittedPositions positions = ProgressStore.positionsOf(rows, shape);
        LOG.info("job {} subtask {} run {}: settled {} earlier run(s) {}, committed positions {}", params.jobId(),
                params.subtaskIndex(), params.runId(), settled.size(), settled, positions);
        return new Result(positions, registration, List.copyOf(settled));
    }

    /**
     * A legacy table keeps no commit positions: one WARN line per sink (subtask 0; the others say it at INFO) with
     * the statement that upgrades it.
     */
    private void warnLegacy() {
        String line = "job {} subtask {}: the progress table {} has no commit_position column (created by an earlier "
                + "release), so source commit positions are not committed and re-sent source transactions are "
                + "deduplicated by source position only "
                + "(docs/exactly-once.md#upgrading-a-progress-table); upgrade it with: {}";
        Object[] args = {params.jobId(), params.subtaskIndex(), store.table().qualifiedName(),
                store.table().addCommitPositionColumnSql()};
        if (params.subtaskIndex() == 0) {
            LOG.warn(line, args);
        } else {
            LOG.info(line, args);
        }
    }

    private boolean showsRegistration(List<ProgressRow> rows, String registration) {
        for (ProgressRow row : rows) {
            if (row.isRunRow() && row.runId().equals(params.runId()) && row.label().equals(registration)) {
                return true;
            }
        }
        return false;
    }

    /**
     * True once every settled run's row shows it closed; a settled run whose row shows a cycle beyond what the walk
     * saw committed again after it was settled: another writer.
     */
    private boolean showsClosed(List<ProgressRow> rows, List<RunWalk> runs) {
        Map<String, ProgressRow> runRows = new LinkedHashMap<>();
        for (ProgressRow row : rows) {
            if (row.isRunRow()) {
                runRows.put(row.runId(), row);
            }
        }
        boolean closed = true;
        for (RunWalk run : runs) {
            ProgressRow row = runRows.get(run.row.runId());
            if (row != null && row.position() > run.labels().highestSeenCycle()) {
                throw anotherWriter(row, "committed cycle " + row.position() + " after this subtask settled it");
            }
            closed &= row != null && row.position() == ProgressTable.RUN_CLOSED;
        }
        return closed;
    }

    private List<ProgressRow> closingRows(List<RunWalk> runs) {
        String now = ProgressClock.now(ticker);
        List<ProgressRow> rows = new ArrayList<>();
        for (RunWalk run : runs) {
            rows.add(new ProgressRow(params.jobId(), run.row.source(), run.row.sourcePartition(),
                    ProgressTable.RUN_CLOSED, run.row.runId(), run.labels().label(run.labels().lastCommittedCycle()),
                    now));
        }
        return rows;
    }

    /** Not this run, and not a sibling subtask of this attempt (an earlier attempt's run of this index counts). */
    private boolean mustSettle(ProgressRow row) {
        if (row.runId().equals(params.runId())) {
            return false;
        }
        return !RunId.sameAttempt(row.runId(), params.runId()) || row.sourcePartition() == params.subtaskIndex();
    }

    /**
     * Open labels: watched for the grace period (a commit in flight may still land, an alive writer begins a later
     * label), then rolled back.
     */
    private void settleOpen(List<RunWalk> runs) throws TransactionException, InterruptedException {
        // Watched even when no label is open: a live writer begins its shared transaction only once it has data
        // to load, so between two commits it holds no label and looks exactly like a dead run. Only its next label,
        // begun within the grace period, tells them apart (a writer without data cannot be seen: docs/exactly-once.md).
        if (runs.isEmpty()) {
            return;
        }
        new LabelStatePoller(ticker, WATCH_INTERVAL_MS, WATCH_INTERVAL_MS).poll(() -> {
            for (RunWalk run : runs) {
                String next = run.labels().label(run.labels().highestSeenCycle() + 1);
                if (client.labelState(database, next) != LabelState.UNKNOWN) {
                    throw new AnotherWriterException("job id " + params.jobId() + ": run " + run.row.runId()
                            + " began label " + next + " while subtask " + params.subtaskIndex() + " was settling "
                            + "it: another job with the same sink.transaction.multi-table.job-id is running (a "
                            + "second job is refused; stop it or give this job its own job id)");
                }
                walk.refresh(run.labels());
            }
            return runs;
        }, watched -> false, params.liveWriterGraceMs(), null);
        for (RunWalk run : runs) {
            walk.rollBackOpen(run.labels(), "job " + params.jobId());
        }
    }

    /** Loads {@code rows} into the progress table in a transaction of its own, commits it, waits until VISIBLE. */
    private void commitProgressRows(String label, List<ProgressRow> rows) throws TransactionException,
            InterruptedException {
        TransactionRef ref = TransactionRef.multiTable(database, label);
        client.begin(ref, params.serverTimeoutSeconds());
        try {
            client.load(ref, store.table().table(), ProgressTable.body(rows), params.progressLoadProperties());
        } catch (TransactionException | RuntimeException e) {
            try {
                client.rollback(ref);
            } catch (TransactionException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw e;
        }
        client.commit(ref);
        walk.awaitVisible(database, label);
    }

    /**
     * Reads the job's rows until {@code fresh} accepts them (a follower FE may answer from an older state), within
     * {@code readTimeoutMs}.
     */
    private List<ProgressRow> readUntil(ProgressTableShape shape, Predicate<List<ProgressRow>> fresh, String what)
            throws TransactionException, InterruptedException {
        LabelStatePoller.Outcome<List<ProgressRow>> read = LabelStatePoller.forSettling(ticker).poll(
                () -> store.readJob(params.jobId(), shape), fresh, params.readTimeoutMs(), (first, remainingMs) ->
                        LOG.debug("progress rows do not show {} yet (the answering FE lags); reading again", what));
        if (!read.reached()) {
            throw new TransactionException("job " + params.jobId() + ": the progress table "
                    + store.table().qualifiedName() + " read through the HTTP SQL API does not show " + what + " "
                    + params.readTimeoutMs() + " ms after it became VISIBLE: the FE that answers lags behind; "
                    + "positions are not read from an older state", null);
        }
        return read.last();
    }

    /**
     * Another writer shows when a run this open settled (or did not know) committed again: its run row reopened,
     * a run registered that is neither this attempt's nor settled here, or a data row carries a settled run's label
     * beyond what the walk saw.
     */
    private void checkNoOtherWriter(List<ProgressRow> rows, List<RunWalk> runs) {
        Map<String, RunWalk> settled = new LinkedHashMap<>();
        for (RunWalk run : runs) {
            settled.put(run.row.runId(), run);
        }
        for (ProgressRow row : rows) {
            RunWalk run = settled.get(row.runId());
            if (row.isRunRow()) {
                if (row.position() == ProgressTable.RUN_CLOSED || row.runId().equals(params.runId())) {
                    continue;
                }
                if (run != null) {
                    throw anotherWriter(row, "committed cycle " + row.position() + " after this subtask settled it");
                }
                boolean knownBefore = RunId.sameAttempt(row.runId(), params.runId())
                        && row.sourcePartition() != params.subtaskIndex();
                if (!knownBefore) {
                    throw anotherWriter(row, "registered while this subtask opened");
                }
            } else if (run != null && LabelGenerator.sharedLabelCycle(row.label()) > run.labels().highestSeenCycle()) {
                throw anotherWriter(row, "advanced " + row.source() + "/" + row.sourcePartition() + " with label "
                        + row.label() + " after this subtask settled it");
            }
        }
    }

    private AnotherWriterException anotherWriter(ProgressRow row, String what) {
        return new AnotherWriterException("job id " + params.jobId() + ": run " + row.runId() + " " + what
                + ": another job with the same sink.transaction.multi-table.job-id is writing the progress table "
                + store.table().qualifiedName() + " (a second job is refused; stop it or give this job its own job id)");
    }

    /** {@code prefix-3-runid-m17} → {@code prefix-3-runid-m}. */
    private static String labelBase(String label) {
        try {
            return LabelGenerator.sharedLabelBaseOf(label);
        } catch (IllegalArgumentException e) {
            throw new ProgressTableException("progress table run row has label '" + label + "', which is not a shared "
                    + "label ({prefix}-{subtask}-{runId}-m{cycle})");
        }
    }
}
