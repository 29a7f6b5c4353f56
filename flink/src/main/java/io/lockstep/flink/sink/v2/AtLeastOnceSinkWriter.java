package io.lockstep.flink.sink.v2;

import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.LoadMethod;
import io.lockstep.core.engine.SingleTableLoadEngine;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.flink.sink.RowDispatcher;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkRuntime;
import io.lockstep.flink.sink.SinkSettings;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The writer of {@link AtLeastOnceSink}: rows go to the single-table engine ({@code *} routing as configured);
 * {@link #flush} (before each checkpoint barrier, and at the end of input) loads and commits everything buffered and
 * fails on any stored asynchronous failure, so a checkpoint never completes over a lost load; between rows a
 * {@link EngineFailureWatch} fails the task soon after an asynchronous failure; {@link #close} rolls
 * back what is still open (replayed from the last checkpoint), bounded by the engine's close timeout.
 *
 * <p>Task thread only (Flink's mailbox thread); the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@NotThreadSafe
final class AtLeastOnceSinkWriter<T> implements SinkWriter<T> {
    private final SinkRuntime runtime;
    private final SingleTableLoadEngine engine;
    /** Doris: the plain stream loader of the CLASSIC engine (null for StarRocks). */
    private final StreamLoader streamLoader;
    private final RowDispatcher dispatcher;
    private final EngineFailureWatch failureWatch;

    AtLeastOnceSinkWriter(SinkSettings settings, RowRouting routing, int subtaskIndex, MetricGroup metricGroup,
                          ProcessingTimeService timers) {
        runtime = SinkRuntime.open(settings, subtaskIndex, metricGroup, null);
        StreamLoader loader = null;
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            if (config.loadMethod() == LoadMethod.CLASSIC) {
                loader = settings.newStreamLoader(runtime.metrics());
                engine = SingleTableLoadEngine.startClassic(config, loader, runtime.metrics());
            } else {
                engine = SingleTableLoadEngine.start(config, runtime.client(), runtime.metrics(),
                        DeliverySemantic.AT_LEAST_ONCE, 0);
            }
        } catch (RuntimeException e) {
            if (loader != null) {
                loader.close();
            }
            runtime.close();
            throw e;
        }
        streamLoader = loader;
        SingleTableLoadEngine e = engine;
        failureWatch = EngineFailureWatch.start(timers, e::checkFailure);
        dispatcher = new RowDispatcher(routing, false, new RowDispatcher.EngineCalls() {
            @Override
            public void write(int partition, String database, String table, byte[] row)
                    throws InterruptedException {
                e.write(database, table, row);
            }

            @Override
            public void txnEnd(int partition) {
                // single-table modes commit per flush, not per source transaction
            }
        });
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

    /**
     * Loads and commits everything buffered.
     *
     * @throws LoadEngineException naming the checkpoint or the end of input and the subtask, with the engine's
     *                             failure as cause
     */
    @Override
    public void flush(boolean endOfInput) throws InterruptedException {
        try {
            engine.flush();
        } catch (LoadEngineException e) {
            throw new LoadEngineException((endOfInput ? "end of input" : "checkpoint") + " of at-least-once sink "
                    + "subtask " + runtime.subtaskIndex() + " failed: " + e.getMessage(), e);
        }
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        failureWatch.stop();
        try {
            SinkRuntime.close(engine, runtime);
        } finally {
            if (streamLoader != null) {
                streamLoader.close();
            }
        }
    }
}
