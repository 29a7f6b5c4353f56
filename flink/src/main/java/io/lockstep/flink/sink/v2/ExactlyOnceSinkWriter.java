package io.lockstep.flink.sink.v2;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.PreparedTransaction;
import io.lockstep.core.engine.SingleTableLoadEngine;
import io.lockstep.core.exactlyonce.CheckpointedTransaction;
import io.lockstep.core.exactlyonce.DerivedRunId;
import io.lockstep.core.exactlyonce.LingeringScope;
import io.lockstep.core.exactlyonce.LingeringTransactionAborter;
import io.lockstep.core.exactlyonce.TableId;
import io.lockstep.core.label.ExactlyOnceLabelScheme;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.flink.sink.ExactlyOnceSinkState;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import io.lockstep.flink.sink.RowDispatcher;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkRuntime;
import io.lockstep.flink.sink.SinkSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of {@link ExactlyOnceSink}: one transaction per table and epoch, prepared before the checkpoint
 * barrier.
 *
 * <p><b>Epochs.</b> Sink V2 asks for the committables ({@link #prepareCommit}) before it tells the writer the
 * checkpoint id, so the writer numbers its own epochs: {@code 1, 2, ...} after a fresh start, and {@code n + 1, ...}
 * after a restore whose state recorded epoch {@code n}. {@code prepareCommit} prepares epoch {@code e}
 * ({@link SingleTableLoadEngine#prepare(long)}), so the transactions opened after it are labelled
 * {@code {prefix}-{table}-{subtask}-{runId}-{e + 1}} (Doris: {@code ..._{flush}}); the epoch numbers have no gaps,
 * and the state written at that checkpoint ({@link ExactlyOnceSinkState}, {@code checkpointId} = {@code e}) names
 * exactly the labels this run may leave open after it.
 *
 * <p><b>Start.</b> Before any row: roll back what the restored runs left open after their epochs
 * ({@link LingeringTransactionAborter}, with {@code sink.exactly-once.enable-abort-lingering-txn}); the labels in the
 * committer's restored committables have epochs &lt;= the recorded ones and are never probed. Then claim the run id
 * ({@link DerivedRunId}: derived from the job, the restored runs and epoch with a fixed target table, so the next
 * attempt from the same checkpoint finds what this one leaves open; random with {@code *} routing).
 *
 * <p>Between rows a {@link EngineFailureWatch} fails the task soon after an asynchronous failure. {@link #close}
 * never flushes: it rolls back only the transactions not yet prepared (prepared ones belong to a
 * checkpoint: the committer commits them, or the next restore rolls them back as lingering).
 *
 * <p>Task thread only (Flink's mailbox thread); the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@NotThreadSafe
final class ExactlyOnceSinkWriter<T> implements StatefulSinkWriter<T, ExactlyOnceSinkState>,
        CommittingSinkWriter<T, CheckpointedTransaction> {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceSinkWriter.class);

    private final String labelPrefix;
    private final SinkRuntime runtime;
    private final SingleTableLoadEngine engine;
    private final RowDispatcher dispatcher;
    private final EngineFailureWatch failureWatch;
    /** Every table written by this run and the runs it restored, so a later restore can name their labels. */
    private final Set<TableId> tables = new LinkedHashSet<>();
    /** The last epoch prepared (or restored). */
    private long epoch;

    ExactlyOnceSinkWriter(StarRocksSinkOptions options, RowRouting routing, int subtaskIndex, String jobId,
                          MetricGroup metricGroup, ProcessingTimeService timers,
                          Collection<ExactlyOnceSinkState> restored) {
        SinkSettings settings = SinkSettings.from(options);
        labelPrefix = settings.labelPrefix();
        TableId fixed = fixedTarget(options);
        if (fixed != null) {
            tables.add(fixed);
        }
        epoch = restored.stream().mapToLong(ExactlyOnceSinkState::checkpointId).max().orElse(0);
        String runId;
        try (TransactionClient recoveryClient = settings.newTransactionClient(LoadMetrics.noop())) {
            runId = recover(options, settings.labelScheme(), recoveryClient, subtaskIndex, jobId, restored, fixed);
        }
        runtime = SinkRuntime.open(settings, subtaskIndex, metricGroup, runId);
        try {
            engine = SingleTableLoadEngine.start(settings.engineConfig(subtaskIndex, runId), runtime.client(),
                    runtime.metrics(), DeliverySemantic.EXACTLY_ONCE, epoch);
        } catch (RuntimeException e) {
            runtime.close();
            throw NonRecoverableSinkFailure.classify(e);
        } catch (Error e) {
            runtime.close();
            throw e;
        }
        SingleTableLoadEngine e = engine;
        failureWatch = EngineFailureWatch.start(timers, e::checkFailure);
        dispatcher = new RowDispatcher(routing, false, new RowDispatcher.EngineCalls() {
            @Override
            public void write(int partition, String database, String table, byte[] row)
                    throws InterruptedException {
                tables.add(new TableId(database, table));
                e.write(database, table, row);
            }

            @Override
            public void txnEnd(int partition) {
                // single-table exactly-once commits per checkpoint, not per source transaction
            }
        });
    }

    private String recover(StarRocksSinkOptions options, ExactlyOnceLabelScheme scheme, TransactionClient client,
                           int subtask, String jobId, Collection<ExactlyOnceSinkState> restored, TableId fixed) {
        List<LingeringScope> scopes = new ArrayList<>();
        List<String> restoredRunIds = new ArrayList<>();
        for (ExactlyOnceSinkState s : restored) {
            scopes.add(s.lingeringScope());
            tables.addAll(s.tables());
            restoredRunIds.add(s.runId());
        }
        if (!restored.isEmpty()) {
            LOG.info("exactly-once sink subtask {} restores epoch {} of run(s) {}", subtask, epoch, restoredRunIds);
        }
        LingeringTransactionAborter aborter = LingeringTransactionAborter.forCheckNum(client,
                options.isAbortLingeringTransactions() ? options.getCheckNumLingeringTransactions() : 0, scheme);
        aborter.abortLingering(scopes, Set.of());
        return DerivedRunId.claim(client, aborter, labelPrefix, subtask, jobId, restoredRunIds, epoch,
                fixed == null ? List.of() : List.of(fixed), Set.of());
    }

    /** The target table when {@code database-name} and {@code table-name} are both fixed, else null. */
    private static TableId fixedTarget(StarRocksSinkOptions options) {
        String database = options.getDatabaseName();
        String table = options.getTableName();
        boolean fixed = !SinkOptionDefinitions.WILDCARD.equals(database)
                && !SinkOptionDefinitions.WILDCARD.equals(table);
        return fixed ? new TableId(database, table) : null;
    }

    /**
     * Buffers one row for its table.
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData} or cannot be routed
     * @throws LoadEngineException      if an earlier load failed (first failure kept)
     */
    @Override
    public void write(T element, Context context) throws InterruptedException {
        dispatcher.dispatch(element);
    }

    /** Reports a stored asynchronous failure; the loads themselves wait for {@link #prepareCommit}. */
    @Override
    public void flush(boolean endOfInput) {
        try {
            engine.checkFailure();
        } catch (RuntimeException failure) {
            throw NonRecoverableSinkFailure.classify(failure);
        }
    }

    /**
     * Before the barrier (and once at the end of input): flushes and prepares every table's transaction of the
     * next epoch.
     *
     * @return the prepared transactions, none if nothing was written since the last epoch
     * @throws LoadEngineException naming the epoch and subtask if a load, the prepare or an earlier asynchronous
     *                             operation failed (the checkpoint fails)
     */
    @Override
    public Collection<CheckpointedTransaction> prepareCommit() throws InterruptedException {
        long next = epoch + 1;
        List<PreparedTransaction> prepared;
        try {
            prepared = engine.prepare(next);
        } catch (LoadEngineException | IllegalStateException | IllegalArgumentException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException("epoch " + next
                    + " of exactly-once sink subtask " + runtime.subtaskIndex() + " failed to prepare: "
                    + e.getMessage(), e));
        }
        epoch = next;
        List<CheckpointedTransaction> committables = new ArrayList<>(prepared.size());
        for (PreparedTransaction txn : prepared) {
            committables.add(CheckpointedTransaction.of(txn, next, runtime.runId()));
        }
        return committables;
    }

    /** This run's identity and last prepared epoch; the committables travel separately. */
    @Override
    public List<ExactlyOnceSinkState> snapshotState(long checkpointId) {
        return List.of(new ExactlyOnceSinkState(labelPrefix, runtime.subtaskIndex(), runtime.runId(), epoch,
                new ArrayList<>(tables), List.of()));
    }

    /** Rolls back the transactions not yet prepared and releases everything; never flushes. */
    @Override
    public void close() throws Exception {
        failureWatch.stop();
        SinkRuntime.close(engine, runtime);
    }
}
