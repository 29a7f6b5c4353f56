package io.lockstep.flink.sink;

import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.SingleTableLoadEngine;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.RunIdClaim;
import io.lockstep.core.restart.LingeringTransactionAborter;
import io.lockstep.core.engine.LoadMethod;
import io.lockstep.flink.options.InvalidSinkOptionException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RuntimeContext;
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
 * target table it is derived ({@link RunIdClaim}) from the job, the restored runs and checkpoint, so an attempt
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
 * <p>The subtask itself (settling at open, client, engine, row routing, prepare, commit, failure watch) is
 * {@link ExactlyOnceSubtask}, shared with the Sink V2 writer; this class adds the SinkFunction lifecycle, the
 * operator state and the pending transactions it commits when a checkpoint completes.
 *
 * <p>Threads: Flink calls every method on the task thread; the engine runs its own manager and I/O threads. Fields
 * below are task-thread only.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public class ExactlyOnceSinkFunction<T> extends RichSinkFunction<T>
        implements CheckpointedFunction, CheckpointListener {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceSinkFunction.class);
    private static final String STATE_NAME = "lockstep-exactly-once-transactions";
    private static final ExactlyOnceSinkStateSerializer SERIALIZER = new ExactlyOnceSinkStateSerializer();

    private final SinkConfig options;
    private final RowRouting routing;

    private transient ListState<byte[]> state;
    /** Restored state elements, consumed by {@link #open}. */
    private transient List<ExactlyOnceSinkState> restored;
    private transient long restoredCheckpointId;
    /** Set in open(), cleared in close(). */
    private transient ExactlyOnceSubtask subtask;
    /** Prepared at a checkpoint, not yet committed, in checkpoint order. */
    private transient List<CheckpointedTransaction> pending;

    /**
     * @throws InvalidSinkOptionException if the options are not exactly-once single-table, or cannot run on the
     *                                    engine
     */
    public ExactlyOnceSinkFunction(SinkConfigSource options) {
        SinkMode.EXACTLY_ONCE.check(options, "ExactlyOnceSinkFunction");
        this.options = options.sinkConfig();
        this.routing = RowRouting.from(this.options);
    }

    /** Reads the restored state (if any); the restore work happens in {@link #open}, once the client exists. */
    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>(STATE_NAME, BytePrimitiveArraySerializer.INSTANCE));
        restored = new ArrayList<>();
        pending = new ArrayList<>();
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
     * @throws LoadEngineException        if a restored transaction cannot be committed (its label, table and
     *                                    checkpoint are named); see {@link ExactlyOnceSubtask#open}
     */
    @Override
    public void open(OpenContext openContext) throws Exception {
        SinkSettings settings = SinkSettings.from(options);
        if (settings.loadMethod() == LoadMethod.TWO_PHASE_STREAM_LOAD) { // each load pre-commits: Doris 2PC
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
        RuntimeContext context = getRuntimeContext();
        subtask = ExactlyOnceSubtask.open(new ExactlyOnceSubtask.Start(settings, routing,
                context.getTaskInfo().getIndexOfThisSubtask(), context.getMetricGroup(),
                context.getJobInfo().getJobId().toHexString(), restored, restoredCheckpointId, "checkpoint",
                EngineFailureWatch.targetOf(context)));
        restored = List.of();
    }

    /**
     * Buffers one row for its table (routing by {@code database-name} / {@code table-name}, {@code *} = the row's).
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData} or cannot be routed
     * @throws LoadEngineException      if an earlier load failed (first failure kept)
     */
    @Override
    public void invoke(T value, Context context) throws Exception {
        subtask.write(value);
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
        pending.addAll(subtask.prepare(checkpointId));
        state.clear();
        state.add(SimpleVersionedSerialization.writeVersionAndSerialize(SERIALIZER,
                subtask.state(checkpointId, pending)));
    }

    /**
     * Commits every pending transaction prepared at a checkpoint &lt;= {@code checkpointId} and waits.
     *
     * @throws LoadEngineException naming the checkpoint if a commit fails; the task fails and its restore commits
     *                             again
     */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        List<CheckpointedTransaction> due = pending.stream().filter(t -> t.checkpointId() <= checkpointId).toList();
        if (due.isEmpty()) {
            return;
        }
        subtask.commit(due, checkpointId);
        pending.removeIf(t -> t.checkpointId() <= checkpointId);
    }

    /** Commits nothing (see the class comment: the final checkpoint prepares and commits); reports failures. */
    @Override
    public void finish() throws Exception {
        subtask.checkFailure();
    }

    /** Rolls back the transactions not prepared at a checkpoint and releases everything; never flushes. */
    @Override
    public void close() throws Exception {
        try {
            if (subtask != null) {
                subtask.close();
            }
        } finally {
            subtask = null;
        }
    }

    /** Package-private, for tests: the transactions prepared and not yet committed. */
    List<CheckpointedTransaction> pendingTransactions() {
        return List.copyOf(pending);
    }
}
