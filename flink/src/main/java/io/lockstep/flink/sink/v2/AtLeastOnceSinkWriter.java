package io.lockstep.flink.sink.v2;

import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.flink.sink.AtLeastOnceSubtask;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkSettings;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The writer of {@link AtLeastOnceSink}: the Sink V2 lifecycle around an {@link AtLeastOnceSubtask}, the same
 * subtask {@code AtLeastOnceSinkFunction} runs. {@link #flush} (before each checkpoint barrier, and at the end of
 * input) loads and commits everything buffered and fails on any stored asynchronous failure, so a checkpoint never
 * completes over a lost load; the engine's first asynchronous failure fails the task through one mail to its
 * mailbox ({@link EngineFailureWatch}); {@link #close} rolls back what is still open (replayed from the last
 * checkpoint), bounded by the engine's close timeout.
 *
 * <p>Task thread only (Flink's mailbox thread); the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
@NotThreadSafe
final class AtLeastOnceSinkWriter<T> implements SinkWriter<T> {
    private final AtLeastOnceSubtask subtask;
    private final EngineFailureWatch failureWatch;

    AtLeastOnceSinkWriter(SinkSettings settings, RowRouting routing, int subtaskIndex, MetricGroup metricGroup,
                          EngineFailureWatch.Target failureTarget) {
        subtask = AtLeastOnceSubtask.open(settings, routing, subtaskIndex, metricGroup);
        failureWatch = EngineFailureWatch.start(failureTarget, subtask::checkFailure, subtask::onFirstFailure);
    }

    /**
     * Buffers one row for its table.
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData} or cannot be routed
     * @throws LoadEngineException      if an earlier load failed (first failure kept)
     */
    @Override
    public void write(T element, Context context) throws InterruptedException {
        subtask.write(element);
    }

    /**
     * Loads and commits everything buffered.
     *
     * @throws LoadEngineException naming the checkpoint or the end of input and the subtask, with the engine's
     *                             failure as cause
     */
    @Override
    public void flush(boolean endOfInput) throws InterruptedException {
        subtask.flush(endOfInput ? "end of input" : "checkpoint");
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        failureWatch.stop();
        subtask.close();
    }
}
