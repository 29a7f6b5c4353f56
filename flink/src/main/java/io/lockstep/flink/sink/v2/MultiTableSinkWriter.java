package io.lockstep.flink.sink.v2;

import io.lockstep.core.client.Sleeper;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.progress.CommittedPositions;
import io.lockstep.core.progress.PositionGate;
import io.lockstep.core.progress.ProgressOpening;
import io.lockstep.core.progress.ProgressSettings;
import io.lockstep.core.progress.ProgressStore;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.RunIds;
import io.lockstep.core.progress.SourcePartition;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import io.lockstep.flink.sink.RowDispatcher;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkRuntime;
import io.lockstep.flink.sink.SinkSettings;
import java.time.Clock;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of {@link MultiTableSink}:
 * <ul>
 *   <li>{@link #write}: data → engine write, {@code transactionEnd=true} → engine txnEnd for the row's source
 *       partition ({@link RowDispatcher}); {@code sourcePartition < 0} fails naming the keyBy contract;</li>
 *   <li>{@link #flush} (before every checkpoint barrier, and at the end of input): a flush of the engine:
 *       everything buffered is loaded and committed; it fails naming the partitions caught in the middle of a source
 *       transaction, and on any stored asynchronous failure;</li>
 *   <li>between rows, a {@link WriterFailureWatch} fails the task soon after an asynchronous failure;</li>
 *   <li>{@link #close}: rolls back the open shared transaction within the engine's close timeout.</li>
 * </ul>
 *
 * <p>{@code sink.semantic=exactly-once} (docs/exactly-once.md) is a configuration of the same writer: rows carry their
 * source and position, each shared transaction also loads the positions it covers into the progress table, and the
 * writer's start settles what earlier runs of the job id left open, registers this run and reads the committed
 * positions ({@link ProgressOpening}); source transactions at or below them are dropped ({@link PositionGate}). The
 * progress table names earlier runs, so the writer keeps no Flink state in either mode.
 *
 * <p>Task thread only (Flink's mailbox thread); the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@NotThreadSafe
final class MultiTableSinkWriter<T> implements SinkWriter<T> {
    private static final Logger LOG = LoggerFactory.getLogger(MultiTableSinkWriter.class);
    /** Longest wait for an earlier run's open label to show whether its writer is alive, ms. */
    static final long MAX_LIVE_WRITER_GRACE_MS = 30_000;
    /** Longest wait for a COMMITTED label of an earlier run (or this run's registration) to become VISIBLE, ms. */
    static final long VISIBLE_TIMEOUT_MS = 120_000;
    /** Longest wait for the progress rows read through the HTTP SQL API to show this run's registration, ms. */
    static final long READ_TIMEOUT_MS = 60_000;

    private final SinkRuntime runtime;
    private final MultiTableLoadEngine engine;
    private final RowDispatcher dispatcher;
    private final WriterFailureWatch failureWatch;

    /**
     * @param attemptKey exactly-once: {@link RunIds#attemptKey} of this attempt (job, restored checkpoint, attempt
     *                   number), from which the run id is made; ignored at-least-once
     * @throws LoadEngineException if exactly-once and the earlier runs cannot be settled or the positions read
     */
    MultiTableSinkWriter(SinkSettings settings, RowRouting routing, int subtaskIndex, MetricGroup metricGroup,
                         ProcessingTimeService timers, String attemptKey) {
        boolean exactlyOnce = settings.isMultiTableExactlyOnce();
        runtime = SinkRuntime.open(settings, subtaskIndex, metricGroup,
                exactlyOnce ? RunIds.newRunId(attemptKey) : null);
        PositionGate gate = null;
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            if (exactlyOnce) {
                gate = new PositionGate(settleAndRead(settings, config), runtime.metrics());
            }
            engine = MultiTableLoadEngine.start(config, runtime.client(), runtime.metrics());
        } catch (RuntimeException e) {
            runtime.close();
            throw NonRecoverableSinkFailure.classify(e);
        } catch (Exception e) {
            runtime.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw NonRecoverableSinkFailure.classify(new LoadEngineException("multi-table exactly-once sink subtask "
                    + subtaskIndex + " could not settle earlier runs and read its committed positions: "
                    + e.getMessage(), e));
        }
        MultiTableLoadEngine e = engine;
        failureWatch = WriterFailureWatch.start(timers, e::checkFailure);
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
     * Exactly-once mode: settles what earlier runs of this job id left open or in flight, registers this run and
     * reads the committed positions ({@link ProgressOpening}), as {@code MultiTableSinkFunction} does.
     */
    private CommittedPositions settleAndRead(SinkSettings settings, LoadEngineConfig config) throws Exception {
        ProgressSettings progress = config.progress();
        try (StarRocksSqlClient sql = new StarRocksSqlClient(settings.clientConfig(), runtime.metrics())) {
            ProgressOpening.Params params = new ProgressOpening.Params(progress.jobId(), config.labelPrefix(),
                    runtime.subtaskIndex(), runtime.runId(), config.serverTimeoutSeconds(),
                    ProgressTable.LOAD_PROPERTIES,
                    Math.min(MAX_LIVE_WRITER_GRACE_MS, config.commitIntervalMs() + 1_000),
                    VISIBLE_TIMEOUT_MS, READ_TIMEOUT_MS);
            return new ProgressOpening(runtime.client(), new ProgressStore(sql, progress.table()), params,
                    Sleeper.SYSTEM, Clock.systemUTC(), runtime.metrics()).open().positions();
        }
    }

    /**
     * Buffers one row, or ends its partition's source transaction.
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData}, has no source partition,
     *                                  or cannot be routed
     * @throws LoadEngineException      if an earlier load or commit failed (first failure kept)
     */
    @Override
    public void write(T element, Context context) throws InterruptedException {
        dispatcher.dispatch(element);
    }

    /**
     * Loads and commits everything buffered (a flush of the engine).
     *
     * @throws LoadEngineException naming the checkpoint or the end of input, the subtask, and the partitions in the
     *                             middle of a source transaction or the engine's first asynchronous failure
     */
    @Override
    public void flush(boolean endOfInput) throws InterruptedException {
        if (endOfInput) {
            LOG.info("multi-table sink subtask {}: end of input, committing everything buffered",
                    runtime.subtaskIndex());
        }
        try {
            engine.flush();
        } catch (LoadEngineException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException((endOfInput ? "end of input"
                    : "checkpoint") + " of multi-table sink subtask " + runtime.subtaskIndex() + " failed: "
                    + e.getMessage(), e));
        }
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        failureWatch.stop();
        SinkRuntime.close(engine, runtime);
    }
}
