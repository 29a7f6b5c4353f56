package io.lockstep.flink.sink;

import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.label.RunId;
import io.lockstep.core.progress.CommitPosition;
import io.lockstep.core.progress.CommittedPositions;
import io.lockstep.core.progress.PositionGate;
import io.lockstep.core.restart.ProgressOpening;
import io.lockstep.core.progress.ProgressSettings;
import io.lockstep.core.progress.ProgressStore;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.SourcePartition;
import io.lockstep.core.restart.EarlierRunSettlement;
import io.lockstep.core.restart.MultiTableRunState;
import io.lockstep.core.restart.SharedLabelRun;
import io.lockstep.core.restart.SharedLabelWalk;
import io.lockstep.core.time.Ticker;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.flink.metrics.MetricGroup;

/**
 * One multi-table sink subtask, whichever Flink sink API runs it ({@code MultiTableSinkFunction}, the Sink V2
 * {@code MultiTableSinkWriter}): its client and metrics ({@link SinkRuntime}), what it settles at open, its engine,
 * its row dispatch, the flush before a checkpoint and at the end of input, the state it keeps, its failure watch and
 * its close (docs/architecture.md#the-multi-table-commit-cycle). The sinks only translate Flink's calls to these.
 *
 * <p>At open, before the engine starts:
 * <ul>
 *   <li>{@code sink.semantic=exactly-once} (docs/exactly-once.md): the run id comes from the attempt key; earlier
 *       runs of the job id are settled, this run registers and the committed positions are read
 *       ({@link ProgressOpening}); source transactions at or below them are dropped ({@link PositionGate});</li>
 *   <li>at-least-once: the earlier runs restored from Flink state ({@link #snapshotRuns()} of the previous attempt)
 *       are walked after the cycle each had finished at the checkpoint, and the shared transactions they left open
 *       are rolled back ({@link EarlierRunSettlement}; docs/reliability.md#open-transactions-left-behind).</li>
 * </ul>
 *
 * <p>Threads: every method runs on the sink's task thread; the engine runs its own manager and I/O threads, and the
 * failure watch's callbacks run on the task thread too.
 */
public final class MultiTableRuntime implements AutoCloseable {
    /** Longest wait for an earlier run's open label to show whether its writer is alive, ms. */
    static final long MAX_LIVE_WRITER_GRACE_MS = 30_000;
    /** Longest wait for a COMMITTED label of an earlier run (or this run's registration) to become VISIBLE, ms. */
    static final long VISIBLE_TIMEOUT_MS = 120_000;
    /** Longest wait for the progress rows read through the HTTP SQL API to show this run's registration, ms. */
    static final long READ_TIMEOUT_MS = 60_000;

    /**
     * What a subtask opens with.
     *
     * @param attemptKey     exactly-once: {@link RunId#attemptKey} of this attempt, from which the run id is made;
     *                       ignored at-least-once
     * @param earlierRuns    at-least-once: the earlier runs this subtask settles (from the restored state; empty on
     *                       a fresh start); ignored exactly-once
     * @param failureTarget  where the engine's failure reaches the task thread (the writer's mailbox, a
     *                       SinkFunction's timers), or null for none (a unit test
     *                       opening a SinkFunction by hand)
     */
    public record Start(SinkSettings settings, RowRouting routing, int subtaskIndex, MetricGroup metricGroup,
                        @Nullable String attemptKey, List<MultiTableRunState> earlierRuns,
                        @Nullable EngineFailureWatch.Target failureTarget) {
        public Start {
            Objects.requireNonNull(settings, "settings");
            Objects.requireNonNull(routing, "routing");
            Objects.requireNonNull(metricGroup, "metricGroup");
            earlierRuns = List.copyOf(earlierRuns);
        }
    }

    private final SinkSettings settings;
    private final SinkRuntime runtime;
    private final MultiTableLoadEngine engine;
    private final RowDispatcher dispatcher;
    @Nullable
    private final EngineFailureWatch failureWatch;

    private MultiTableRuntime(SinkSettings settings, SinkRuntime runtime, MultiTableLoadEngine engine,
                              @Nullable PositionGate gate, RowRouting routing,
                              @Nullable EngineFailureWatch.Target failureTarget) {
        this.settings = settings;
        this.runtime = runtime;
        this.engine = engine;
        this.dispatcher = new RowDispatcher(routing, true, new RowDispatcher.EngineCalls() {
            @Override
            public void write(int partition, String database, String table, byte[] row) throws InterruptedException {
                engine.write(partition, database, table, row);
            }

            @Override
            public void txnEnd(int partition) {
                engine.txnEnd(partition);
            }

            @Override
            public void txnEnd(int partition, SourcePartition source, long position, CommitPosition commit) {
                engine.txnEnd(partition, source, position, commit);
            }

            @Override
            public void txnEnd(int partition, SourcePartition source, long position, CommitPosition commit,
                               Map<SourcePartition, Long> covered) {
                engine.txnEnd(partition, source, position, commit, covered);
            }
        }, gate);
        this.failureWatch = failureTarget == null ? null
                : EngineFailureWatch.start(failureTarget, engine::checkFailure, engine::onFirstFailure);
    }

