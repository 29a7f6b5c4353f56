package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.Sleeper;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.core.progress.CommittedPositions;
import io.lockstep.core.progress.PositionGate;
import io.lockstep.core.progress.ProgressOpening;
import io.lockstep.core.progress.ProgressSettings;
import io.lockstep.core.progress.ProgressStore;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.RunIds;
import io.lockstep.core.progress.SourcePartition;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.functions.OpenContext;
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
 * {@code sink.semantic=at-least-once}: no operator state; every checkpoint commits, and a restart replays from it
 * under a fresh run identity, so its labels never collide with the failed attempt's.
 *
 * <p>{@code sink.semantic=exactly-once} (docs/exactly-once.md): rows carry their source and source position; each
 * shared transaction also loads the positions it covers into the progress table. {@link #open} first settles what
 * earlier runs of the job id left open or in flight, registers this run and reads the committed positions
 * ({@link ProgressOpening}); source transactions at or below them are dropped ({@link PositionGate}). Run ids go
 * into union list state at every checkpoint.
 *
 * <p>Threads: Flink calls every method on the task thread; the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public class MultiTableSinkFunction<T> extends RichSinkFunction<T> implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MultiTableSinkFunction.class);
    /** Longest wait for an earlier run's open label to show whether its writer is alive, ms. */
    static final long MAX_LIVE_WRITER_GRACE_MS = 30_000;
    /** Longest wait for a COMMITTED label of an earlier run (or this run's registration) to become VISIBLE, ms. */
    static final long VISIBLE_TIMEOUT_MS = 120_000;
    /** Longest wait for the progress rows read through the HTTP SQL API to show this run's registration, ms. */
    static final long READ_TIMEOUT_MS = 60_000;

    private final StarRocksSinkOptions options;
    private final RowRouting routing;
    /** Task thread: set in open(), cleared in close(). */
    private transient SinkRuntime runtime;
    private transient MultiTableLoadEngine engine;
    private transient RowDispatcher dispatcher;
    /** Exactly-once mode: run ids of every subtask (union list state: a restore shows all of them). Task thread. */
    private transient ListState<String> runIdState;
    /** The checkpoint this attempt restored, or -1 (set in initializeState, before open). Task thread. */
    private transient long restoredCheckpointId = -1;
    /** Task thread: fails the task soon after the engine failed, without waiting for a row or checkpoint. */
    private transient EngineFailureWatch failureWatch;
    /**
     * Maps the engine's failure before the failure watch throws it (identity by default). Set before the job
     * starts (it is serialized with the function); read by the task thread.
     */
    private java.util.function.UnaryOperator<Exception> failureMapper =
            (java.util.function.UnaryOperator<Exception> & java.io.Serializable) e -> e;

    /**
     * @throws InvalidSinkOptionException if multi-table mode is off or the options cannot run on the engine
     */
    public MultiTableSinkFunction(StarRocksSinkOptions options) {
        if (!options.isMultiTableTransactionEnabled()) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.MULTI_TABLE_ENABLED.key(),
                    "MultiTableSinkFunction needs 'sink.transaction.multi-table.enabled' = 'true'");
        }
        SinkSettings.from(options);
        this.options = options;
        this.routing = RowRouting.from(options);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        SinkSettings settings = SinkSettings.from(options);
        boolean exactlyOnce = settings.isMultiTableExactlyOnce();
        String runId = null;
        if (exactlyOnce) {
            RuntimeContext context = getRuntimeContext();
            runId = RunIds.newRunId(RunIds.attemptKey(context.getJobInfo().getJobId().toString(),
                    restoredCheckpointId, context.getTaskInfo().getAttemptNumber()));
        }
        runtime = SinkRuntime.open(settings, getRuntimeContext(), runId);
        PositionGate gate = null;
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            if (exactlyOnce) {
                gate = new PositionGate(settleAndRead(settings, config), runtime.metrics());
            }
            engine = MultiTableLoadEngine.start(config, runtime.client(), runtime.metrics());
        } catch (Exception e) {
            runtime.close();
            runtime = null;
            throw NonRecoverableSinkFailure.classify(e);
        }
        MultiTableLoadEngine e = engine;
        java.util.function.UnaryOperator<Exception> mapper = failureMapper;
        failureWatch = EngineFailureWatch.start(getRuntimeContext(), () -> {
            try {
                e.checkFailure();
            } catch (Exception failure) {
                throw mapper.apply(failure);
            }
        });
        dispatcher = new RowDispatcher(routing, true, new RowDispatcher.EngineCalls() {
            @Override
            public void write(int partition, String database, String table, byte[] row)
                    throws InterruptedException {
                e.write(partition, database, table, row);
            }

            @Override
            public void txnEnd(int partition) {
                e.txnEnd(partition);
            }

            @Override
            public void txnEnd(int partition, SourcePartition source, long position) {
                e.txnEnd(partition, source, position);
            }
        }, gate);
    }

    /**
     * Exactly-once mode: settles what earlier runs of this job left open or in flight, registers this run and reads
     * the committed positions ({@link ProgressOpening}).
     */
    private CommittedPositions settleAndRead(SinkSettings settings, LoadEngineConfig config) throws Exception {
        ProgressSettings progress = config.progress();
        try (StarRocksSqlClient sql = new StarRocksSqlClient(settings.clientConfig(), runtime.metrics())) {
            ProgressOpening.Params params = new ProgressOpening.Params(progress.jobId(), config.labelPrefix(),
                    runtime.subtaskIndex(), runtime.runId(), config.serverTimeoutSeconds(),
                    ProgressTable.LOAD_PROPERTIES, liveWriterGraceMs(config.commitIntervalMs()),
                    VISIBLE_TIMEOUT_MS, READ_TIMEOUT_MS);
            return new ProgressOpening(runtime.client(), new ProgressStore(sql, progress.table()), params,
                    Sleeper.SYSTEM, Clock.systemUTC(), runtime.metrics()).open().positions();
        }
    }

    /**
     * How long the earlier runs are watched at open before their open labels are rolled back: a live writer begins
     * its next label within a commit interval while it has data, so one interval plus a second; at most {@value #MAX_LIVE_WRITER_GRACE_MS} ms.
     */
    /**
     * Lets a wrapper classify the engine's failure when the failure watch (not a row or a checkpoint) surfaces it,
     * e.g. to mark failures that can never heal as non-recoverable for Flink.
     *
     * @param mapper mapping from the engine's failure to the exception the task fails with; must be
     *               {@link java.io.Serializable} (it travels with the function)
     */
    public void setFailureMapper(java.util.function.UnaryOperator<Exception> mapper) {
        this.failureMapper = java.util.Objects.requireNonNull(mapper, "mapper");
    }

    static long liveWriterGraceMs(long commitIntervalMs) {
        return Math.min(MAX_LIVE_WRITER_GRACE_MS, commitIntervalMs + 1_000);
    }

    @Override
    public void invoke(T value, Context context) throws Exception {
        dispatcher.dispatch(value);
    }

    /**
     * At-least-once: no state (every checkpoint commits everything). Exactly-once: the run ids of every subtask, in
     * union list state, and the restored checkpoint id, which goes into this attempt's run ids.
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
        } else if (context.isRestored()) {
            LOG.info("multi-table sink restored: rows after the last checkpoint are replayed (at-least-once)");
        }
    }

    /**
     * Loads and commits everything buffered (a flush of the engine).
     *
     * @throws LoadEngineException naming the checkpoint and the partitions in the middle of a source transaction,
     *                             or the engine's first asynchronous failure
     */
    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        flush("checkpoint " + context.getCheckpointId());
        if (runIdState != null) {
            runIdState.update(List.of(runtime.runId()));
        }
    }

    /** End of bounded input: loads and commits everything buffered. */
    @Override
    public void finish() throws Exception {
        LOG.info("multi-table sink subtask {}: end of input, committing everything buffered", runtime.subtaskIndex());
        flush("end of input");
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
        flush(what);
    }

    private void flush(String what) throws InterruptedException {
        try {
            engine.flush();
        } catch (LoadEngineException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException(what + " of multi-table sink subtask "
                    + runtime.subtaskIndex() + " failed: " + e.getMessage(), e));
        }
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
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
}
