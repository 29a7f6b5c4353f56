package io.lockstep.flink.sink;

import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.flink.options.InvalidSinkOptionException;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;

/**
 * The at-least-once single-table sink: each table gets its own transaction stream load per flush
 * (docs/protocol.md#what-the-official-starrocks-connector-does), prepared and committed every
 * {@code sink.buffer-flush.interval-ms}, when {@code sink.buffer-flush.max-bytes} are buffered, at every checkpoint and
 * at the end of bounded input. Rows are routed by {@code database-name} / {@code table-name} ({@code *} = the row's
 * own); source partitions and transaction ends play no part.
 *
 * <ul>
 *   <li>{@link #snapshotState}: flush and commit everything buffered; fails on any stored asynchronous failure.</li>
 *   <li>{@link #finish()}: the same flush, so a bounded job's data is all visible when it ends.</li>
 *   <li>{@link #close()}: rolls back open transactions (replayed from the last checkpoint), bounded in time.</li>
 * </ul>
 * No operator state; a restart takes a fresh run identity for its labels.
 *
 * <p>With {@code sink.target=doris} each table's flush is one plain Doris stream load that commits by itself
 * ({@code DorisStreamLoader}, engine load method CLASSIC); its label is kept on every retry of that load, so Doris
 * deduplicates a retry after a lost reply (docs/doris.md).
 *
 * <p>The subtask itself (client, engine, row routing) is {@link AtLeastOnceSubtask}, shared with the Sink V2 writer;
 * this class adds the SinkFunction lifecycle and its {@link EngineFailureWatch}.
 *
 * <p>Threads: Flink calls every method on the task thread; the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public class AtLeastOnceSinkFunction<T> extends RichSinkFunction<T> implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    private final SinkConfig options;
    private final RowRouting routing;
    /** Task thread: set in open(), cleared in close(). */
    private transient AtLeastOnceSubtask subtask;
    /** Task thread: fails the task soon after the engine failed, without waiting for a row or checkpoint. */
    private transient EngineFailureWatch failureWatch;

    /**
     * @throws InvalidSinkOptionException if the options are multi-table or exactly-once, or cannot run on the
     *                                    engine
     */
    public AtLeastOnceSinkFunction(SinkConfigSource options) {
        SinkMode.AT_LEAST_ONCE.check(options, "AtLeastOnceSinkFunction");
        this.options = options.sinkConfig();
        this.routing = RowRouting.from(this.options);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        subtask = AtLeastOnceSubtask.open(SinkSettings.from(options), routing,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), getRuntimeContext().getMetricGroup());
        failureWatch = EngineFailureWatch.start(getRuntimeContext(), subtask::checkFailure);
    }

    @Override
    public void invoke(T value, Context context) throws Exception {
        subtask.write(value);
    }

    /** No state to restore: every checkpoint commits. */
    @Override
    public void initializeState(FunctionInitializationContext context) {
    }

    /**
     * Flushes and commits everything buffered.
     *
     * @throws LoadEngineException naming the checkpoint, with the engine's failure as cause
     */
    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        subtask.flush("checkpoint " + context.getCheckpointId());
    }

    /** End of bounded input: flushes and commits everything buffered. */
    @Override
    public void finish() throws Exception {
        subtask.flush("end of input");
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        EngineFailureWatch.stop(failureWatch);
        failureWatch = null;
        try {
            if (subtask != null) {
                subtask.close();
            }
        } finally {
            subtask = null;
        }
    }
}
