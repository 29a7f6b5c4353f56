package io.lockstep.flink.sink;

import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.LoadMethod;
import io.lockstep.core.engine.SingleTableLoadEngine;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.metrics.MetricGroup;

/**
 * One subtask of the at-least-once single-table sink, whichever Flink API runs it ({@link AtLeastOnceSinkFunction},
 * {@code v2.AtLeastOnceSinkWriter}): the subtask's client and run identity ({@link SinkRuntime}), the single-table
 * engine (a transaction stream load per table and flush; with {@code sink.target=doris} the CLASSIC engine over a
 * plain {@link StreamLoader}), and the row dispatcher ({@code *} routing as configured; source transaction ends play
 * no part). The API classes add only their lifecycle and their failure watch. Failures no restart can heal
 * (access denied, a data error) are raised as {@link NonRecoverableSinkFailure}.
 *
 * <p>Task thread only: created in the sink's {@code open} (or the writer's constructor), closed in {@code close}; the
 * engine runs its own manager and I/O threads.
 */
@NotThreadSafe
public final class AtLeastOnceSubtask implements AutoCloseable {
    private final SinkRuntime runtime;
    private final SingleTableLoadEngine engine;
    /** Doris: the plain stream loader of the CLASSIC engine (null for StarRocks). */
    private final StreamLoader streamLoader;
    private final RowDispatcher dispatcher;

    private AtLeastOnceSubtask(SinkRuntime runtime, SingleTableLoadEngine engine, StreamLoader streamLoader,
                               RowRouting routing) {
        this.runtime = runtime;
        this.engine = engine;
        this.streamLoader = streamLoader;
        this.dispatcher = new RowDispatcher(routing, false, new RowDispatcher.EngineCalls() {
            @Override
            public void write(int partition, String database, String table, byte[] row)
                    throws InterruptedException {
                engine.write(database, table, row);
            }

            @Override
            public void txnEnd(int partition) {
                // single-table modes commit per flush, not per source transaction
            }
        });
    }

    /**
     * Opens subtask {@code subtaskIndex}'s client (fresh run identity) and starts its engine; on failure closes what
     * it opened.
     *
     * @param metricGroup the operator's metric group
     */
    public static AtLeastOnceSubtask open(SinkSettings settings, RowRouting routing, int subtaskIndex,
                                          MetricGroup metricGroup) {
        SinkRuntime runtime = SinkRuntime.open(settings, subtaskIndex, metricGroup, null);
        StreamLoader loader = null;
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            SingleTableLoadEngine engine;
            if (config.loadMethod() == LoadMethod.CLASSIC) {
                loader = settings.newStreamLoader(runtime.metrics());
                engine = SingleTableLoadEngine.startClassic(config, loader, runtime.metrics());
            } else {
                engine = SingleTableLoadEngine.start(config, runtime.client(), runtime.metrics(),
                        DeliverySemantic.AT_LEAST_ONCE, 0);
            }
            return new AtLeastOnceSubtask(runtime, engine, loader, routing);
        } catch (RuntimeException e) {
            if (loader != null) {
                loader.close();
            }
            runtime.close();
            throw NonRecoverableSinkFailure.classify(e);
        }
    }

    /**
     * Buffers one row for its table.
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData} or cannot be routed
     * @throws LoadEngineException      if an earlier load failed (first failure kept)
     */
    public void write(Object element) throws InterruptedException {
        dispatcher.dispatch(element);
    }

    /**
     * Loads and commits everything buffered.
     *
     * @param what the occasion, for the message: "checkpoint 7", "end of input"
     * @throws LoadEngineException naming {@code what} and the subtask, with the engine's failure as cause (inside a
     *                             {@link NonRecoverableSinkFailure} when no restart can heal it)
     */
    public void flush(String what) throws InterruptedException {
        try {
            engine.flush();
        } catch (LoadEngineException e) {
            throw NonRecoverableSinkFailure.classify(new LoadEngineException(what + " of at-least-once sink subtask "
                    + runtime.subtaskIndex() + " failed: " + e.getMessage(), e));
        }
    }

    /** Returns when the engine is healthy; throws its first failure otherwise (for the failure watch). */
    public void checkFailure() {
        engine.checkFailure();
    }

    /** Any thread, once: {@code action} runs at the engine's first asynchronous failure (see the engine's method). */
    public void onFirstFailure(Runnable action) {
        engine.onFirstFailure(action);
    }

    /** Rolls back what is open and releases buffers, threads and connections; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        try {
            SinkRuntime.close(engine, runtime);
        } finally {
            if (streamLoader != null) {
                streamLoader.close();
            }
        }
    }
}
