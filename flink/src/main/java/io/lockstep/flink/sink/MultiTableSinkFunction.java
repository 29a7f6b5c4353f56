package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
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
 *   <li>{@link #snapshotState}: a savepoint: everything buffered is loaded and committed before the checkpoint
 *       completes; it fails naming the partitions caught in the middle of a source transaction, and on any stored
 *       asynchronous failure (a checkpoint never completes after a lost load).</li>
 *   <li>{@link #finish()} (end of bounded input): the same savepoint, so a bounded job's data is all visible when
 *       it ends.</li>
 *   <li>{@link #close()}: rolls back the open shared transaction (at-least-once: the data is replayed from the
 *       last checkpoint) within the engine's close timeout; never hangs.</li>
 * </ul>
 * At-least-once; no operator state: every checkpoint commits, and a restart replays from it under a fresh run
 * identity, so its labels never collide with the failed attempt's.
 *
 * <p>Threads: Flink calls every method on the task thread; the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public class MultiTableSinkFunction<T> extends RichSinkFunction<T> implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MultiTableSinkFunction.class);

    private final StarRocksSinkOptions options;
    private final RowRouting routing;
    /** Task thread: set in open(), cleared in close(). */
    private transient SinkRuntime runtime;
    private transient MultiTableLoadEngine engine;
    private transient RowDispatcher dispatcher;

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
        runtime = SinkRuntime.open(settings, getRuntimeContext());
        try {
            engine = MultiTableLoadEngine.start(settings.engineConfig(runtime.subtaskIndex(), runtime.runId()),
                    runtime.client(), runtime.metrics());
        } catch (RuntimeException e) {
            runtime.close();
            runtime = null;
            throw e;
        }
        MultiTableLoadEngine e = engine;
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

    @Override
    public void invoke(T value, Context context) throws Exception {
        dispatcher.dispatch(value);
    }

    /** No state to restore: at-least-once commits everything at each checkpoint. */
    @Override
    public void initializeState(FunctionInitializationContext context) {
        if (context.isRestored()) {
            LOG.info("multi-table sink restored: rows after the last checkpoint are replayed (at-least-once)");
        }
    }

    /**
     * Loads and commits everything buffered (a savepoint of the engine).
     *
     * @throws LoadEngineException naming the checkpoint and the partitions in the middle of a source transaction,
     *                             or the engine's first asynchronous failure
     */
    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        savepoint("checkpoint " + context.getCheckpointId());
    }

    /** End of bounded input: loads and commits everything buffered. */
    @Override
    public void finish() throws Exception {
        LOG.info("multi-table sink subtask {}: end of input, committing everything buffered", runtime.subtaskIndex());
        savepoint("end of input");
    }

    private void savepoint(String what) throws InterruptedException {
        try {
            engine.savepoint();
        } catch (LoadEngineException e) {
            throw new LoadEngineException(what + " of multi-table sink subtask " + runtime.subtaskIndex()
                    + " failed: " + e.getMessage(), e);
        }
    }

    /** Rolls back what is open and releases buffers and threads; bounded by the engine's close timeout. */
    @Override
    public void close() throws Exception {
        try {
            SinkRuntime.close(engine, runtime);
        } finally {
            engine = null;
            dispatcher = null;
            runtime = null;
        }
    }
}
