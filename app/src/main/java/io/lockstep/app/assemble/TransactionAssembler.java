package io.lockstep.app.assemble;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.app.schema.TargetColumns;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.TimeDomain;
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
 * the exactly-once multi-table sink relies on (docs/exactly-once.md); a unit released by the cross-topic rebuild is
 * stamped as {@link RebuiltUnit} says. Subclasses decide, per format,
 * where a transaction starts and ends; this class (through the collaborators below) owns the buffer, the bounds
 * and the errors.
 *
 * <p>State (keyed by partition through {@link SourcePartitionKey}, on the task thread only): the
 * {@link OpenTransaction} and the rows buffered for it, both cleared when the transaction is emitted. The
 * buffer is bounded by {@link AssemblerOptions#maxRows()} and {@link AssemblerOptions#maxSizeBytes()}, and a
 * processing-time timer bounds how long a transaction stays open ({@link AssemblerOptions#maxOpenMs()}); beyond a
 * bound the job fails naming the transaction, or ({@link BoundMode#EMIT}) the buffered rows are emitted as
 * their own transaction. Rows are never dropped silently.
 *
 * <p>This class dispatches each event and maps each error to its outcome (stop, dead letter, skip); each concern
 * lives in a collaborator it creates in {@link #open} and calls on its task thread only: the open transaction, its
 * buffered rows and bounds ({@link TransactionBuffer}), routing and sink rows ({@link SourceTableRouting}), the
 * column and value checks ({@link TargetColumnCheck}), DDL events and barriers ({@link SchemaChanges}), the dead
 * letter ({@link TransactionDeadLetter}), and the source commit positions that drop re-sent transactions and put
 * {@code commitSource}/{@code commitPosition} on each end row ({@link CommittedSourcePositions}, docs/input-formats.md).
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
 *
 * <p>End of input: each partition has an event-time timer at {@link Long#MAX_VALUE}, registered when the subtask
 * first sees the partition (kept in checkpoints with the other timers, never deleted). It fires only when the
 * watermark reaches {@link Long#MAX_VALUE}, which Flink's source task emits when a bounded input ends (a file,
 * Kafka {@code --bounded}; {@code StreamTask#endData} calls {@code advanceToEndOfEventTime} on a drained end,
 * whatever the watermark strategy) or a job is stopped with {@code --drain}. A transaction still open then has no
 * END in the input: with a file it can never load, and the job stops in one line naming it (docs/bad-input.md);
 * with Kafka ({@link AssemblerOptions#inputResumes()}) one WARN names it, and the next run loads it once its END
 * arrives (its rows are neither emitted nor dropped: the open transaction stays in state and the committed source
 * position stays before it).
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
    /** Name of the counter of dead letters written (a transaction, or an event outside any, counts once). */
    public static final String DEAD_LETTERS_METRIC = "lockstepDeadLetters";
    /** Name of the counter of row events skipped because their table is unknown ({@code --unknown-table skip}). */
    public static final String SKIPPED_ROWS_METRIC = "lockstepSkippedRows";

    /** Time of the event-time timer that fires at the end of a bounded input (the final watermark). */
    private static final long END_OF_INPUT = Long.MAX_VALUE;

    private final TableRouter router;
    private final AssemblerOptions options;
    /** Reads the target tables' columns, or {@code null}: rows are not checked. Set before the job runs. */
    private ColumnReader columnReader;

    /** Task thread only: the open transaction and its buffered rows (keyed state). */
    private transient TransactionBuffer buffer;
    /** Task thread only. */
    private transient SourceTableRouting routing;
    /** Task thread only. */
    private transient SchemaChanges schemaChanges;
    /** Task thread only. */
    private transient TargetColumnCheck columnCheck;
    /** Task thread only: committed source commit positions (keyed state) and the re-send decisions. */
    private transient CommittedSourcePositions positions;
    /** Task thread only: creates missing target tables ({@code --create-tables}), or {@code null}. */
    private transient TableCreationCheck tableCreation;
    /** Task thread only: the dead letter, or {@code null} without one. */
    private transient TransactionDeadLetter deadLetter;
    /** Task thread only (Flink counters are read by reporters without synchronization). */
    private transient Counter sourceTransactions;
    /** Task thread only: set once bad input stopped this subtask ({@link InputStop}); the job then fails. */
    private transient boolean stopped;
    /**
     * Task thread only: the source partitions whose end-of-input timer this subtask registered since it opened (the
     * partition, not the key: each key is one partition, and a checkpoint keyed otherwise must reach the key
     * serializer's refusal rather than fail on a key cast here).
     */
    private transient Set<Integer> endOfInputArmed;

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
        TargetColumns targetColumns = columnReader == null ? null : new TargetColumns(columnReader);
        buffer = new TransactionBuffer(getRuntimeContext(), options);
        positions = new CommittedSourcePositions(getRuntimeContext(), options);
        endOfInputArmed = new HashSet<>();
        sourceTransactions = getRuntimeContext().getMetricGroup().counter(SOURCE_TRANSACTIONS_METRIC);
        Counter deadLettered = getRuntimeContext().getMetricGroup().counter(DEAD_LETTERS_METRIC);
        routing = new SourceTableRouting(router, getRuntimeContext().getMetricGroup().counter(SKIPPED_ROWS_METRIC));
        tableCreation = options.tableCreation() == null || targetColumns == null ? null
                : new TableCreationCheck(options.tableCreation(), targetColumns);
        schemaChanges = new SchemaChanges(router, options, targetColumns, tableCreation);
        columnCheck = new TargetColumnCheck(options, targetColumns, routing, schemaChanges, tableCreation);
        if (options.deadLetter() != null) {
            deadLetter = new TransactionDeadLetter(getRuntimeContext(), options.deadLetter(), buffer, deadLettered);
        }
    }

    @Override
    public void close() throws Exception {
        if (deadLetter != null) {
            deadLetter.close();
            deadLetter = null;
        }
        super.close();
    }

    @Override
    public final void processElement(SourceEvent event, Context ctx, Collector<SinkInput> out)
            throws Exception {
        if (stopped) {
            return; // the job is failing: what follows is read again after the fix
        }
        if (endOfInputArmed.add(event.getPartition())) { // also covers a transaction restored from a checkpoint
            ctx.timerService().registerEventTimeTimer(END_OF_INPUT); // a no-op when restored already
        }
        try {
            if (deadLetter != null && deadLetter.continuesMarkedTransaction(event, ctx.timerService())) {
                return;
            }
            if (event.getKind() == SourceEventKind.UNDECODABLE) {
                throw new BadSourceEventException(event.describePosition(), reasonOf(event));
            }
            if (event.getKind() == SourceEventKind.SCHEMA_CHANGE) {
                RuntimeException failure = schemaChanges.onSchemaChange(event, sourcePartition(ctx), out);
                if (failure != null) {
                    stop(failure, ctx, out);
                }
                return;
            }
            handle(event, ctx, out);
            if (deadLetter != null) {
                deadLetter.keep(event);
            }
        } catch (SchemaChangeException e) {
            stop(e, ctx, out); // never skipped nor dead-lettered as bad input: --schema-changes decides
        } catch (BadValueException e) {
            if (deadLetter != null) { // whatever --bad-input says: skipping would lose the transaction
                deadLetter.deadLetter(event, e.deadLetterReason(), ctx.timerService());
                return;
            }
            stop(e, ctx, out);
        } catch (BadSourceEventException e) {
            if (deadLetter != null
                    && (options.badInputMode() == BadInputMode.FAIL || e instanceof RowTooLargeException)) {
                deadLetter.deadLetter(event, e.getMessage(), ctx.timerService());
                return;
            }
            if (options.badInputMode() == BadInputMode.FAIL) {
                stop(e, ctx, out);
                return;
            }
            LOG.warn("Skipping bad input: {}", e.getMessage());
        } catch (UnknownTableException e) {
            if (deadLetter != null) {
                deadLetter.deadLetter(event, e.getMessage(), ctx.timerService());
                return;
            }
            stop(e, ctx, out);
        } catch (TransactionAssemblyException e) {
            stop(e, ctx, out);
        }
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
        return buffer.current();
    }

    /** @return the committed source commit positions of the current key */
    protected final CommittedSourcePositions positions() {
        return positions;
    }

    /** @return a bad-input error naming the event's position */
    protected static BadSourceEventException badInput(SourceEvent event, String reason) {
        return new BadSourceEventException(event.describePosition(), reason);
    }

    /** Opens a transaction at {@code first} and arms its time bound. */
    protected final OpenTransaction begin(SourceEvent first, Context ctx) throws Exception {
        return buffer.begin(first, ctx.timerService());
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
        int partition = sourcePartition(ctx);
        TargetTable target = routing.route(event);
        List<LoadRow> rows = target == null ? List.of()
                : SourceTableRouting.sinkRows(event, target, partition);
        long sizeBytes = SourceTableRouting.sizeBytes(rows);
        if (options.deadLetter() != null && sizeBytes > options.maxSizeBytes()) {
            throw new RowTooLargeException(event.describePosition(), "a row of table " + event.dataCollection()
                    + " is " + sizeBytes + " bytes, over the size limit of " + options.maxSizeBytes()
                    + " bytes (--max-transaction-bytes)");
        }
        if (target != null) {
            rows = columnCheck.checked(event, target, rows, partition, out);
            sizeBytes = SourceTableRouting.sizeBytes(rows);
        }
        buffer.add(t, event, target, rows, sizeBytes, partition, out);
    }

    /**
     * Emits the buffered rows, the last with {@code transactionEnd}, and clears the partition's state.
     *
     * @param last the event that closes the transaction (its topic and offset, {@link RebuiltUnit}, become the rows'
     *     source and source position)
     * @param commitSource the end row's {@code commitSource}, or {@code null}; {@code commitPosition} its text
     */
    protected final void commit(OpenTransaction t, SourceEvent last, String commitSource, String commitPosition,
            Context ctx, Collector<SinkInput> out) throws Exception {
        Map<String, Long> covered = RebuiltUnit.coveredOf(last);
        long emitted = buffer.emit(out, RebuiltUnit.sourceOf(last), RebuiltUnit.positionOf(last), commitSource,
                commitPosition, covered);
        if (emitted == 0 && covered != null) {
            out.collect(RebuiltUnit.endOnlyRow(last, sourcePartition(ctx), commitSource, commitPosition, covered));
        }
        discard(t, ctx);
        sourceTransactions.inc();
    }

    /** Drops the open transaction and its buffered rows, and cancels its timer. */
    protected final void discard(OpenTransaction t, Context ctx) {
        buffer.discard(t, ctx.timerService());
        if (deadLetter != null) {
            deadLetter.clear();
        }
    }

    /**
     * Emits one row event as a transaction of its own (snapshot rows, rows without a transaction); a rebuilt one
     * as {@link #commit} stamps a rebuilt unit.
     */
    protected final void emitStandalone(SourceEvent event, Context ctx, Collector<SinkInput> out) {
        TargetTable target = routing.route(event);
        int partition = sourcePartition(ctx);
        List<LoadRow> rows = target == null ? List.of() : columnCheck.checked(event, target,
                SourceTableRouting.sinkRows(event, target, partition), partition, out);
        RebuiltUnit.standalone(event, partition, rows).forEach(out::collect);
        if (!rows.isEmpty()) {
            sourceTransactions.inc();
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SinkInput> out) throws Exception {
        if (ctx.timeDomain() == TimeDomain.EVENT_TIME) {
            endOfInput(ctx, out);
            return;
        }
        OpenTransaction t = buffer.current();
        if (stopped || t == null || t.getTimerAtMs() != timestamp) {
            return;
        }
        if (t.getDeadLetterReason() != null) {
            deadLetter.timeBoundReached(t, options.maxOpenMs(), ctx.timerService());
            return;
        }
        try {
            buffer.timeBoundReached(t, timestamp, sourcePartition(ctx), ctx.timerService(), out);
        } catch (TransactionAssemblyException e) {
            stop(e, ctx, out);
        }
    }

    /**
     * The input ended (the final watermark): a transaction still open has no END in it. A file's stops the job
     * ({@link TransactionAssemblyException} through {@link InputStop}, after what came before is committed); a
     * Kafka one is logged and kept for the next run.
     */
    private void endOfInput(OnTimerContext ctx, Collector<SinkInput> out) throws Exception {
        OpenTransaction t = buffer.current();
        if (stopped || t == null) {
            return;
        }
        String what = t.describe() + " on source partition " + sourcePartition(ctx) + " (started at "
                + t.getStartPosition() + ", " + t.getReceivedEvents() + " events received) has no END at the end "
                + "of the input";
        if (options.inputResumes()) {
            LOG.warn("{}: it was not loaded; the next run loads it once its END arrives", what);
            return;
        }
        stop(new TransactionAssemblyException(what + "; it can never load: complete or remove it and run again"),
                ctx, out);
    }
}
