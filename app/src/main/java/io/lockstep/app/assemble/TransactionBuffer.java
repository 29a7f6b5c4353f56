package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TargetTable;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open source transaction of the current source partition and the sink rows buffered for it, in keyed state
 * ({@code open-transaction}, an {@link OpenTransaction}; {@code buffered-rows}, {@link LoadRow}),
 * and its bounds: {@link AssemblerOptions#maxRows()} rows and {@link AssemblerOptions#maxSizeBytes()} bytes
 * buffered, and a processing-time timer {@link AssemblerOptions#maxOpenMs()} after the transaction opened. Beyond a
 * bound the transaction fails ({@link BoundMode#FAIL}: {@link TransactionAssemblyException} naming it) or the
 * buffered rows are emitted as their own transaction with one WARN ({@link BoundMode#EMIT}); rows are never dropped
 * silently. A transaction routed to two target databases fails (one StarRocks transaction spans one database).
 *
 * <p>Owned by a {@link TransactionAssembler} (created in its {@code open}) and used on its task thread only, with the
 * keyed state scoped to the key being processed; not thread safe. Logs under the assembler's logger.
 */
final class TransactionBuffer {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final AssemblerOptions options;
    private final ValueState<OpenTransaction> openTransaction;
    private final ListState<LoadRow> bufferedRows;

    /**
     * @param context the assembler's runtime context (keyed state)
     * @param options the bounds
     */
    TransactionBuffer(RuntimeContext context, AssemblerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        openTransaction = context.getState(
                new ValueStateDescriptor<>("open-transaction", TypeInformation.of(OpenTransaction.class)));
        bufferedRows = context.getListState(
                new ListStateDescriptor<>("buffered-rows", TypeInformation.of(LoadRow.class)));
    }

    /** @return the open transaction of the current partition, or {@code null} */
    OpenTransaction current() throws Exception {
        return openTransaction.value();
    }

    /** Stores {@code t} as the current partition's open transaction. */
    void update(OpenTransaction t) throws Exception {
        openTransaction.update(t);
    }

    /** Opens a transaction at {@code first} and arms its time bound. */
    OpenTransaction begin(SourceEvent first, TimerService timers) throws Exception {
        long nowMs = timers.currentProcessingTime();
        OpenTransaction t = OpenTransaction.openedBy(first, nowMs);
        armTimer(t, nowMs, timers);
        openTransaction.update(t);
        return t;
    }

    /**
     * Counts {@code event} into {@code t} and buffers its sink rows, enforcing the size bounds first.
     *
     * @param target the event's target table, or {@code null} when its table is skipped (counted, nothing buffered)
     * @param rows the event's sink rows, checked already
     * @param sizeBytes the rows' size in bytes
     * @param partition the source partition, for messages
     * @param out where a part is emitted at a bound with {@link BoundMode#EMIT}
     * @throws TransactionAssemblyException on a bound exceeded with {@link BoundMode#FAIL}, or a second target
     *     database
     */
    void add(OpenTransaction t, SourceEvent event, TargetTable target, List<LoadRow> rows,
            long sizeBytes, int partition, Collector<SinkInput> out) throws Exception {
        t.countReceived(event);
        if (target != null && !rows.isEmpty()) {
            if (t.getTargetDatabase() == null) {
                t.setTargetDatabase(target.database());
            } else if (!t.getTargetDatabase().equals(target.database())) {
                throw new TransactionAssemblyException(t.describe() + " on source partition " + partition
                        + " (started at " + t.getStartPosition() + ") loads into two target databases, '"
                        + t.getTargetDatabase() + "' and '" + target.database() + "' (table " + event.dataCollection()
                        + " at " + event.describePosition() + "); one transaction must load into one database");
            }
            if (t.getBufferedRows() + rows.size() > options.maxRows()
                    || t.getBufferedSizeBytes() + sizeBytes > options.maxSizeBytes()) {
                String bound = "exceeds the size bound (" + options.maxRows() + " rows, " + options.maxSizeBytes()
                        + " bytes) with " + (t.getBufferedRows() + rows.size()) + " rows, "
                        + (t.getBufferedSizeBytes() + sizeBytes) + " bytes at " + event.describePosition();
                boundExceeded(t, bound, partition, out);
            }
            bufferedRows.addAll(rows);
            t.setLastOffset(event.getOffset());
            t.setBufferedRows(t.getBufferedRows() + rows.size());
            t.setBufferedSizeBytes(t.getBufferedSizeBytes() + sizeBytes);
        }
        openTransaction.update(t);
    }

    /**
     * Emits the buffered rows with {@code source} and {@code position}, the last one ending the transaction.
     *
     * @return the number of rows emitted
     */
    long emit(Collector<SinkInput> out, String source, long position) throws Exception {
        return emit(out, source, position, null, null);
    }

    /**
     * As {@link #emit(Collector, String, long)}, the last row also carrying the source commit position
     * ({@code commitSource}, {@code commitPosition}; {@code null} for none).
     */
    long emit(Collector<SinkInput> out, String source, long position, String commitSource, String commitPosition)
            throws Exception {
        return emit(out, source, position, commitSource, commitPosition, null);
    }

    /**
     * As {@link #emit(Collector, String, long, String, String)}, the last row also carrying {@code covered} (a
     * rebuilt transaction's covered positions, keyed {@code topic/partition}; {@code null} for none).
     */
    long emit(Collector<SinkInput> out, String source, long position, String commitSource, String commitPosition,
            Map<String, Long> covered) throws Exception {
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
            if (i == rows.size() - 1) {
                copy.setCommitSource(commitSource);
                copy.setCommitPosition(commitPosition);
                copy.setCoveredPositions(covered);
            }
            out.collect(copy);
        }
        return rows.size();
    }

    /** Drops the buffered rows of {@code t} (it goes to the dead letter instead); the caller stores {@code t}. */
    void dropRows(OpenTransaction t) {
        bufferedRows.clear();
        t.setBufferedRows(0);
        t.setBufferedSizeBytes(0);
    }

    /** Drops the open transaction and its buffered rows, and cancels its timer. */
    void discard(OpenTransaction t, TimerService timers) {
        if (t.getTimerAtMs() >= 0) {
            timers.deleteProcessingTimeTimer(t.getTimerAtMs());
        }
        openTransaction.clear();
        bufferedRows.clear();
    }

    /**
     * The time bound of {@code t} fired at {@code timestamp}: it fails, or its buffered rows are emitted and the
     * bound armed again.
     *
     * @throws TransactionAssemblyException with {@link BoundMode#FAIL}, naming the transaction
     */
    void timeBoundReached(OpenTransaction t, long timestamp, int partition, TimerService timers,
            Collector<SinkInput> out) throws Exception {
        long openMs = timestamp - t.getOpenedAtMs();
        t.setTimerAtMs(-1);
        boundExceeded(t, "has been open for " + openMs + " ms, beyond the time bound of " + options.maxOpenMs()
                + " ms", partition, out);
        armTimer(t, timestamp, timers);
        openTransaction.update(t);
    }

    private void boundExceeded(OpenTransaction t, String bound, int partition, Collector<SinkInput> out)
            throws Exception {
        String what = t.describe() + " on source partition " + partition + " (started at "
                + t.getStartPosition() + ", " + t.getBufferedRows() + " rows buffered, "
                + t.getEmittedRows() + " emitted earlier) " + bound;
        if (options.boundMode() == BoundMode.FAIL) {
            throw new TransactionAssemblyException(what + "; raise the bound or allow emitting it in parts");
        }
        LOG.warn("{}; emitting the buffered rows as their own transaction", what);
        long emitted = emit(out, t.getTopic(), t.getLastOffset());
        t.setEmittedRows(t.getEmittedRows() + emitted);
        t.setBufferedRows(0);
        t.setBufferedSizeBytes(0);
        bufferedRows.clear();
    }

    private void armTimer(OpenTransaction t, long nowMs, TimerService timers) {
        long at = nowMs + options.maxOpenMs();
        timers.registerProcessingTimeTimer(at);
        t.setTimerAtMs(at);
    }
}
