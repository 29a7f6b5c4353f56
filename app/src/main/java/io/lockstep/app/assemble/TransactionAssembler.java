package io.lockstep.app.assemble;

import io.lockstep.app.deadletter.DeadLetter;
import io.lockstep.app.deadletter.DeadLetterWriter;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.app.schema.ColumnTypes;
import io.lockstep.app.schema.RowColumns;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.schema.TargetColumns;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds source transactions on one source partition (the key) and emits each as a run of
 * {@link LoadRow} whose last row has {@code transactionEnd = true}; every row carries
 * the partition as {@code sourcePartition}, its routed target table, the Kafka topic as {@code source} and, as
 * {@code sourcePosition}, the offset of the transaction's last event (the END of a Debezium transaction, the
 * {@code commit} row of a Maxwell one, the event itself for a standalone row; for a part emitted at a bound, the
 * last event in that part). Positions therefore grow with each source transaction within a partition, which
 * the exactly-once multi-table sink relies on (docs/exactly-once.md). Subclasses decide, per format,
 * where a transaction starts and ends; this class owns the buffer, the bounds and the errors.
 *
 * <p>State (keyed by partition through {@link SourcePartitionKey}, on the task thread only): the
 * {@link OpenTransaction} and the rows buffered for it, both cleared when the transaction is emitted. The
 * buffer is bounded by {@link AssemblerOptions#maxRows()} and {@link AssemblerOptions#maxSizeBytes()}, and a
 * processing-time timer bounds how long a transaction stays open ({@link AssemblerOptions#maxOpenMs()}); beyond a
 * bound the job fails naming the transaction, or ({@link BoundMode#EMIT}) the buffered rows are emitted as
 * their own transaction. Rows are never dropped silently.
 *
 * <p>With {@link #checkingColumns} the rows are checked against the target tables' columns
 * (docs/schema-changes.md): a row with a column its target table lacks is a schema change, handled as
 * {@link AssemblerOptions#schemaChangeMode()} says (stop before its transaction, leave the column out, or send a
 * {@link SchemaChangeBarrier} that adds it ahead of the transaction); DDL events are compared with the target too.
 * When the reader knows the column types, each value is checked too ({@link ValueCheck}): a bad value sends its
 * whole transaction to the dead letter, or stops before it ({@link BadValueException}). The check never switches
 * itself off: columns that cannot be read fail the subtask (outage: restart; refusal: fail once), and a missing
 * target table follows {@code --unknown-table} (docs/reliability.md).
 *
 * <p>A transaction must load into one target database (one StarRocks transaction spans one database);
 * a transaction routed to two fails with {@link TransactionAssemblyException}.
 *
 * <p>Dead letter ({@link AssemblerOptions#deadLetter()}, docs/dead-letter.md): the raw events of the open transaction
 * are kept in keyed state as well; an event the job cannot use (undecodable, of an unknown table, a row over
 * {@link AssemblerOptions#maxSizeBytes()}, a bad value, a broken framing with {@code --bad-input fail}) marks the transaction it
 * arrived in, which then buffers no rows and collects its remaining events until its END (or commit row, or the next
 * transaction's start, or the time bound), and goes to the dead letter whole. The letter is written durably on the
 * task thread before any later event is handled, so nothing after it can commit while the letter could still be
 * lost. An unusable event outside any transaction goes alone. Transactions before and after load as usual.
 */
public abstract class TransactionAssembler
        extends KeyedProcessFunction<Long, SourceEvent, SinkInput> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    /**
     * Name of the counter (in the assembler operator's metric group) of source transactions emitted whole:
     * each commit of a transaction and each standalone row event counts once.
     */
    public static final String SOURCE_TRANSACTIONS_METRIC = "lockstepSourceTransactions";

    private final TableRouter router;
    private final AssemblerOptions options;
    /** Reads the target tables' columns, or {@code null}: rows are not checked. Set before the job runs. */
    private ColumnReader columnReader;

    private transient ValueState<OpenTransaction> openTransaction;
    private transient ListState<LoadRow> bufferedRows;
    /** Tables already reported as skipped, so the INFO line appears once per table and subtask. */
    private transient Set<String> warnedSkippedTables;
    /** Task thread only (Flink counters are read by reporters without synchronization). */
    private transient Counter sourceTransactions;
    /** Task thread only: the target tables' columns as this subtask knows them ({@code null} without a reader). */
    private transient TargetColumns targetColumns;
    /** Task thread only: {@code db.table.column} already reported as left out, so the WARN appears once. */
    private transient Set<String> warnedLeftOutColumns;
    /** Task thread only: set once bad input stopped this subtask ({@link InputStop}); the job then fails. */
    private transient boolean stopped;

    /** Name of the counter of dead letters written (a transaction, or an event outside any, counts once). */
    public static final String DEAD_LETTERS_METRIC = "lockstepDeadLetters";
    /** Name of the counter of row events skipped because their table is unknown ({@code --unknown-table skip}). */
    public static final String SKIPPED_ROWS_METRIC = "lockstepSkippedRows";

    /** Raw events of the open transaction, kept only with a dead letter; task thread only. */
    private transient ListState<SourceRecord> transactionEvents;
    /** The dead letter's writer, or {@code null} without one; opened and used on the task thread only. */
    private transient DeadLetterWriter deadLetters;
    /** Task thread only. */
    private transient Counter deadLettered;
    /** Task thread only. */
    private transient Counter skippedRows;

    /**
     * @param router maps source tables to target tables
     * @param options bounds and error handling
     */
    protected TransactionAssembler(TableRouter router, AssemblerOptions options) {
        this.router = Objects.requireNonNull(router, "router");
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Checks every row against its target table's columns, read through {@code reader} (once per table and
     * subtask, again after a DDL event of the table). Call before the job is defined.
     *
     * @param reader reads a target table's columns, e.g. {@link io.lockstep.app.schema.HttpSqlColumnReader}
     * @return this assembler
     */
    public TransactionAssembler checkingColumns(ColumnReader reader) {
        this.columnReader = Objects.requireNonNull(reader, "reader");
        return this;
    }

    @Override
    public void open(OpenContext openContext) {
        targetColumns = columnReader == null ? null : new TargetColumns(columnReader);
        warnedLeftOutColumns = new HashSet<>();
        openTransaction = getRuntimeContext().getState(
                new ValueStateDescriptor<>("open-transaction", TypeInformation.of(OpenTransaction.class)));
        bufferedRows = getRuntimeContext().getListState(
                new ListStateDescriptor<>("buffered-rows", TypeInformation.of(LoadRow.class)));
        warnedSkippedTables = new HashSet<>();
        sourceTransactions = getRuntimeContext().getMetricGroup().counter(SOURCE_TRANSACTIONS_METRIC);
        deadLettered = getRuntimeContext().getMetricGroup().counter(DEAD_LETTERS_METRIC);
        skippedRows = getRuntimeContext().getMetricGroup().counter(SKIPPED_ROWS_METRIC);
        if (options.deadLetter() != null) {
            transactionEvents = getRuntimeContext().getListState(new ListStateDescriptor<>("dead-letter-events",
                    TypeInformation.of(SourceRecord.class)));
            deadLetters = options.deadLetter().open();
        }
    }

    @Override
    public void close() throws Exception {
        if (deadLetters != null) {
            deadLetters.close();
            deadLetters = null;
        }
        super.close();
    }

    @Override
    public final void processElement(SourceEvent event, Context ctx, Collector<SinkInput> out)
            throws Exception {
        if (stopped) {
            return; // the job is failing: what follows is read again after the fix
        }
        try {
            if (deadLetters != null && continuesDeadLetteredTransaction(event, ctx)) {
                return;
            }
            if (event.getKind() == SourceEventKind.UNDECODABLE) {
                throw new BadSourceEventException(event.describePosition(), reasonOf(event));
            }
            if (event.getKind() == SourceEventKind.SCHEMA_CHANGE) {
                schemaChange(event, ctx, out);
                return;
            }
            handle(event, ctx, out);
            keepForDeadLetter(event);
        } catch (SchemaChangeException e) {
            stop(e, ctx, out); // never skipped nor dead-lettered as bad input: --schema-changes decides
        } catch (BadValueException e) {
            if (deadLetters != null) { // whatever --bad-input says: skipping would lose the transaction
                deadLetter(event, e.deadLetterReason(), ctx);
                return;
            }
            stop(e, ctx, out);
        } catch (BadSourceEventException e) {
            if (deadLetters != null
                    && (options.badInputMode() == BadInputMode.FAIL || e instanceof RowTooLargeException)) {
                deadLetter(event, e.getMessage(), ctx);
                return;
            }
            if (options.badInputMode() == BadInputMode.FAIL) {
                stop(e, ctx, out);
                return;
            }
            LOG.warn("Skipping bad input: {}", e.getMessage());
        } catch (UnknownTableException e) {
            if (deadLetters != null) {
                deadLetter(event, e.getMessage(), ctx);
                return;
            }
            stop(e, ctx, out);
        } catch (TransactionAssemblyException e) {
            stop(e, ctx, out);
        }
    }

    /** With a dead letter: keeps {@code event} (just handled) while it belongs to a transaction still open. */
    private void keepForDeadLetter(SourceEvent event) throws Exception {
        if (deadLetters != null && !event.isStandalone() && event.getKind() != SourceEventKind.SCHEMA_CHANGE
                && current() != null) {
            transactionEvents.add(event.rawRecord());
        }
    }

    /**
     * An unusable event ({@code reason} names its position and the problem): the open transaction, if any, goes to
     * the dead letter whole (now, when the event closes it; else once it closes); without one the event goes alone.
     */
    private void deadLetter(SourceEvent event, String reason, Context ctx) throws Exception {
        OpenTransaction t = current();
        if (t == null || event.isStandalone()) {
            write(new DeadLetter(reason, event.getTransactionId(), List.of(event.rawRecord())));
            return;
        }
        if (t.getDeadLetterReason() == null) {
            t.setDeadLetterReason(reason);
            bufferedRows.clear();
            t.setBufferedRows(0);
            t.setBufferedSizeBytes(0);
        }
        transactionEvents.add(event.rawRecord());
        openTransaction.update(t);
        if (closes(t, event)) {
            writeDeadLetter(t, ctx);
        }
    }

    /**
     * With a dead letter: handles {@code event} if it belongs to an open transaction that goes to the dead letter.
     *
     * @return {@code true} when the event was taken; {@code false} to handle it as usual (no such transaction, or
     *     the event starts another transaction, after the marked one was written without its END)
     */
    private boolean continuesDeadLetteredTransaction(SourceEvent event, Context ctx) throws Exception {
        OpenTransaction t = current();
        if (t == null || t.getDeadLetterReason() == null || event.isStandalone()
                || event.getKind() == SourceEventKind.SCHEMA_CHANGE) {
            return false;
        }
        boolean same = event.getTransactionKey() != null && event.getTransactionKey().equals(t.getTransactionKey());
        if (event.getKind() == SourceEventKind.BEGIN && same) {
            discard(t, ctx); // the source sends the transaction again from its start
            return false;
        }
        if (event.getKind() == SourceEventKind.BEGIN || (event.getKind() == SourceEventKind.ROW && !same
                && event.getTransactionKey() != null)) {
            writeDeadLetter(t, ctx); // its end never came
            return false;
        }
        transactionEvents.add(event.rawRecord());
        if (closes(t, event)) {
            writeDeadLetter(t, ctx);
        }
        return true;
    }

    private static boolean closes(OpenTransaction t, SourceEvent event) {
        return Objects.equals(event.getTransactionKey(), t.getTransactionKey())
                && (event.getKind() == SourceEventKind.END || event.isCommit());
    }

    /** Writes the marked transaction's events to the dead letter and drops its state. */
    private void writeDeadLetter(OpenTransaction t, Context ctx) throws Exception {
        List<SourceRecord> events = new ArrayList<>();
        for (SourceRecord event : transactionEvents.get()) {
            events.add(event);
        }
        write(new DeadLetter(t.getDeadLetterReason(), t.getTransactionId(), events));
        discard(t, ctx);
    }

    private void write(DeadLetter letter) throws IOException {
        deadLetters.write(letter);
        deadLettered.inc();
        LOG.warn("Dead-lettered {} to {}: {}", letter.describe(), options.deadLetter(), letter.reason());
    }

    /**
     * Ends this subtask's input at a bad event: the transactions emitted so far stay whole and load, the open
     * one (the bad event's) is never emitted, and the sink fails the job once it committed what came before
     * ({@link InputStop}). Later events are ignored; no checkpoint can complete past the stop, so they are read
     * again by the next start.
     */
    private void stop(RuntimeException failure, Context ctx, Collector<SinkInput> out) {
        stopped = true;
        LOG.warn("Stopping at bad input (the transactions before it are committed first): {}", failure.getMessage());
        out.collect(new InputStop(failure, sourcePartition(ctx)));
    }

    /**
     * A schema change between source transactions. A DDL event of a table whose rows are never loaded
     * ({@link TableRouter#notLoadedReason}) is ignored with one WARN in every mode. One whose rows would stop the job
     * as unknown (the target table does not exist, {@code --unknown-table fail}) stops it the same way, saying so,
     * except with {@link SchemaChangeMode#IGNORE} (its rows stop it then). Otherwise its target table's
     * columns are compared with the table's columns after the change (when the event lists them). With
     * {@link SchemaChangeMode#FAIL} the stop (the transactions before it load, the job fails naming the table and the
     * DDL), unless the target already has the change; with {@link SchemaChangeMode#IGNORE} a WARN; with
     * {@link SchemaChangeMode#APPLY} a {@link SchemaChangeBarrier} carrying the columns to add and drop.
     */
    private void schemaChange(SourceEvent event, Context ctx, Collector<SinkInput> out) {
        String notLoaded = event.getSourceTable() == null || "?".equals(event.getSourceTable()) ? null
                : router.notLoadedReason(event.getSourceDatabase(), event.getSourceTable());
        if (notLoaded != null) {
            LOG.warn("Ignoring a schema change of table {} at {}: its rows are not loaded ({})",
                    event.dataCollection(), event.describePosition(), notLoaded);
            return;
        }
        UnknownTableException missing = options.schemaChangeMode() == SchemaChangeMode.IGNORE ? null
                : missingTargetOfSchemaChange(event);
        if (missing != null) {
            stop(missing, ctx, out);
            return;
        }
        TargetTable target = targetOfSchemaChange(event);
        SchemaChangeBarrier change = target == null ? null : barrierFor(event, target, sourcePartition(ctx));
        switch (options.schemaChangeMode()) {
            case FAIL -> {
                if (change != null && change.columnsToAdd().isEmpty() && change.columnsToDrop().isEmpty()) {
                    LOG.info("Schema change of table {} at {}: target table {}.{} already has it; going on ({})",
                            event.dataCollection(), event.describePosition(), target.database(), target.table(),
                            event.getRow());
                    return;
                }
                stop(SchemaChangeException.of(event), ctx, out);
            }
            case IGNORE -> {
                LOG.warn("Ignoring a schema change of table {} at {}: {}", event.dataCollection(),
                        event.describePosition(), event.getRow());
                if (target != null && targetColumns != null) {
                    targetColumns.forget(target);
                }
            }
            case APPLY -> {
                if (change == null) {
                    stop(SchemaChangeException.notApplicable(event), ctx, out);
                    return;
                }
                if (change.columnsToAdd().isEmpty() && change.columnsToDrop().isEmpty()) {
                    LOG.info("Schema change of table {} at {}: target table {}.{} already has it ({})",
                            event.dataCollection(), event.describePosition(), target.database(), target.table(),
                            event.getRow());
                    return;
                }
                sendBarrier(change, target, out);
            }
            default -> throw new IllegalStateException("unknown mode " + options.schemaChangeMode());
        }
    }

    /**
     * A DDL event of a table whose rows would stop the job as unknown ({@code --unknown-table fail}, the target table
     * does not exist): neither applying nor changing the target by hand can help, so the stop says what a row of the
     * table would ({@link TableRouter#route}), never dead-lettered (the DDL is no row).
     *
     * @return the stop naming the position, the tables and the choices, or {@code null} when the table routes
     */
    private UnknownTableException missingTargetOfSchemaChange(SourceEvent event) {
        if (event.getSourceTable() == null || "?".equals(event.getSourceTable())) {
            return null;
        }
        try {
            router.route(event.getSourceDatabase(), event.getSourceTable());
            return null;
        } catch (UnknownTableException e) {
            return new UnknownTableException(event.describePosition() + ": schema change of table '"
                    + event.dataCollection() + "': " + e.getMessage());
        }
    }

    /** @return the target of a DDL event's table when rows are checked and the event lists the columns, else null */
    private TargetTable targetOfSchemaChange(SourceEvent event) {
        if (targetColumns == null || event.getSchemaColumns() == null || event.getSourceTable() == null
                || "?".equals(event.getSourceTable())) {
            return null;
        }
        try {
            return router.route(event.getSourceDatabase(), event.getSourceTable());
        } catch (UnknownTableException e) {
            return null;
        }
    }

    /**
     * @return the columns {@code target} must gain and lose to match the table after {@code event}; {@code null} if
     *     the target's columns cannot be read (the target table does not exist, say)
     */
    private SchemaChangeBarrier barrierFor(SourceEvent event, TargetTable target, int partition) {
        targetColumns.forget(target); // the DDL may have been applied to the target by hand meanwhile
        Map<String, TargetColumn> columns = targetColumns.of(target);
        if (columns == null) {
            return null;
        }
        Set<String> known = columns.keySet();
        List<String> add = new ArrayList<>();
        for (String line : event.getSchemaColumns().split("\n")) {
            String[] column = line.split("\t", 2);
            if (!column[0].isEmpty() && !known.contains(column[0].toLowerCase(Locale.ROOT))) {
                add.add(column[0] + " " + ColumnTypes.starRocksType(column.length > 1 ? column[1] : ""));
            }
        }
        List<String> drop = new ArrayList<>();
        if (event.getDroppedColumns() != null) {
            for (String column : event.getDroppedColumns().split("\n")) {
                if (!column.isEmpty() && known.contains(column.toLowerCase(Locale.ROOT))) {
                    drop.add(column);
                }
            }
        }
        return new SchemaChangeBarrier(target, add, drop, event.describePosition() + ": " + event.getRow(),
                partition);
    }

    /** Sends {@code barrier} ahead of what follows and counts its columns as the target's. */
    private void sendBarrier(SchemaChangeBarrier barrier, TargetTable target, Collector<SinkInput> out) {
        LOG.info("Schema change of target table {}.{}: add {}, drop {} ({})", target.database(), target.table(),
                barrier.columnsToAdd(), barrier.columnsToDrop(), barrier.getCause());
        out.collect(barrier);
        targetColumns.added(target, barrier.columnsToAdd());
        targetColumns.dropped(target, barrier.columnsToDrop());
    }

    /**
     * Checks {@code rows} of {@code event} against {@code target}'s columns (nothing to do without a reader).
     *
     * @return the rows to load: as they were, or without the columns the target lacks ({@code ignore})
     * @throws SchemaChangeException with {@link SchemaChangeMode#FAIL}, naming the position, the tables and the
     *     columns; nothing has changed then
     */
    private List<LoadRow> checkedColumns(SourceEvent event, TargetTable target,
            List<LoadRow> rows, Context ctx, Collector<SinkInput> out) {
        if (targetColumns == null) {
            return rows;
        }
        Map<String, TargetColumn> columns = targetColumns.of(target);
        if (columns == null) {
            return missingTarget(event, target);
        }
        Set<String> known = columns.keySet();
        Map<String, String> unknown = new LinkedHashMap<>(); // column -> a row that has it
        for (LoadRow row : rows) {
            for (String column : RowColumns.unknown(row.getRow(), known)) {
                unknown.putIfAbsent(column, row.getRow());
            }
        }
        if (unknown.isEmpty()) {
            return ValueCheck.checked(event, target, rows, columns);
        }
        switch (options.schemaChangeMode()) {
            case FAIL -> throw SchemaChangeException.unknownColumns(event, target, unknown.keySet());
            case IGNORE -> {
                for (String column : unknown.keySet()) {
                    if (warnedLeftOutColumns.add(target.database() + "." + target.table() + "." + column)) {
                        LOG.warn("Target table {}.{} has no column '{}' (source table {}, first at {}); loading "
                                + "without it (--schema-changes ignore)", target.database(), target.table(), column,
                                event.dataCollection(), event.describePosition());
                    }
                }
                for (LoadRow row : rows) {
                    row.setRow(RowColumns.without(row.getRow(), unknown.keySet()));
                }
            }
            case APPLY -> {
                List<String> add = new ArrayList<>();
                unknown.forEach((column, row) -> add.add(column + " "
                        + ColumnTypes.inferred(RowColumns.value(row, column))));
                sendBarrier(new SchemaChangeBarrier(target, add, List.of(), event.describePosition()
                        + ": row of source table " + event.dataCollection() + " with new column(s) "
                        + unknown.keySet(), sourcePartition(ctx)), target, out);
            }
            default -> throw new IllegalStateException("unknown mode " + options.schemaChangeMode());
        }
        return ValueCheck.checked(event, target, rows, targetColumns.of(target));
    }

    /**
     * The target table's columns say it does not exist (dropped after the start, say): its rows follow
     * {@code --unknown-table}, never loaded unchecked.
     *
     * @return no rows ({@code skip}, with one INFO line per table and subtask)
     * @throws UnknownTableException with {@code fail}
     */
    private List<LoadRow> missingTarget(SourceEvent event, TargetTable target) {
        String reason = "target table '" + target + "' of source table '" + event.dataCollection()
                + "' does not exist";
        if (router.unknownTableMode() != UnknownTableMode.SKIP) {
            throw new UnknownTableException(event.describePosition() + ": " + reason
                    + "; create it, or skip unknown tables (--unknown-table skip)");
        }
        skippedRows.inc();
        if (warnedSkippedTables.add(event.dataCollection())) {
            LOG.info("Skipping rows of source table {} ({}), first at {}", event.dataCollection(), reason,
                    event.describePosition());
        }
        return List.of();
    }

    private static String reasonOf(SourceEvent undecodable) {
        String text = undecodable.getRow() == null ? "undecodable" : undecodable.getRow();
        String position = undecodable.describePosition() + ": ";
        return text.startsWith(position) ? text.substring(position.length()) : text;
    }

    /**
     * Handles one event of this partition. Throw {@link BadSourceEventException} (through
     * {@link #badInput}) before changing any state, so that skipping the event leaves the state as if
     * it had not arrived.
     */
    protected abstract void handle(SourceEvent event, Context ctx, Collector<SinkInput> out)
            throws Exception;

    /** @return the source partition of the current key ({@link SourcePartitionKey#partitionOf}) */
    protected static int sourcePartition(Context ctx) {
        return SourcePartitionKey.partitionOf(ctx.getCurrentKey());
    }

    /** @return the open transaction of the current partition, or {@code null} */
    protected final OpenTransaction current() throws Exception {
        return openTransaction.value();
    }

    /** @return a bad-input error naming the event's position */
    protected static BadSourceEventException badInput(SourceEvent event, String reason) {
        return new BadSourceEventException(event.describePosition(), reason);
    }

    /** Opens a transaction at {@code first} and arms its time bound. */
    protected final OpenTransaction begin(SourceEvent first, Context ctx) throws Exception {
        long nowMs = ctx.timerService().currentProcessingTime();
        OpenTransaction t = OpenTransaction.openedBy(first, nowMs);
        armTimer(t, nowMs, ctx);
        openTransaction.update(t);
        return t;
    }

    /**
     * Counts a row event into the transaction and buffers its sink rows (none when its table is
     * skipped), enforcing the size bounds first.
     *
     * @throws TransactionAssemblyException on a bound exceeded with {@link BoundMode#FAIL}, or a second
     *     target database
     */
    protected final void add(OpenTransaction t, SourceEvent event, Context ctx,
            Collector<SinkInput> out) throws Exception {
        TargetTable target = route(event);
        List<LoadRow> rows = target == null ? List.of() : sinkRows(event, target, sourcePartition(ctx));
        long sizeBytes = sizeBytes(rows);
        if (options.deadLetter() != null && sizeBytes > options.maxSizeBytes()) {
            throw new RowTooLargeException(event.describePosition(), "a row of table " + event.dataCollection()
                    + " is " + sizeBytes + " bytes, over the size limit of " + options.maxSizeBytes()
                    + " bytes (--max-transaction-bytes)");
        }
        if (target != null) {
            rows = checkedColumns(event, target, rows, ctx, out);
            sizeBytes = sizeBytes(rows);
        }
        t.countReceived(event);
        if (target != null && !rows.isEmpty()) {
            if (t.getTargetDatabase() == null) {
                t.setTargetDatabase(target.database());
            } else if (!t.getTargetDatabase().equals(target.database())) {
                throw new TransactionAssemblyException(t.describe() + " on source partition " + sourcePartition(ctx)
                        + " (started at " + t.getStartPosition() + ") loads into two target databases, '"
                        + t.getTargetDatabase() + "' and '" + target.database() + "' (table " + event.dataCollection()
                        + " at " + event.describePosition() + "); one transaction must load into one database");
            }
            if (t.getBufferedRows() + rows.size() > options.maxRows()
                    || t.getBufferedSizeBytes() + sizeBytes > options.maxSizeBytes()) {
                String bound = "exceeds the size bound (" + options.maxRows() + " rows, " + options.maxSizeBytes()
                        + " bytes) with " + (t.getBufferedRows() + rows.size()) + " rows, "
                        + (t.getBufferedSizeBytes() + sizeBytes) + " bytes at " + event.describePosition();
                boundExceeded(t, bound, ctx, out);
            }
            bufferedRows.addAll(rows);
            t.setLastOffset(event.getOffset());
            t.setBufferedRows(t.getBufferedRows() + rows.size());
            t.setBufferedSizeBytes(t.getBufferedSizeBytes() + sizeBytes);
        }
        openTransaction.update(t);
    }

    /**
     * Emits the buffered rows, the last with {@code transactionEnd}, and clears the partition's state.
     *
     * @param last the event that closes the transaction (its offset becomes the rows' source position)
     */
    protected final void commit(OpenTransaction t, SourceEvent last, Context ctx,
            Collector<SinkInput> out) throws Exception {
        emitBuffered(out, last.getTopic(), last.getOffset());
        discard(t, ctx);
        sourceTransactions.inc();
    }

    /** Drops the open transaction and its buffered rows, and cancels its timer. */
    protected final void discard(OpenTransaction t, Context ctx) {
        if (t.getTimerAtMs() >= 0) {
            ctx.timerService().deleteProcessingTimeTimer(t.getTimerAtMs());
        }
        openTransaction.clear();
        bufferedRows.clear();
        if (transactionEvents != null) {
            transactionEvents.clear();
        }
    }

    /** Emits one row event as a transaction of its own (snapshot rows, rows without a transaction). */
    protected final void emitStandalone(SourceEvent event, Context ctx, Collector<SinkInput> out) {
        TargetTable target = route(event);
        if (target == null) {
            return;
        }
        List<LoadRow> rows = checkedColumns(event, target,
                sinkRows(event, target, sourcePartition(ctx)), ctx, out);
        if (rows.isEmpty()) {
            return;
        }
        rows.get(rows.size() - 1).setTransactionEnd(true);
        for (LoadRow row : rows) {
            row.setSource(event.getTopic());
            row.setSourcePosition(event.getOffset());
            out.collect(row);
        }
        sourceTransactions.inc();
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SinkInput> out) throws Exception {
        OpenTransaction t = openTransaction.value();
        if (stopped || t == null || t.getTimerAtMs() != timestamp) {
            return;
        }
        if (t.getDeadLetterReason() != null) {
            t.setDeadLetterReason(t.getDeadLetterReason() + "; the transaction was still open at the time bound of "
                    + options.maxOpenMs() + " ms");
            writeDeadLetter(t, ctx);
            return;
        }
        long openMs = timestamp - t.getOpenedAtMs();
        t.setTimerAtMs(-1);
        try {
            boundExceeded(t, "has been open for " + openMs + " ms, beyond the time bound of " + options.maxOpenMs()
                    + " ms", ctx, out);
        } catch (TransactionAssemblyException e) {
            stop(e, ctx, out);
            return;
        }
        armTimer(t, timestamp, ctx);
        openTransaction.update(t);
    }

    private void boundExceeded(OpenTransaction t, String bound, Context ctx, Collector<SinkInput> out)
            throws Exception {
        String what = t.describe() + " on source partition " + sourcePartition(ctx) + " (started at "
                + t.getStartPosition() + ", " + t.getBufferedRows() + " rows buffered, "
                + t.getEmittedRows() + " emitted earlier) " + bound;
        if (options.boundMode() == BoundMode.FAIL) {
            throw new TransactionAssemblyException(what + "; raise the bound or allow emitting it in parts");
        }
        LOG.warn("{}; emitting the buffered rows as their own transaction", what);
        long emitted = emitBuffered(out, t.getTopic(), t.getLastOffset());
        t.setEmittedRows(t.getEmittedRows() + emitted);
        t.setBufferedRows(0);
        t.setBufferedSizeBytes(0);
        bufferedRows.clear();
    }

    /** Emits the buffered rows with {@code source} and {@code position}, the last one ending the transaction. */
    private long emitBuffered(Collector<SinkInput> out, String source, long position)
            throws Exception {
        List<LoadRow> rows = new ArrayList<>();
        for (LoadRow row : bufferedRows.get()) {
            rows.add(row);
        }
        for (int i = 0; i < rows.size(); i++) {
            LoadRow row = rows.get(i);
            LoadRow copy = new LoadRow(null, row.getDatabase(), row.getTable(),
                    row.getRow());
            copy.setSourcePartition(row.getSourcePartition());
            copy.setSource(source);
            copy.setSourcePosition(position);
            copy.setTransactionEnd(i == rows.size() - 1);
            out.collect(copy);
        }
        return rows.size();
    }

    private void armTimer(OpenTransaction t, long nowMs, Context ctx) {
        long at = nowMs + options.maxOpenMs();
        ctx.timerService().registerProcessingTimeTimer(at);
        t.setTimerAtMs(at);
    }

    private TargetTable route(SourceEvent event) {
        TargetTable target;
        try {
            target = router.route(event.getSourceDatabase(), event.getSourceTable());
        } catch (UnknownTableException e) {
            throw new UnknownTableException(event.describePosition() + ": " + e.getMessage());
        }
        if (target == null) {
            skippedRows.inc();
            if (warnedSkippedTables.add(event.dataCollection())) {
                LOG.info("Skipping rows of source table {} ({}), first at {}", event.dataCollection(),
                        router.unknownReason(event.getSourceDatabase(), event.getSourceTable()),
                        event.describePosition());
            }
        }
        return target;
    }

    private static List<LoadRow> sinkRows(SourceEvent event, TargetTable target, int partition) {
        List<LoadRow> rows = new ArrayList<>(2);
        if (event.getPreviousKeyDeleteRow() != null) {
            rows.add(sinkRow(target, event.getPreviousKeyDeleteRow(), partition));
        }
        rows.add(sinkRow(target, event.getRow(), partition));
        return rows;
    }

    private static LoadRow sinkRow(TargetTable target, String row, int partition) {
        LoadRow data = new LoadRow(null, target.database(), target.table(), row);
        data.setSourcePartition(partition);
        return data;
    }

    private static long sizeBytes(List<LoadRow> rows) {
        long bytes = 0;
        for (LoadRow row : rows) {
            bytes += row.getRow().getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes;
    }
}
