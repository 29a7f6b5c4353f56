package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.PreparedTransaction;
import io.lockstep.core.engine.SingleTableLoadEngine;
import io.lockstep.core.exactlyonce.CheckpointedTransaction;
import io.lockstep.core.exactlyonce.DerivedRunId;
import io.lockstep.core.exactlyonce.LingeringScope;
import io.lockstep.core.exactlyonce.LingeringTransactionAborter;
import io.lockstep.core.exactlyonce.RestoredTransactionCommitter;
import io.lockstep.core.exactlyonce.TableId;
import io.lockstep.core.label.ExactlyOnceLabelScheme;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkTarget;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exactly-once single-table sink: two-phase commit with Flink checkpoints (docs/exactly-once.md;
 * docs/protocol.md#what-the-official-starrocks-connector-does). One transaction, and one label
 * {@code {prefix}-{table}-{subtask}-{runId}-{n}}, per table and checkpoint.
 *
 * <ul>
 *   <li>{@link #invoke}: rows are buffered and streamed into each table's open transaction (loads only).</li>
 *   <li>{@link #snapshotState} (the barrier of checkpoint N): flush and prepare every table's transaction
 *       ({@link SingleTableLoadEngine#prepare(long)}), then store {database, table, label, checkpoint id, run id} of
 *       every prepared-but-uncommitted transaction, with this run's identity, in operator state
 *       ({@link ExactlyOnceSinkState}, versioned bytes: no Kryo). Any stored asynchronous failure, or a failed
 *       load or prepare, throws here and fails the checkpoint.</li>
 *   <li>{@link #notifyCheckpointComplete} (N): commits every pending transaction prepared at a checkpoint
 *       &lt;= N and waits for it; a failed commit fails the task, and the restore commits again. An aborted
 *       checkpoint changes nothing: its transactions stay pending and commit with the next completed one (or are
 *       rolled back as lingering if the job restores from an earlier checkpoint).</li>
 *   <li>Restore ({@link #initializeState} reads, {@link #open} acts, before any row): first commit every restored
 *       transaction (COMMITTED/VISIBLE counts as done; a label that is ABORTED or forgotten fails the start, since
 *       that checkpoint's rows are lost); then, with {@code sink.exactly-once.enable-abort-lingering-txn}, roll back
 *       the labels the restored runs may have opened after the checkpoint ({@link LingeringTransactionAborter}):
 *       never a committed one, never one held in state, and never failing recovery.</li>
 *   <li>{@link #finish()} commits nothing: data after the last checkpoint is still buffered. With
 *       {@code execution.checkpointing.checkpoints-after-tasks-finish.enabled} (on by default since Flink 1.15) a
 *       finished task waits for one more checkpoint, whose {@link #snapshotState} prepares that data and whose
 *       {@link #notifyCheckpointComplete} commits it before {@link #close()}; so a bounded job's rows are all
 *       visible when it ends. Without it, rows after the last checkpoint are not committed.</li>
 *   <li>{@link #close()} never flushes; it rolls back only the transactions not yet prepared at a checkpoint
 *       (prepared ones belong to a checkpoint and are settled by commit or by the next restore).</li>
 * </ul>
 *
 * <p>Run identity: every start takes a new run id, so its labels never collide with an earlier run's; with a fixed
 * target table it is derived ({@link DerivedRunId}) from the job, the restored runs and checkpoint, so an attempt
 * that fails before its first checkpoint is found by the next one (see {@link ExactlyOnceSinkState}). At start it
 * checks that {@code sink.properties.timeout} exceeds the checkpoint interval ({@link TransactionTimeoutCheck}).
 * Design notes: {@code docs/exactly-once.md}.
 *
 * <p>With {@code sink.target=doris} the same flow runs on Doris two-phase stream load (docs/doris.md): every flush of a
 * table (under memory pressure, or at the barrier) is one load that pre-commits its own transaction, labelled
 * {@code {prefix}-{table}-{subtask}-{runId}-{n}_{k}}; the barrier keeps all of the epoch's labels in state; commits,
 * restore commits and lingering aborts go by label through any FE ({@code _stream_load_2pc}, {@code get_load_state}).
 * At start it checks the checkpoint interval against Doris' pre-commit timeout instead of
 * {@code sink.properties.timeout}.
 *
 * <p>Threads: Flink calls every method on the task thread; the engine runs its own manager and I/O threads. Fields
 * below are task-thread only.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public class ExactlyOnceSinkFunction<T> extends RichSinkFunction<T>
        implements CheckpointedFunction, CheckpointListener {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceSinkFunction.class);
    private static final String STATE_NAME = "lockstep-exactly-once-transactions";
    private static final ExactlyOnceSinkStateSerializer SERIALIZER = new ExactlyOnceSinkStateSerializer();

    private final StarRocksSinkOptions options;
    private final RowRouting routing;

    private transient ListState<byte[]> state;
    /** Restored state elements, consumed by {@link #open}. */
    private transient List<ExactlyOnceSinkState> restored;
    private transient long restoredCheckpointId;
    private transient SinkRuntime runtime;
    private transient SingleTableLoadEngine engine;
    private transient RowDispatcher dispatcher;
    /** Task thread: fails the task soon after the engine failed, without waiting for a row or checkpoint. */
    private transient EngineFailureWatch failureWatch;
    private transient long commitTimeoutMs;
    private transient String labelPrefix;
    /** How this target's labels are shaped (Doris: one per flush), for the lingering abort and the run-id claim. */
    private transient ExactlyOnceLabelScheme labelScheme;
    /** Prepared at a checkpoint, not yet committed, in checkpoint order. */
    private transient List<CheckpointedTransaction> pending;
    /** Every table written by this run (and the runs it restored), so a later restore can name their labels. */
    private transient Set<TableId> tables;

    /**
     * @throws InvalidSinkOptionException if the options are not exactly-once single-table, or cannot run on the
     *                                    engine
     */
    public ExactlyOnceSinkFunction(StarRocksSinkOptions options) {
        if (options.isMultiTableTransactionEnabled() || options.getSemantic() != SinkSemantic.EXACTLY_ONCE) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_SEMANTIC.key(),
                    "ExactlyOnceSinkFunction needs 'sink.semantic' = 'exactly-once' without multi-table mode");
        }
        SinkSettings.from(options);
        this.options = options;
        this.routing = RowRouting.from(options);
    }

    /** Reads the restored state (if any); the restore work happens in {@link #open}, once the client exists. */
    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>(STATE_NAME, BytePrimitiveArraySerializer.INSTANCE));
        restored = new ArrayList<>();
        pending = new ArrayList<>();
        tables = new LinkedHashSet<>();
        if (context.isRestored()) {
            for (byte[] element : state.get()) {
                restored.add(SimpleVersionedSerialization.readVersionAndDeSerialize(SERIALIZER, element));
            }
            long maxStateCheckpoint = restored.stream().mapToLong(ExactlyOnceSinkState::checkpointId).max().orElse(0);
            restoredCheckpointId = context.getRestoredCheckpointId().orElse(maxStateCheckpoint);
        }
    }

    /**
     * Checks the checkpoint settings, commits restored transactions, rolls back lingering ones, claims this run's
     * id, then opens the client and starts the engine.
     *
     * @throws InvalidSinkOptionException if the job does not checkpoint, or {@code sink.properties.timeout} does not
     *                                    exceed the checkpoint interval
     * @throws TransactionException       if a restored transaction cannot be committed (its label, table and
     *                                    checkpoint are named)
     */
    @Override
    public void open(OpenContext openContext) throws Exception {
        if (options.getTarget() == SinkTarget.DORIS) {
            TransactionTimeoutCheck.checkDoris(TransactionTimeoutCheck.checkpointingEnabled(getRuntimeContext()),
                    TransactionTimeoutCheck.checkpointIntervalMs(getRuntimeContext()));
        } else {
            TransactionTimeoutCheck.check(options.getStreamLoadTimeoutSeconds(),
                    TransactionTimeoutCheck.checkpointingEnabled(getRuntimeContext()),
                    TransactionTimeoutCheck.checkpointIntervalMs(getRuntimeContext()));
        }
        if (!TransactionTimeoutCheck.checkpointsAfterTasksFinish(getRuntimeContext())) {
            LOG.warn("execution.checkpointing.checkpoints-after-tasks-finish.enabled is off: when the input ends, rows "
                    + "after the last checkpoint are never committed by the exactly-once sink");
        }
        SinkSettings settings = SinkSettings.from(options);
        labelPrefix = settings.labelPrefix();
        labelScheme = settings.labelScheme();
        addFixedTarget();
        String runId;
        try (TransactionClient recoveryClient = settings.newTransactionClient(LoadMetrics.noop())) {
            runId = recover(recoveryClient, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
        } catch (Exception e) {
            throw NonRecoverableSinkFailure.classify(e);
        }
        runtime = SinkRuntime.open(settings, getRuntimeContext(), runId);
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            commitTimeoutMs = config.flushTimeoutMs();
            engine = SingleTableLoadEngine.start(config, runtime.client(), runtime.metrics(),
                    DeliverySemantic.EXACTLY_ONCE, restoredCheckpointId);
        } catch (Exception e) {
            runtime.close();
            runtime = null;
            throw NonRecoverableSinkFailure.classify(e);
        } catch (Error e) {
            runtime.close();
            runtime = null;
            throw e;
        }
        SingleTableLoadEngine e = engine;
        failureWatch = EngineFailureWatch.start(getRuntimeContext(), e::checkFailure);
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

    /**
     * Commits the restored transactions, rolls back lingering ones of the restored runs, then claims this run's id
     * ({@link DerivedRunId}: derived from the job, the restored runs and checkpoint, so the next start from the
     * same checkpoint finds what this run leaves open; random when routing by {@code *}).
     *
     * @return the run id for this run's labels
     */
    private String recover(TransactionClient client, int subtask) throws TransactionException {
        List<CheckpointedTransaction> held = new ArrayList<>();
        List<LingeringScope> scopes = new ArrayList<>();
        List<String> restoredRunIds = new ArrayList<>();
        for (ExactlyOnceSinkState s : restored) {
            held.addAll(s.pending());
            scopes.add(s.lingeringScope());
            tables.addAll(s.tables());
            restoredRunIds.add(s.runId());
        }
        if (!restored.isEmpty()) {
            LOG.info("exactly-once sink subtask {} restores checkpoint {}: committing {} transaction(s) of run(s) {}",
                    subtask, restoredCheckpointId, held.size(), restoredRunIds);
        }
        RestoredTransactionCommitter.commitAll(client, held);
        LingeringTransactionAborter aborter = LingeringTransactionAborter.forCheckNum(client,
                options.isAbortLingeringTransactions() ? options.getCheckNumLingeringTransactions() : 0, labelScheme);
        Set<String> heldLabels = new HashSet<>();
        held.forEach(t -> heldLabels.add(t.label()));
        aborter.abortLingering(scopes, heldLabels);
        restored.clear();
        List<TableId> fixed = fixedTarget() == null ? List.of() : List.of(fixedTarget());
        return DerivedRunId.claim(client, aborter, labelPrefix, subtask,
                getRuntimeContext().getJobInfo().getJobId().toHexString(), restoredRunIds, restoredCheckpointId,
                fixed, heldLabels);
    }

    private void addFixedTarget() {
        TableId fixed = fixedTarget();
        if (fixed != null) {
            tables.add(fixed);
        }
    }

    /** The target table when {@code database-name} and {@code table-name} are both fixed, else null. */
    private TableId fixedTarget() {
        String database = options.getDatabaseName();
        String table = options.getTableName();
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
    @Override
    public void invoke(T value, Context context) throws Exception {
        dispatcher.dispatch(value);
    }

    /**
     * The barrier of a checkpoint: flush, prepare, and keep the prepared transactions in state.
     *
     * @throws LoadEngineException naming the checkpoint and subtask if a load, the prepare or an earlier
     *                             asynchronous operation failed (the checkpoint fails)
     */
    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        long checkpointId = context.getCheckpointId();
        List<PreparedTransaction> prepared;
        try {
            prepared = engine.prepare(checkpointId);
        } catch (LoadEngineException | IllegalStateException | IllegalArgumentException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException("checkpoint " + checkpointId
                    + " of exactly-once sink subtask " + runtime.subtaskIndex() + " failed to prepare: "
                    + e.getMessage(), e));
        }
        for (PreparedTransaction txn : prepared) {
            pending.add(CheckpointedTransaction.of(txn, checkpointId, runtime.runId()));
        }
        state.clear();
        state.add(SimpleVersionedSerialization.writeVersionAndSerialize(SERIALIZER, new ExactlyOnceSinkState(
                labelPrefix, runtime.subtaskIndex(), runtime.runId(), checkpointId,
                new ArrayList<>(tables), pending)));
    }

    /**
     * Commits every pending transaction prepared at a checkpoint &lt;= {@code checkpointId} and waits.
     *
     * @throws LoadEngineException naming the label if a commit fails; the task fails and its restore commits again
     */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        List<CheckpointedTransaction> due = new ArrayList<>();
        for (CheckpointedTransaction txn : pending) {
            if (txn.checkpointId() <= checkpointId) {
                due.add(txn);
            }
        }
        if (due.isEmpty()) {
            return;
        }
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
        for (Iterator<CheckpointedTransaction> it = pending.iterator(); it.hasNext(); ) {
            if (it.next().checkpointId() <= checkpointId) {
                it.remove();
            }
        }
    }

    /** Commits nothing (see the class comment: the final checkpoint prepares and commits); reports failures. */
    @Override
    public void finish() throws Exception {
        engine.checkFailure();
    }

    /** Rolls back the transactions not prepared at a checkpoint and releases everything; never flushes. */
    @Override
    public void close() throws Exception {
        EngineFailureWatch.stop(failureWatch);
        failureWatch = null;
        try {
            SinkRuntime.close(engine, runtime);
        } finally {
            engine = null;
            dispatcher = null;
            runtime = null;
        }
    }

    /** Package-private, for tests: the transactions prepared and not yet committed. */
    List<CheckpointedTransaction> pendingTransactions() {
        return List.copyOf(pending);
    }
}