    /**
     * Opens the subtask: client and metrics, the settle of earlier runs (see the class comment), the engine, the
     * failure watch.
     *
     * @throws Exception what the settle throws (e.g. {@code io.lockstep.core.client.TransactionException}), as a
     *                   {@link NonRecoverableSinkFailure} when it can never heal ({@code ProgressTableException},
     *                   access denied, a data error; an {@code AnotherWriterException} or an unreachable target is
     *                   left to the restart strategy); the client is closed then
     */
    public static MultiTableRuntime open(Start start) throws Exception {
        SinkSettings settings = start.settings();
        boolean exactlyOnce = settings.isMultiTableExactlyOnce();
        SinkRuntime runtime = SinkRuntime.open(settings, start.subtaskIndex(), start.metricGroup(),
                exactlyOnce ? RunId.ofAttempt(start.attemptKey()) : null);
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            PositionGate gate = null;
            if (exactlyOnce) {
                CommittedPositions committed = settleAndRead(settings, config, runtime);
                gate = new PositionGate(committed, runtime.metrics());
                // a legacy progress table (no commit_position) gets no commit position rows
                config = settings.engineConfigBuilder(runtime.subtaskIndex(), runtime.runId())
                        .progress(config.progress().forShape(committed.tableShape())).build();
            } else if (!start.earlierRuns().isEmpty()) {
                new EarlierRunSettlement(new SharedLabelWalk(runtime.client(), Ticker.system(), runtime.metrics(),
                        VISIBLE_TIMEOUT_MS, false)).settle(start.earlierRuns(), runtime.runId(),
                        "multi-table sink subtask " + runtime.subtaskIndex());
            }
            MultiTableLoadEngine engine = MultiTableLoadEngine.start(config, runtime.client(), runtime.metrics());
            return new MultiTableRuntime(settings, runtime, engine, gate, start.routing(), start.failureTarget());
        } catch (Exception e) {
            runtime.close();
            throw NonRecoverableSinkFailure.classify(e); // no restart for what cannot heal
        } catch (Error e) {
            runtime.close();
            throw e;
        }
    }

    /**
     * Exactly-once mode: settles what earlier runs of this job left open or in flight, registers this run and reads
     * the committed positions ({@link ProgressOpening}).
     */
    private static CommittedPositions settleAndRead(SinkSettings settings, LoadEngineConfig config,
                                                    SinkRuntime runtime) throws Exception {
        ProgressSettings progress = config.progress();
        try (StarRocksSqlClient sql = new StarRocksSqlClient(settings.clientConfig(), runtime.metrics())) {
            ProgressOpening.Params params = new ProgressOpening.Params(progress.jobId(), config.labelPrefix(),
                    runtime.subtaskIndex(), runtime.runId(), config.serverTimeoutSeconds(),
                    ProgressTable.LOAD_PROPERTIES, liveWriterGraceMs(config.commitIntervalMs()),
                    VISIBLE_TIMEOUT_MS, READ_TIMEOUT_MS);
            return new ProgressOpening(runtime.client(), new ProgressStore(sql, progress.table()), params,
                    Ticker.system(), runtime.metrics()).open().positions();
        }
    }

    /**
     * How long the earlier runs are watched at open before their open labels are rolled back: a live writer begins
     * its next label within a commit interval while it has data, so one interval plus a second; at most
     * {@value #MAX_LIVE_WRITER_GRACE_MS} ms.
     */
    static long liveWriterGraceMs(long commitIntervalMs) {
        return Math.min(MAX_LIVE_WRITER_GRACE_MS, commitIntervalMs + 1_000);
    }

    /**
     * Buffers one row, or ends its partition's source transaction ({@link RowDispatcher}).
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData}, has no source partition,
     *                                  or cannot be routed
     * @throws LoadEngineException      if an earlier load or commit failed (first failure kept)
     */
    public void dispatch(Object row) throws InterruptedException {
        dispatcher.dispatch(row);
    }

    /**
     * Loads and commits everything buffered (a flush of the engine): before a checkpoint, at the end of input.
     *
     * @param what what asks, for the message, e.g. "checkpoint 7" or "end of input"
     * @throws LoadEngineException naming {@code what}, the subtask, and the partitions in the middle of a source
     *                             transaction or the engine's first asynchronous failure (wrapped in a
     *                             {@link NonRecoverableSinkFailure} when it can never heal)
     */
    public void flush(String what) throws InterruptedException {
        try {
            engine.flush();
        } catch (LoadEngineException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException(what + " of multi-table sink subtask "
                    + runtime.subtaskIndex() + " failed: " + e.getMessage(), e));
        }
    }

    /**
     * At-least-once: this run, for the checkpoint's state, so that a later run can walk the labels it begins after
     * the checkpoint ({@link MultiTableRunState}); its settled cycle is the one before the last label begun (a run
     * holds at most one shared transaction open, the last one, so every earlier label is finished). Exactly-once:
     * empty (earlier runs are found in the progress table).
     */
    public List<MultiTableRunState> snapshotRuns() {
        if (settings.isMultiTableExactlyOnce()) {
            return List.of();
        }
        TransactionRef last = engine.currentTransaction();
        long settled = last == null ? 0 : Math.max(0, LabelGenerator.sharedLabelCycle(last.label()) - 1);
        String database = last != null ? last.database() : engine.database();
        LabelGenerator labels = new LabelGenerator(settings.labelPrefix(), runtime.subtaskIndex(), runtime.runId());
        return List.of(new MultiTableRunState(labels.prefix(), labels.subtaskIndex(), labels.runId(), database,
                settled));
    }

    /** Bytes buffered in this subtask's engine now: rows not yet loaded, and loads not yet answered. */
    public long bufferedBytes() {
        return engine.bufferedBytes();
    }

    /** This subtask's index. */
    public int subtaskIndex() {
        return runtime.subtaskIndex();
    }

    /** The run id of this subtask's labels. */
    public String runId() {
        return runtime.runId();
    }

    /**
     * Stops the failure watch, rolls back what is open (bounded: docs/reliability.md#open-transactions-left-behind)
     * and releases buffers, threads and the client; never hangs.
     *
     * @throws Exception what the engine's close throws
     */
    @Override
    public void close() throws Exception {
        EngineFailureWatch.stop(failureWatch);
        SinkRuntime.close(engine, runtime);
    }
}
