package io.lockstep.flink.sink;

import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.progress.PositionGate;
import io.lockstep.core.restart.ProgressOpening;
import io.lockstep.core.label.RunId;
import io.lockstep.core.restart.MultiTableRunState;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkSemantic;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The multi-table transaction sink (https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/;
 * docs/architecture.md#the-multi-table-commit-cycle): every table a subtask writes in one commit cycle loads under one
 * shared StarRocks transaction, committed every {@code sink.buffer-flush.interval-ms} at source-transaction boundaries,
 * so a source transaction becomes visible in all its tables at once. Input must be keyed by
 * {@code StarRocksRowData::getSourcePartition}.
 *
 * <ul>
 *   <li>{@link #invoke}: data → engine write, {@code transactionEnd=true} → engine txnEnd for the row's partition
 *       ({@link RowDispatcher}); {@code sourcePartition < 0} fails naming the keyBy contract.</li>
 *   <li>{@link #snapshotState}: a flush: everything buffered is loaded and committed before the checkpoint
 *       completes; it fails naming the partitions caught in the middle of a source transaction, and on any stored
 *       asynchronous failure (a checkpoint never completes after a lost load).</li>
 *   <li>{@link #finish()} (end of bounded input): the same flush, so a bounded job's data is all visible when
 *       it ends.</li>
 *   <li>{@link #close()}: rolls back the open shared transaction (at-least-once: the data is replayed from the
 *       last checkpoint) within the engine's close timeout; never hangs.</li>
 * </ul>
 * {@code sink.semantic=at-least-once}: every checkpoint commits, and a restart replays from it under a fresh run
 * identity, so its labels never collide with the failed attempt's. Each subtask keeps its run (run id, database, the
 * cycle finished at the checkpoint) in union list state, so that after a restore, also a rescaled one, the shared
 * transactions every earlier subtask left open after the checkpoint are found and rolled back at open
 * (docs/reliability.md#open-transactions-left-behind); new subtask {@code i} of {@code n} settles the earlier runs of
 * subtasks {@code j} with {@code j % n == i}.
 *
 * <p>{@code sink.semantic=exactly-once} (docs/exactly-once.md): rows carry their source and source position; each
 * shared transaction also loads the positions it covers into the progress table. {@link #open} first settles what
 * earlier runs of the job id left open or in flight, registers this run and reads the committed positions
 * ({@link ProgressOpening}); source transactions at or below them are dropped ({@link PositionGate}). Run ids go
 * into union list state at every checkpoint.
 *
 * <p>The subtask itself (open, settle, engine, flush, state, failure watch, close) is a {@link MultiTableRuntime},
 * shared with the Sink V2 writer; this class translates Flink's SinkFunction calls to it.
 *
 * <p>Threads: Flink calls every method on the task thread; the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public class MultiTableSinkFunction<T> extends RichSinkFunction<T> implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MultiTableSinkFunction.class);

    private final SinkConfig options;
    private final RowRouting routing;
    /** Task thread: set in open(), cleared in close(). */
    private transient MultiTableRuntime runtime;
    /** Exactly-once mode: run ids of every subtask (union list state: a restore shows all of them). Task thread. */
    private transient ListState<String> runIdState;
    /**
     * At-least-once mode: every subtask's run ({@link MultiTableRunState#encode()}; union list state, so a restore,
     * also a rescaled one, shows all of them). Task thread.
     */
    private transient ListState<String> runState;
    /**
     * At-least-once: the earlier runs this subtask settles at open (set in initializeState; null, as every transient
     * field after the function is deserialized, means none). Task thread.
     */
    private transient List<MultiTableRunState> earlierRuns;
    /** The checkpoint this attempt restored, or -1 (set in initializeState, before open). Task thread. */
    private transient long restoredCheckpointId = -1;

    /**
     * @throws InvalidSinkOptionException if multi-table mode is off or the options cannot run on the engine
     */
    public MultiTableSinkFunction(SinkConfigSource options) {
        SinkMode.MULTI_TABLE.check(options, "MultiTableSinkFunction");
        this.options = options.sinkConfig();
        this.routing = RowRouting.from(this.options);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        RuntimeContext context = getRuntimeContext();
        runtime = MultiTableRuntime.open(new MultiTableRuntime.Start(SinkSettings.from(options), routing,
                context.getTaskInfo().getIndexOfThisSubtask(), context.getMetricGroup(),
                RunId.attemptKey(context.getJobInfo().getJobId().toString(), restoredCheckpointId,
                        context.getTaskInfo().getAttemptNumber()),
                earlierRuns == null ? List.of() : earlierRuns, EngineFailureWatch.targetOf(context)));
    }

    @Override
    public void invoke(T value, Context context) throws Exception {
        runtime.dispatch(value);
    }

    /**
     * Exactly-once: the run ids of every subtask, in union list state, and the restored checkpoint id, which goes
     * into this attempt's run ids. At-least-once: every subtask's run, in union list state; a restore hands this
     * subtask the earlier runs it settles at open.
     *
     * @throws IllegalArgumentException if a restored at-least-once entry is not one this release reads
     */
    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        restoredCheckpointId = context.getRestoredCheckpointId().orElse(-1L);
        if (options.getSemantic() == SinkSemantic.EXACTLY_ONCE) {
            runIdState = context.getOperatorStateStore().getUnionListState(
                    new ListStateDescriptor<>("lockstep-multi-table-run-ids", String.class));
            if (context.isRestored()) {
                List<String> restored = new ArrayList<>();
                runIdState.get().forEach(restored::add);
                LOG.info("multi-table exactly-once sink restored from checkpoint {}: earlier run ids {}; their "
                        + "shared transactions are settled at open", restoredCheckpointId, restored);
            }
            return;
        }
        runState = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>("lockstep-multi-table-runs", String.class));
        if (context.isRestored()) {
            int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            List<MultiTableRunState> mine = new ArrayList<>();
            for (String entry : runState.get()) {
                MultiTableRunState run = MultiTableRunState.decode(entry);
                if (run.subtaskIndex() % parallelism == subtask) {
                    mine.add(run);
                }
            }
            earlierRuns = mine;
            LOG.info("multi-table sink subtask {} restored from checkpoint {}: rows after it are replayed "
                    + "(at-least-once); shared transactions earlier runs {} left open after it are rolled back at open",
                    subtask, restoredCheckpointId, mine.stream().map(MultiTableRunState::runId).toList());
        }
    }

    /**
     * Loads and commits everything buffered (a flush of the engine), then records this subtask's run.
     *
     * @throws LoadEngineException naming the checkpoint and the partitions in the middle of a source transaction,
     *                             or the engine's first asynchronous failure
     */
    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        runtime.flush("checkpoint " + context.getCheckpointId());
        if (runIdState != null) {
            runIdState.update(List.of(runtime.runId()));
        }
        if (runState != null) {
            List<String> entries = new ArrayList<>();
            runtime.snapshotRuns().forEach(run -> entries.add(run.encode()));
            runState.update(entries);
        }
    }

    /** End of bounded input: loads and commits everything buffered. */
    @Override
    public void finish() throws Exception {
        LOG.info("multi-table sink subtask {}: end of input, committing everything buffered", runtime.subtaskIndex());
        runtime.flush("end of input");
    }

    /** The subtask's runtime between open and close, else null (tests observe the engine through it). */
    MultiTableRuntime runtime() {
        return runtime;
    }

    /**
     * Loads and commits everything buffered now, as a checkpoint would, and goes on (the job's schema-change barrier
     * commits what came before a DDL this way). Task thread only, like {@code invoke}.
     *
     * @param what why, for the error message (e.g. {@code "schema change of shop.orders"})
     * @throws LoadEngineException naming {@code what} and the partitions in the middle of a source transaction, or
     *                             the engine's first asynchronous failure
     * @throws InterruptedException if interrupted while waiting for the commit
     */
    public void commitBuffered(String what) throws InterruptedException {
        runtime.flush(what);
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        try {
            if (runtime != null) {
                runtime.close();
            }
        } finally {
            runtime = null;
        }
    }
}
