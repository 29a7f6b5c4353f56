package io.lockstep.flink.sink;

import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.PreparedTransaction;
import io.lockstep.core.engine.SingleTableLoadEngine;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.RunIdClaim;
import io.lockstep.core.restart.LingeringScope;
import io.lockstep.core.restart.LingeringTransactionAborter;
import io.lockstep.core.restart.RestoredTransactionCommitter;
import io.lockstep.core.restart.TableId;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.options.SinkOptionDefinitions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.annotation.Nullable;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subtask of the exactly-once single-table sink, whichever Flink API runs it ({@link ExactlyOnceSinkFunction},
 * {@code v2.ExactlyOnceSinkWriter}): what it settles at open, its client and run identity ({@link SinkRuntime}), the
 * single-table engine in exactly-once mode (one transaction per table and epoch), the row dispatcher, the prepare
 * before a checkpoint barrier, the state it keeps, its failure watch and its close (docs/exactly-once.md). The API
 * classes only translate Flink's calls: the SinkFunction keeps the prepared transactions in its operator state and
 * commits them through {@link #commit}; the Sink V2 writer hands them to its committer as committables.
 *
 * <p><b>Epochs.</b> Every prepare closes one numbered epoch; its labels are
 * {@code {prefix}-{table}-{subtask}-{runId}-{epoch}} (Doris: {@code ..._{flush}}). The SinkFunction numbers epochs by
 * Flink's checkpoint ids; the Sink V2 writer by its own counter, since Sink V2 asks for the committables before it
 * names the checkpoint ({@link Start#epochName} says which, for messages).
 *
 * <p><b>Open</b>, before any row: commit the transactions the restored states still hold (COMMITTED/VISIBLE counts
 * as done; a label that is ABORTED or forgotten fails the start, since that epoch's rows are lost); roll back the
 * labels the restored runs may have opened after their epochs ({@link LingeringTransactionAborter}, with
 * {@code sink.exactly-once.enable-abort-lingering-txn}): never a committed one, never one held in state; then claim
 * the run id ({@link RunIdClaim}: derived from the job, the restored runs and epoch with a fixed target table, so
 * the next attempt from the same checkpoint finds what this one leaves open; random with {@code *} routing). Failures
 * no restart can heal (access denied, a data error) are raised as {@link NonRecoverableSinkFailure}.
 *
 * <p>{@link #close} never flushes: it rolls back only the transactions not yet prepared (prepared ones belong to a
 * checkpoint and are settled by a commit or by the next restore).
 *
 * <p>Task thread only: created in the sink's {@code open} (or the writer's constructor), closed in {@code close}; the
 * engine runs its own manager and I/O threads, and the failure watch's callbacks run on the task thread too.
 */
@NotThreadSafe
public final class ExactlyOnceSubtask implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceSubtask.class);

    /**
     * What a subtask opens with.
     *
     * @param jobId           the job id (hex), from which the run id is derived
     * @param restored        the states restored for this subtask (empty on a fresh start)
     * @param restoredEpoch   the epoch the restore resumes after (0 on a fresh start): the engine's labels continue
     *                        above it
     * @param epochName       what the sink calls an epoch in messages: {@code "checkpoint"} or {@code "epoch"}
     * @param failureTarget   where the engine's failure reaches the task thread (the writer's mailbox, a
     *                        SinkFunction's timers), or null for none (a unit
     *                        test opening a SinkFunction by hand)
     */
    public record Start(SinkSettings settings, RowRouting routing, int subtaskIndex, MetricGroup metricGroup,
                        String jobId, List<ExactlyOnceSinkState> restored, long restoredEpoch, String epochName,
                        @Nullable EngineFailureWatch.Target failureTarget) {
    }

    private final String labelPrefix;
    private final SinkRuntime runtime;
    private final SingleTableLoadEngine engine;
    private final long commitTimeoutMs;
    /** Every table written by this run and the runs it restored, so a later restore can name their labels. */
    private final Set<TableId> tables;
    private final String epochName;
    private final RowDispatcher dispatcher;
    /** Null when opened without a failure target. */
    @Nullable
    private final EngineFailureWatch failureWatch;

    private ExactlyOnceSubtask(Start start, SinkRuntime runtime, SingleTableLoadEngine engine, long commitTimeoutMs,
                               Set<TableId> tables) {
        this.labelPrefix = start.settings().labelPrefix();
        this.runtime = runtime;
        this.engine = engine;
        this.commitTimeoutMs = commitTimeoutMs;
        this.tables = tables;
        this.epochName = start.epochName();
        this.dispatcher = new RowDispatcher(start.routing(), false, new RowDispatcher.EngineCalls() {
            @Override
            public void write(int partition, String database, String table, byte[] row)
                    throws InterruptedException {
                tables.add(new TableId(database, table));
                engine.write(database, table, row);
            }

            @Override
            public void txnEnd(int partition) {
                // single-table exactly-once commits per epoch, not per source transaction
            }
        });
        this.failureWatch = start.failureTarget() == null ? null : EngineFailureWatch.start(start.failureTarget(),
                engine::checkFailure, engine::onFirstFailure);
    }

    /**
     * Settles what the restored runs left (see the class comment), claims the run id, opens the subtask's client and
     * starts its engine; on failure closes what it opened.
     *
     * @throws LoadEngineException naming the subtask if a restored transaction cannot be committed (the label, table
     *                             and epoch are named in the cause), inside a {@link NonRecoverableSinkFailure} when
     *                             no restart can heal it
     */
    public static ExactlyOnceSubtask open(Start start) {
        SinkSettings settings = start.settings();
        Set<TableId> tables = new LinkedHashSet<>();
        TableId fixed = fixedTarget(settings);
        if (fixed != null) {
            tables.add(fixed);
        }
        String runId;
        try (TransactionClient recoveryClient = settings.newTransactionClient(LoadMetrics.noop())) {
            runId = recover(start, recoveryClient, tables, fixed);
        } catch (TransactionException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException("exactly-once sink subtask "
                    + start.subtaskIndex() + " failed to recover " + start.epochName() + " " + start.restoredEpoch()
                    + ": " + e.getMessage(), e));
        } catch (RuntimeException e) {
            throw NonRecoverableSinkFailure.classify(e);
        }
        SinkRuntime runtime = SinkRuntime.open(settings, start.subtaskIndex(), start.metricGroup(), runId);
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            SingleTableLoadEngine engine = SingleTableLoadEngine.start(config, runtime.client(), runtime.metrics(),
                    DeliverySemantic.EXACTLY_ONCE, start.restoredEpoch());
            return new ExactlyOnceSubtask(start, runtime, engine, config.flushTimeoutMs(), tables);
        } catch (RuntimeException e) {
            runtime.close();
            throw NonRecoverableSinkFailure.classify(e);
        } catch (Error e) {
            runtime.close();
            throw e;
        }
    }

    /** Commits the held transactions, rolls back lingering ones and claims this run's id; returns the run id. */
    private static String recover(Start start, TransactionClient client, Set<TableId> tables, @Nullable TableId fixed)
            throws TransactionException {
        List<CheckpointedTransaction> held = new ArrayList<>();
        List<LingeringScope> scopes = new ArrayList<>();
        List<String> restoredRunIds = new ArrayList<>();
        for (ExactlyOnceSinkState s : start.restored()) {
            held.addAll(s.pending());
            scopes.add(s.lingeringScope());
            tables.addAll(s.tables());
            restoredRunIds.add(s.runId());
        }
        if (!start.restored().isEmpty()) {
            LOG.info("exactly-once sink subtask {} restores {} {}: committing {} held transaction(s) of run(s) {}",
                    start.subtaskIndex(), start.epochName(), start.restoredEpoch(), held.size(), restoredRunIds);
        }
        RestoredTransactionCommitter.commitAll(client, held);
        SinkSettings settings = start.settings();
        LingeringTransactionAborter aborter = LingeringTransactionAborter.forCheckNum(client,
                settings.options().isAbortLingeringTransactions()
                        ? settings.options().getCheckNumLingeringTransactions() : 0, settings.labelScheme());
        Set<String> heldLabels = new HashSet<>();
        held.forEach(t -> heldLabels.add(t.label()));
        aborter.abortLingering(scopes, heldLabels);
        return RunIdClaim.claim(client, aborter, settings.labelPrefix(), start.subtaskIndex(), start.jobId(),
                restoredRunIds, start.restoredEpoch(), fixed == null ? List.of() : List.of(fixed), heldLabels);
    }

    /** The target table when {@code database-name} and {@code table-name} are both fixed, else null. */
    @Nullable
    private static TableId fixedTarget(SinkSettings settings) {
        String database = settings.options().getDatabaseName();
        String table = settings.options().getTableName();
        boolean fixed = !SinkOptionDefinitions.WILDCARD.equals(database)
                && !SinkOptionDefinitions.WILDCARD.equals(table);
        return fixed ? new TableId(database, table) : null;
    }

    /**
     * Buffers one row for its table (routing by {@code database-name} / {@code table-name}, {@code *} = the row's).
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData} or cannot be routed
     * @throws LoadEngineException      if an earlier load failed (first failure kept)
     */
    public void write(Object element) throws InterruptedException {
        dispatcher.dispatch(element);
    }

    /**
     * Before the barrier: flushes and prepares every table's transaction of {@code epoch}
     * ({@link SingleTableLoadEngine#prepare(long)}).
     *
     * @param epoch the epoch to close, above every earlier one
     * @return the prepared transactions as committables of {@code epoch}; none if nothing was written since the last
     * @throws LoadEngineException naming the epoch and subtask if a load, the prepare or an earlier asynchronous
     *                             operation failed (the checkpoint fails), inside a {@link NonRecoverableSinkFailure}
     *                             when no restart can heal it
     */
    public List<CheckpointedTransaction> prepare(long epoch) throws InterruptedException {
        List<PreparedTransaction> prepared;
        try {
            prepared = engine.prepare(epoch);
        } catch (LoadEngineException | IllegalStateException | IllegalArgumentException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException(epochName + " " + epoch
                    + " of exactly-once sink subtask " + runtime.subtaskIndex() + " failed to prepare: "
                    + e.getMessage(), e));
        }
        List<CheckpointedTransaction> committables = new ArrayList<>(prepared.size());
        for (PreparedTransaction txn : prepared) {
            committables.add(CheckpointedTransaction.of(txn, epoch, runtime.runId()));
        }
        return committables;
    }

    /**
     * Commits {@code due} through the engine and waits, at most the engine's flush timeout (SinkFunction: after
     * checkpoint {@code checkpointId} completed).
     *
     * @throws LoadEngineException naming the checkpoint and subtask if a commit fails or does not finish in time,
     *                             inside a {@link NonRecoverableSinkFailure} when no restart can heal it; the task
     *                             fails and its restore commits again
     */
    public void commit(List<CheckpointedTransaction> due, long checkpointId) throws InterruptedException {
        List<PreparedTransaction> txns = due.stream().map(CheckpointedTransaction::prepared).toList();
        try {
            engine.requestCommit(txns).get(commitTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException("commit after checkpoint " + checkpointId
                    + " of exactly-once sink subtask " + runtime.subtaskIndex() + " failed: "
                    + e.getCause().getMessage(), e.getCause()));
        } catch (TimeoutException e) {
            throw new LoadEngineException("commit after checkpoint " + checkpointId + " of exactly-once sink subtask "
                    + runtime.subtaskIndex() + " did not finish within " + commitTimeoutMs + " ms: " + due);
        }
    }

    /**
     * This run's identity, the tables it wrote, its last closed epoch and the transactions still to commit.
     *
     * @param pending prepared and not yet committed (SinkFunction); empty when a committer holds them (Sink V2)
     */
    public ExactlyOnceSinkState state(long epoch, List<CheckpointedTransaction> pending) {
        return new ExactlyOnceSinkState(labelPrefix, runtime.subtaskIndex(), runtime.runId(), epoch,
                new ArrayList<>(tables), pending);
    }

    /**
     * Returns when the engine is healthy; throws its first failure otherwise.
     *
     * @throws RuntimeException the engine's failure, inside a {@link NonRecoverableSinkFailure} when no restart can
     *                          heal it
     */
    public void checkFailure() {
        try {
            engine.checkFailure();
        } catch (RuntimeException failure) {
            throw NonRecoverableSinkFailure.classify(failure);
        }
    }

    /** Stops the failure watch, rolls back the transactions not yet prepared and releases everything; never flushes. */
    @Override
    public void close() throws Exception {
        EngineFailureWatch.stop(failureWatch);
        SinkRuntime.close(engine, runtime);
    }
}
