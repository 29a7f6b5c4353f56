package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.LoadMethod;
import io.lockstep.core.engine.SingleTableLoadEngine;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
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
 * <p>Threads: Flink calls every method on the task thread; the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public class AtLeastOnceSinkFunction<T> extends RichSinkFunction<T> implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    private final StarRocksSinkOptions options;
    private final RowRouting routing;
    /** Task thread: set in open(), cleared in close(). */
    private transient SinkRuntime runtime;
    private transient SingleTableLoadEngine engine;
    private transient RowDispatcher dispatcher;
    /** Task thread: fails the task soon after the engine failed, without waiting for a row or checkpoint. */
    private transient EngineFailureWatch failureWatch;
    /** Doris: the plain stream loader of the CLASSIC engine (null for StarRocks). */
    private transient StreamLoader streamLoader;

    /**
     * @throws InvalidSinkOptionException if the options are multi-table or exactly-once, or cannot run on the
     *                                    engine
     */
    public AtLeastOnceSinkFunction(StarRocksSinkOptions options) {
        if (options.isMultiTableTransactionEnabled() || options.getSemantic() != SinkSemantic.AT_LEAST_ONCE) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_SEMANTIC.key(),
                    "AtLeastOnceSinkFunction needs 'sink.semantic' = 'at-least-once' without multi-table mode");
        }
        SinkSettings.from(options);
        this.options = options;
        this.routing = RowRouting.from(options);
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        SinkSettings settings = SinkSettings.from(options);
        runtime = SinkRuntime.open(settings, getRuntimeContext());
        try {
            LoadEngineConfig config = settings.engineConfig(runtime.subtaskIndex(), runtime.runId());
            if (config.loadMethod() == LoadMethod.CLASSIC) {
                streamLoader = settings.newStreamLoader(runtime.metrics());
                engine = SingleTableLoadEngine.startClassic(config, streamLoader, runtime.metrics());
            } else {
                engine = SingleTableLoadEngine.start(config, runtime.client(), runtime.metrics(),
                        DeliverySemantic.AT_LEAST_ONCE, 0);
            }
        } catch (RuntimeException e) {
            if (streamLoader != null) {
                streamLoader.close();
                streamLoader = null;
            }
            runtime.close();
            runtime = null;
            throw e;
        }
        SingleTableLoadEngine e = engine;
        failureWatch = EngineFailureWatch.start(getRuntimeContext(), e::checkFailure);
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

    @Override
    public void invoke(T value, Context context) throws Exception {
        dispatcher.dispatch(value);
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
        flush("checkpoint " + context.getCheckpointId());
    }

    /** End of bounded input: flushes and commits everything buffered. */
    @Override
    public void finish() throws Exception {
        flush("end of input");
    }

    private void flush(String what) throws InterruptedException {
        try {
            engine.flush();
        } catch (LoadEngineException e) {
            throw new LoadEngineException(what + " of at-least-once sink subtask " + runtime.subtaskIndex()
                    + " failed: " + e.getMessage(), e);
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
            if (streamLoader != null) {
                streamLoader.close();
            }
            streamLoader = null;
            engine = null;
            dispatcher = null;
            runtime = null;
        }
    }
}
