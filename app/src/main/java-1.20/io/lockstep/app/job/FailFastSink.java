package io.lockstep.app.job;

import io.lockstep.app.assemble.InputStop;
import io.lockstep.app.create.MidStreamTableCreator;
import io.lockstep.app.create.TableCreationBarrier;
import io.lockstep.app.create.TableCreator;
import io.lockstep.app.create.TableRefusedException;
import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.schema.SchemaApplier;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import io.lockstep.flink.sink.MultiTableSinkFunction;
import java.sql.SQLException;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFunction;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.functions.util.FunctionUtils;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps the job's sink: its input is the assembler's {@link SinkInput}, rows ({@link LoadRow}) go to the wrapped sink,
 * control marks are acted on here. Bad input upstream ends the job cleanly: an {@link InputStop} first commits
 * everything the sink buffered before it (with the multi-table sink: its {@code finish}, the same flush as at the
 * end of bounded input; those are whole source transactions), then fails the job with the input's error, whose
 * class Flink treats as non-recoverable (no restart). If that commit fails, the input's error is still the one
 * reported, with the commit failure attached as suppressed. Failures of the sink that can never heal need no
 * wrapper: the sink raises them as {@code io.lockstep.flink.sink.NonRecoverableSinkFailure} itself.
 *
 * <p>A {@link SchemaChangeBarrier} ({@code --schema-changes apply}) commits everything buffered
 * ({@link MultiTableSinkFunction#commitBuffered}), applies the change through {@link SchemaApplier} (skipping what the
 * target already has), then the rows after it go on. A refused statement ends the job in one line
 * ({@link SchemaChangeException}); a lost connection (SQL state class 08) restarts it, and the replay finds what was
 * already applied.
 *
 * <p>A {@link TableCreationBarrier} ({@code --create-tables}, docs/table-creation.md#tables-created-mid-stream) commits
 * everything buffered the same way, creates the table through {@link MidStreamTableCreator} (a table that is there
 * already with the same columns is fine: a replay, or another subtask created it), then the rows after it go on; a
 * refused statement ends the job in one line, a lost connection restarts it, and so does a table another client
 * created meanwhile with other columns (the rows were checked against the columns creation would give; after the
 * restart they are checked against the table's real ones).
 *
 * <p>Every other call is forwarded unchanged to the wrapped sink (open, close, the runtime context, {@code invoke}
 * of a row, {@code finish}, checkpointed state and checkpoint notifications when the sink has them).
 *
 * <p>Threads: Flink calls every method on the task thread, as it would call the wrapped sink.
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
public final class FailFastSink extends RichSinkFunction<SinkInput>
        implements CheckpointedFunction, CheckpointListener {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(FailFastSink.class);

    private final SinkFunction<LoadRow> sink;
    /** Applies schema-change barriers, or {@code null} when {@code --schema-changes apply} is off. */
    private final SchemaApplier schemaApplier;
    /** Creates the tables of table creation barriers, or {@code null} when {@code --create-tables} is off. */
    private final MidStreamTableCreator tableCreator;

    /** @param sink the sink to forward to, e.g. from {@code SinkFunctionFactory.createSinkFunction} */
    public FailFastSink(SinkFunction<LoadRow> sink) {
        this(sink, null, null);
    }

    /**
     * @param sink the sink to forward to
     * @param schemaApplier applies {@link SchemaChangeBarrier}s, or {@code null} (a barrier then fails the job)
     */
    public FailFastSink(SinkFunction<LoadRow> sink, SchemaApplier schemaApplier) {
        this(sink, schemaApplier, null);
    }

    /**
     * @param sink the sink to forward to
     * @param schemaApplier applies {@link SchemaChangeBarrier}s, or {@code null} (a barrier then fails the job)
     * @param tableCreator creates the tables of {@link TableCreationBarrier}s, or {@code null} (a barrier then fails
     *     the job)
     */
    public FailFastSink(SinkFunction<LoadRow> sink, SchemaApplier schemaApplier, MidStreamTableCreator tableCreator) {
        this.sink = sink;
        this.schemaApplier = schemaApplier;
        this.tableCreator = tableCreator;
    }

    @Override
    public void setRuntimeContext(RuntimeContext context) {
        super.setRuntimeContext(context);
        if (sink instanceof RichFunction rich) {
            rich.setRuntimeContext(context);
        }
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        FunctionUtils.openFunction(sink, openContext);
    }

    @Override
    public void close() throws Exception {
        FunctionUtils.closeFunction(sink);
    }

    @Override
    public void invoke(SinkInput value, Context context) throws Exception {
        if (value instanceof LoadRow row) {
            sink.invoke(row, context);
            return;
        }
        if (value instanceof InputStop stop) {
            RuntimeException failure = stop.toException();
            if (sink instanceof MultiTableSinkFunction) {
                try {
                    sink.finish();
                } catch (Exception e) {
                    failure.addSuppressed(e);
                }
            }
            throw failure;
        }
        if (value instanceof SchemaChangeBarrier barrier) {
            applySchemaChange(barrier);
            return;
        }
        if (value instanceof TableCreationBarrier barrier) {
            createTable(barrier);
            return;
        }
        throw new IllegalStateException("unknown control mark " + value.getClass().getName() + " of source partition "
                + value.getSourcePartition() + " at the sink");
    }

    @Override
    public void finish() throws Exception {
        sink.finish();
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        if (sink instanceof CheckpointedFunction checkpointed) {
            checkpointed.initializeState(context);
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        if (sink instanceof CheckpointedFunction checkpointed) {
            checkpointed.snapshotState(context);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        if (sink instanceof CheckpointListener listener) {
            listener.notifyCheckpointComplete(checkpointId);
        }
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        if (sink instanceof CheckpointListener listener) {
            listener.notifyCheckpointAborted(checkpointId);
        }
    }

    /** Commit what is buffered, apply the change, go on (see the class comment). */
    private void applySchemaChange(SchemaChangeBarrier barrier) throws Exception {
        String table = barrier.getDatabase() + "." + barrier.getTable();
        if (schemaApplier == null || !(sink instanceof MultiTableSinkFunction<?> multiTable)) {
            throw new SchemaChangeException(barrier.getCause() + ": target table " + table + " needs a schema change "
                    + "and this sink cannot apply it (--schema-changes apply needs --jdbc-url and --target starrocks)");
        }
        multiTable.commitBuffered("schema change of " + table);
        try {
            List<String> issued = schemaApplier.apply(barrier);
            LOG.info("Schema change of {} ({}): {}", table, barrier.getCause(),
                    issued.isEmpty() ? "the table already had it" : String.join("; ", issued));
        } catch (SQLException e) {
            String line = barrier.getCause() + ": schema change of target table " + table + " failed: "
                    + e.getMessage() + "; the transactions before it are committed";
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                throw new IllegalStateException(line, e); // the connection: may heal, so restart
            }
            throw new SchemaChangeException(line + ": change the table yourself, then start again");
        }
    }

    /** Commit what is buffered, create the table, go on (see the class comment). */
    private void createTable(TableCreationBarrier barrier) throws Exception {
        String table = barrier.getDatabase() + "." + barrier.getTable();
        if (tableCreator == null || !(sink instanceof MultiTableSinkFunction<?> multiTable)) {
            throw new SchemaChangeException(barrier.getCause() + ": target table " + table + " does not exist and "
                    + "this sink cannot create it (--create-tables needs --jdbc-url and --target starrocks)");
        }
        multiTable.commitBuffered("creating table " + table);
        TableCreator.Outcome outcome;
        try {
            outcome = tableCreator.create(barrier);
        } catch (TableRefusedException e) {
            throw new SchemaChangeException(barrier.getCause() + ": target table " + table + " cannot be created: "
                    + e.getMessage() + "; the transactions before it are committed");
        } catch (SQLException e) {
            String line = barrier.getCause() + ": creating target table " + table + " failed: " + e.getMessage()
                    + "; the transactions before it are committed";
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                throw new IllegalStateException(line, e); // the connection: may heal, so restart
            }
            throw new SchemaChangeException(line + ": create the table yourself, then start again");
        }
        if (outcome == TableCreator.Outcome.EXISTS_DIFFERENT) {
            // another client created it meanwhile: the assembler checked the rows against the columns it would have
            // created, so start again from the last checkpoint, where they are checked against the table as it is
            throw new IllegalStateException(barrier.getCause() + ": target table " + table + " appeared meanwhile with "
                    + "other columns (see the WARN line); the job restarts so that its rows are checked against them");
        }
        LOG.info("Table {} for source table {} ({}): {}", table, barrier.sourceTable().qualifiedName(),
                barrier.getCause(), outcome == TableCreator.Outcome.CREATED ? "created" : "already there");
    }
}
