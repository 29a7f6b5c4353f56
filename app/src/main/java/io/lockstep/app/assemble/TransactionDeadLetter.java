package io.lockstep.app.assemble;

import io.lockstep.app.deadletter.DeadLetter;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.deadletter.DeadLetterWriter;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.TimerService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead letter of an assembler ({@link AssemblerOptions#deadLetter()}, docs/dead-letter.md): keeps the raw events
 * of the open transaction in keyed state ({@code dead-letter-events}, {@link SourceRecord}); an unusable event marks
 * the transaction it arrived in ({@link OpenTransaction#getDeadLetterReason()}), which then buffers no rows and
 * collects its remaining events until its END (or commit row, or the next transaction's start, or the time bound),
 * and goes to the dead letter whole. An unusable event outside any transaction goes alone. Each letter is written
 * durably before the next event is handled, so nothing after it can commit while it could still be lost.
 *
 * <p>Owned by a {@link TransactionAssembler} (created in its {@code open}, only with a dead letter) and used on its
 * task thread only, with the keyed state scoped to the key being processed; not thread safe. Logs under the
 * assembler's logger.
 */
final class TransactionDeadLetter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final DeadLetterTarget target;
    private final TransactionBuffer buffer;
    private final ListState<SourceRecord> transactionEvents;
    private final DeadLetterWriter writer;
    private final Counter deadLettered;

    /**
     * Opens the dead letter's writer.
     *
     * @param context the assembler's runtime context (keyed state)
     * @param target where letters go
     * @param buffer the assembler's open transaction and buffered rows
     * @param deadLettered counts the letters written
     */
    TransactionDeadLetter(RuntimeContext context, DeadLetterTarget target, TransactionBuffer buffer,
            Counter deadLettered) {
        this.target = Objects.requireNonNull(target, "target");
        this.buffer = Objects.requireNonNull(buffer, "buffer");
        this.deadLettered = Objects.requireNonNull(deadLettered, "deadLettered");
        transactionEvents = context.getListState(new ListStateDescriptor<>("dead-letter-events",
                TypeInformation.of(SourceRecord.class)));
        writer = target.open();
    }

    /** Keeps {@code event} (just handled) while it belongs to a transaction still open. */
    void keep(SourceEvent event) throws Exception {
        if (!event.isStandalone() && event.getKind() != SourceEventKind.SCHEMA_CHANGE && buffer.current() != null) {
            transactionEvents.add(event.rawRecord());
        }
    }

    /**
     * An unusable event ({@code reason} names its position and the problem): the open transaction, if any, goes to
     * the dead letter whole (now, when the event closes it; else once it closes); without one the event goes alone.
     */
    void deadLetter(SourceEvent event, String reason, TimerService timers) throws Exception {
        OpenTransaction t = buffer.current();
        if (t == null || event.isStandalone()) {
            write(new DeadLetter(reason, event.getTransactionId(), List.of(event.rawRecord())));
            return;
        }
        if (t.getDeadLetterReason() == null) {
            t.setDeadLetterReason(reason);
            buffer.dropRows(t);
        }
        transactionEvents.add(event.rawRecord());
        buffer.update(t);
        if (closes(t, event)) {
            writeMarked(t, timers);
        }
    }

    /**
     * Handles {@code event} if it belongs to an open transaction that goes to the dead letter.
     *
     * @return {@code true} when the event was taken; {@code false} to handle it as usual (no such transaction, or
     *     the event starts another transaction, after the marked one was written without its END)
     */
    boolean continuesMarkedTransaction(SourceEvent event, TimerService timers) throws Exception {
        OpenTransaction t = buffer.current();
        if (t == null || t.getDeadLetterReason() == null || event.isStandalone()
                || event.getKind() == SourceEventKind.SCHEMA_CHANGE) {
            return false;
        }
        boolean same = event.getTransactionKey() != null && event.getTransactionKey().equals(t.getTransactionKey());
        if (event.getKind() == SourceEventKind.BEGIN && same) {
            discard(t, timers); // the source sends the transaction again from its start
            return false;
        }
        if (event.getKind() == SourceEventKind.BEGIN || (event.getKind() == SourceEventKind.ROW && !same
                && event.getTransactionKey() != null)) {
            writeMarked(t, timers); // its end never came
            return false;
        }
        transactionEvents.add(event.rawRecord());
        if (closes(t, event)) {
            writeMarked(t, timers);
        }
        return true;
    }

    /** The marked transaction {@code t} reached the time bound of {@code maxOpenMs}: it goes as collected so far. */
    void timeBoundReached(OpenTransaction t, long maxOpenMs, TimerService timers) throws Exception {
        t.setDeadLetterReason(t.getDeadLetterReason() + "; the transaction was still open at the time bound of "
                + maxOpenMs + " ms");
        writeMarked(t, timers);
    }

    /** Drops the kept events of the current partition's transaction (it was emitted or discarded). */
    void clear() {
        transactionEvents.clear();
    }

    @Override
    public void close() {
        writer.close();
    }

    private static boolean closes(OpenTransaction t, SourceEvent event) {
        return Objects.equals(event.getTransactionKey(), t.getTransactionKey())
                && (event.getKind() == SourceEventKind.END || event.isCommit());
    }

    /** Writes the marked transaction's events to the dead letter and drops its state. */
    private void writeMarked(OpenTransaction t, TimerService timers) throws Exception {
        List<SourceRecord> events = new ArrayList<>();
        for (SourceRecord event : transactionEvents.get()) {
            events.add(event);
        }
        write(new DeadLetter(t.getDeadLetterReason(), t.getTransactionId(), events));
        discard(t, timers);
    }

    private void discard(OpenTransaction t, TimerService timers) {
        buffer.discard(t, timers);
        transactionEvents.clear();
    }

    private void write(DeadLetter letter) throws IOException {
        writer.write(letter);
        deadLettered.inc();
        LOG.warn("Dead-lettered {} to {}: {}", letter.describe(), target, letter.reason());
    }
}
