package io.lockstep.flink.sink.v2;

import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.progress.PositionGate;
import io.lockstep.core.restart.ProgressOpening;
import io.lockstep.core.restart.MultiTableRunState;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.flink.sink.MultiTableRuntime;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import io.lockstep.flink.sink.RowDispatcher;
import java.util.List;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of {@link MultiTableSink}: translates Sink V2's calls to the subtask's {@link MultiTableRuntime} (shared
 * with {@code MultiTableSinkFunction}):
 * <ul>
 *   <li>{@link #write}: data → engine write, {@code transactionEnd=true} → engine txnEnd for the row's source
 *       partition ({@link RowDispatcher}); {@code sourcePartition < 0} fails naming the keyBy contract;</li>
 *   <li>{@link #flush} (before every checkpoint barrier, and at the end of input): a flush of the engine:
 *       everything buffered is loaded and committed; it fails naming the partitions caught in the middle of a source
 *       transaction, and on any stored asynchronous failure;</li>
 *   <li>{@link #snapshotState}: at-least-once, this subtask's run ({@link MultiTableRunState}), so a later run can
 *       roll back what this one leaves open after the checkpoint; exactly-once, nothing (the progress table names
 *       earlier runs);</li>
 *   <li>between rows, an {@link EngineFailureWatch} fails the task soon after an asynchronous failure;</li>
 *   <li>{@link #close}: rolls back the open shared transaction within a bound.</li>
 * </ul>
 *
 * <p>{@code sink.semantic=exactly-once} (docs/exactly-once.md) is a configuration of the same writer: rows carry their
 * source and position, each shared transaction also loads the positions it covers into the progress table, and the
 * writer's start settles what earlier runs of the job id left open, registers this run and reads the committed
 * positions ({@link ProgressOpening}); source transactions at or below them are dropped ({@link PositionGate}).
 *
 * <p>Task thread only (Flink's mailbox thread); the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
@NotThreadSafe
final class MultiTableSinkWriter<T> implements StatefulSinkWriter<T, MultiTableRunState> {
    private static final Logger LOG = LoggerFactory.getLogger(MultiTableSinkWriter.class);

    private final MultiTableRuntime runtime;

    /**
     * @throws LoadEngineException if the earlier runs cannot be settled (or, exactly-once, the positions read)
     */
    MultiTableSinkWriter(MultiTableRuntime.Start start) {
        try {
            runtime = MultiTableRuntime.open(start);
        } catch (RuntimeException e) {
            throw e; // classified by the runtime
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw NonRecoverableSinkFailure.classify(new LoadEngineException("multi-table sink subtask "
                    + start.subtaskIndex() + " could not settle what earlier runs left open"
                    + (start.settings().isMultiTableExactlyOnce() ? " and read its committed positions" : "") + ": "
                    + e.getMessage(), e));
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
        runtime.dispatch(element);
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
        runtime.flush(endOfInput ? "end of input" : "checkpoint");
    }

    /** At-least-once: this subtask's run (called after {@link #flush}); exactly-once: empty. */
    @Override
    public List<MultiTableRunState> snapshotState(long checkpointId) {
        return runtime.snapshotRuns();
    }

    /** The subtask's runtime (tests observe the engine through it). */
    MultiTableRuntime runtime() {
        return runtime;
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        runtime.close();
    }
}
