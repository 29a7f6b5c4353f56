package io.lockstep.flink.sink.v2;

import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.flink.sink.RowDispatcher;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkRuntime;
import io.lockstep.flink.sink.SinkSettings;
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
 *   <li>{@link #flush} (before every checkpoint barrier, and at the end of input): a savepoint of the engine:
 *       everything buffered is loaded and committed; it fails naming the partitions caught in the middle of a source
 *       transaction, and on any stored asynchronous failure;</li>
 *   <li>between rows, a {@link WriterFailureWatch} fails the task soon after an asynchronous failure;</li>
 *   <li>{@link #close}: rolls back the open shared transaction within the engine's close timeout.</li>
 * </ul>
 *
 * <p>Task thread only (Flink's mailbox thread); the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@NotThreadSafe
final class MultiTableSinkWriter<T> implements SinkWriter<T> {
    private static final Logger LOG = LoggerFactory.getLogger(MultiTableSinkWriter.class);

    private final SinkRuntime runtime;
    private final MultiTableLoadEngine engine;
    private final RowDispatcher dispatcher;
    private final WriterFailureWatch failureWatch;

    MultiTableSinkWriter(SinkSettings settings, RowRouting routing, int subtaskIndex, MetricGroup metricGroup,
                         ProcessingTimeService timers) {
        runtime = SinkRuntime.open(settings, subtaskIndex, metricGroup, null);
        try {
            engine = MultiTableLoadEngine.start(settings.engineConfig(runtime.subtaskIndex(), runtime.runId()),
                    runtime.client(), runtime.metrics());
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
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
        });
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
     * Loads and commits everything buffered (a savepoint of the engine).
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
            engine.savepoint();
        } catch (LoadEngineException e) {
            throw new LoadEngineException((endOfInput ? "end of input" : "checkpoint") + " of multi-table sink "
                    + "subtask " + runtime.subtaskIndex() + " failed: " + e.getMessage(), e);
        }
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        failureWatch.stop();
        SinkRuntime.close(engine, runtime);
    }
}
