package io.lockstep.app.rebuild;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.route.UnknownTableMode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds source transactions from Debezium's default topic layout (one topic per table, BEGIN/END on the
 * transaction topic; docs/sources.md#debeziums-default-layout-one-topic-per-table) into one stream in commit order,
 * as the one-topic layout delivers it, for the unchanged {@code DebeziumTransactionAssembler} downstream. Keyed by
 * one constant key ({@link RebuildKey}): all events of the job pass one subtask.
 *
 * <p>Rules (each in its collaborator, all in keyed state, restored from checkpoints):
 * <ol>
 *   <li>data events wait in slots (transaction key, {@code total_order}); a second copy of a slot is dropped and
 *       counted ({@link PendingTransactions});
 *   <li>ENDs queue in transaction-topic order; the head is released when its events of every table read are there:
 *       its BEGIN (the real one, else one made from the END), its data events in total order, the END. Head-of-line:
 *       output order is commit order;
 *   <li>each released unit (END, standalone row) gets {@code rebuiltSource} {@link TopicLayout#rebuiltSource()} and
 *       {@code rebuiltPosition} one above the previous (starting above {@link TopicLayout#committedRebuiltPosition()});
 *   <li>it carries the covered offsets that grew since the previous unit ({@link CoveredOffsets});
 *   <li>standalone rows (snapshot rows, rows without a transaction block) are released at once, or right after the
 *       earlier events of their partition still held;
 *   <li>an END naming a table whose topic ({@link TopicLayout#tableTopicOf}) is not read: with
 *       {@link UnknownTableMode#SKIP} its count is removed (INFO once per table), else the job stops
 *       ({@link UnreadTables});
 *   <li>events of released transactions are dropped and counted; an END at or below the released commit position
 *       is forwarded alone for the assembler to decide ({@link ReleasedPositions});
 *   <li>bounds: bytes held ({@link TopicLayout#maxPendingBytes()}) and the head END's wait (processing time,
 *       {@code maxOpenMs}) stop the job in one line ({@link HeadWaitReport}).
 * </ol>
 * Stops throw {@link TransactionRebuildException}, which Flink never restarts; releases not yet committed by the
 * sink are read again by the next run.
 *
 * <p>End of a bounded input (the final watermark, as the assemblers read it): what is still held is said in one WARN
 * (the head's wait, ENDs queued, bytes held) and stays in state; the next run reads it again from the covered offsets.
 *
 * <p>Metrics: {@value #HELD_BYTES_METRIC} (gauge, bytes of row text held), {@value #RESENT_DROPPED_METRIC} (counter).
 */
public class CrossTopicRebuild extends KeyedProcessFunction<Long, SourceEvent, SourceEvent> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CrossTopicRebuild.class);

    /** Gauge of UTF-8 bytes of row text held for transactions not released yet. */
    public static final String HELD_BYTES_METRIC = "lockstepRebuildHeldBytes";
    /** Counter of events dropped as copies of events held or released already. */
    public static final String RESENT_DROPPED_METRIC = "lockstepRebuildResentEventsDropped";

    /**
     * Time of the event-time timer that fires when a bounded input ends (Kafka {@code --bounded}, a stop with
     * {@code --drain}): the final watermark.
     */
    private static final long END_OF_INPUT = Long.MAX_VALUE;

    private final TopicLayout layout;
    private final long maxOpenMs;
    private final UnknownTableMode unknownTableMode;
    /** Commit source to committed position text: the seed of {@link ReleasedPositions}. */
    private final HashMap<String, String> committedPositions;

    /** Task thread only (keyed state). */
    private transient PendingTransactions pending;
    /** Task thread only (keyed state). */
    private transient CoveredOffsets covered;
    /** Task thread only (keyed state). */
    private transient ReleasedPositions released;
    /** Task thread only (keyed state). */
    private transient ValueState<RebuildProgress> progressState;
    /** Task thread only (keyed state). */
    private transient UnreadTables unreadTables;
    /** Task thread only. */
    private transient Counter resentDropped;
    /** Written by the task thread, read by metric reporters: a copy of {@link RebuildProgress#getHeldBytes()}. */
    private transient volatile long heldBytesGauge;

    /**
     * @param layout the topics and the byte bound
     * @param maxOpenMs how long the head END may wait for its events, in ms of processing time (&gt; 0)
     * @param unknownTableMode what an END naming a table whose topic is not read does
     * @param committedPositions commit source to committed position text ({@code #commit:} rows of source partition
     *     0), the seed of the released position; {@code null} for none
     */
    public CrossTopicRebuild(TopicLayout layout, long maxOpenMs, UnknownTableMode unknownTableMode,
            Map<String, String> committedPositions) {
        this.layout = Objects.requireNonNull(layout, "layout");
        if (maxOpenMs <= 0) {
            throw new IllegalArgumentException("maxOpenMs must be positive, was " + maxOpenMs);
        }
        this.maxOpenMs = maxOpenMs;
        this.unknownTableMode = Objects.requireNonNull(unknownTableMode, "unknownTableMode");
        this.committedPositions = committedPositions == null ? new HashMap<>() : new HashMap<>(committedPositions);
    }

    @Override
    public void open(OpenContext openContext) {
        pending = new PendingTransactions(getRuntimeContext());
        covered = new CoveredOffsets(getRuntimeContext());
        released = new ReleasedPositions(getRuntimeContext());
        progressState = getRuntimeContext().getState(new ValueStateDescriptor<>("rebuild-progress",
                TypeInformation.of(RebuildProgress.class)));
        unreadTables = new UnreadTables(getRuntimeContext(), layout, unknownTableMode);
        resentDropped = getRuntimeContext().getMetricGroup().counter(RESENT_DROPPED_METRIC);
        getRuntimeContext().getMetricGroup().gauge(HELD_BYTES_METRIC, (Gauge<Long>) () -> heldBytesGauge);
    }

    @Override
    public void processElement(SourceEvent event, Context ctx, Collector<SourceEvent> out) throws Exception {
        RebuildProgress progress = progress(ctx);
        if (event.getKind() == SourceEventKind.BEGIN || event.getKind() == SourceEventKind.END) {
            requireOnePartition(event);
        }
        switch (event.getKind()) {
            case BEGIN -> onBegin(event);
            case END -> onEnd(event, progress);
            case ROW -> onRow(event, progress, out);
            default -> { // a schema change: not part of a transaction, passed on in arrival order
                covered.consumed(event, false);
                out.collect(event);
            }
        }
        releaseReady(ctx, out, progress);
        progressState.update(progress);
        heldBytesGauge = progress.getHeldBytes();
    }

    /**
     * The progress; on the first event of a fresh state: numbering after the committed position, the seed, and the
     * end-of-input timer (kept in checkpoints with the state).
     */
    private RebuildProgress progress(Context ctx) throws Exception {
        RebuildProgress progress = progressState.value();
        if (progress == null) {
            progress = new RebuildProgress();
            progress.setLastRebuiltPosition(layout.committedRebuiltPosition());
            released.seed(committedPositions);
            ctx.timerService().registerEventTimeTimer(END_OF_INPUT);
        }
        return progress;
    }

    /**
     * ENDs of several partitions are in no commit order, and an idle partition cannot prove that no earlier commit is
     * still coming: the transaction topic must have one partition.
     */
    private static void requireOnePartition(SourceEvent event) {
        if (event.getPartition() != 0) {
            throw new TransactionRebuildException(event.getKind() + " of transaction '" + event.getTransactionId()
                    + "' at " + event.describePosition() + ": the transaction topic has more than one partition, so "
                    + "its ENDs are in no commit order; recreate it with one partition (" + HeadWaitReport.DOCS + ")");
        }
    }

    private void onBegin(SourceEvent begin) throws Exception {
        if (released.isReleased(begin, null)) {
            dropResent(begin, "its transaction was released already");
            return;
        }
        SourceEvent previous = pending.putBegin(begin);
        covered.consumed(begin, true);
        if (previous != null) { // a connector re-sent the transaction from its BEGIN: the later copy is kept
            covered.release(previous);
        }
    }

    private void onEnd(SourceEvent end, RebuildProgress progress) throws Exception {
        unreadTables.apply(end);
        pending.enqueue(end, progress);
        covered.consumed(end, true);
    }

    private void onRow(SourceEvent row, RebuildProgress progress, Collector<SourceEvent> out) throws Exception {
        if (row.isStandalone()) {
            String partition = CoveredOffsets.partitionOf(row);
            boolean behind = covered.holdsBelow(partition, row.getOffset());
            covered.consumed(row, behind);
            if (behind) {
                pending.holdStandalone(row);
                hold(PendingTransactions.bytesOf(row), progress);
            } else {
                emitStandalone(row, progress, out);
            }
            return;
        }
        if (released.isReleased(row, row.getCommitSource())) {
            dropResent(row, "its transaction was released already");
            return;
        }
        if (row.getTotalOrder() <= 0) {
            throw new TransactionRebuildException("data event of transaction '" + row.getTransactionId() + "' at "
                    + row.describePosition() + " has no transaction.total_order: its place in the transaction is "
                    + "unknown, so it cannot be rebuilt across topics (" + HeadWaitReport.DOCS + ")");
        }
        if (pending.filled(row)) {
            dropResent(row, "a copy of event " + row.getTotalOrder() + " of its transaction is held already");
            return;
        }
        long bytes = pending.fill(row);
        covered.consumed(row, true);
        hold(bytes, progress);
    }

    /** Counts bytes held; over the bound the job stops naming what the head transaction waits for. */
    private void hold(long bytes, RebuildProgress progress) throws Exception {
        progress.setHeldBytes(progress.getHeldBytes() + bytes);
        if (progress.getHeldBytes() > layout.maxPendingBytes()) {
            SourceEvent head = pending.head(progress);
            throw new TransactionRebuildException("the cross-topic rebuild holds " + progress.getHeldBytes()
                    + " bytes of row text, over --max-pending-bytes " + layout.maxPendingBytes() + ": "
                    + HeadWaitReport.describe(head, head == null ? null : pending.slotsOf(head.getTransactionKey()),
                            layout, covered)
                    + ". A topic lags far behind the others, or events of a transaction never arrive: check those "
                    + "topic partitions, or raise --max-pending-bytes (" + HeadWaitReport.DOCS + ")");
        }
    }

    private void dropResent(SourceEvent event, String why) throws Exception {
        covered.consumed(event, false);
        resentDropped.inc();
        LOG.debug("Dropping {}: {}", event, why);
    }

    /** Releases (or forwards) ENDs from the head while they can go; times the wait of the head that cannot. */
    private void releaseReady(Context ctx, Collector<SourceEvent> out, RebuildProgress progress) throws Exception {
        SourceEvent end;
        while ((end = pending.head(progress)) != null) {
            TransactionSlots slots = pending.slotsOf(end.getTransactionKey());
            if (released.isReleased(end, slots == null ? null : slots.getCommitSource())) {
                forwardAlone(end, progress, out);
            } else if (PendingTransactions.complete(end, slots)) {
                release(end, slots, progress, out);
            } else {
                if (progress.getWaitingSeq() != progress.getHeadSeq()) {
                    long now = ctx.timerService().currentProcessingTime();
                    progress.setWaitingSeq(progress.getHeadSeq());
                    progress.setWaitingSinceMs(now);
                    ctx.timerService().registerProcessingTimeTimer(now + maxOpenMs);
                }
                return;
            }
        }
    }

    /** Rule 7: the END of a released transaction goes alone; its held BEGIN and data events are dropped. */
    private void forwardAlone(SourceEvent end, RebuildProgress progress, Collector<SourceEvent> out)
            throws Exception {
        pending.pop(progress);
        covered.release(end);
        Set<String> touched = new HashSet<>();
        SourceEvent begin = pending.takeBegin(end.getTransactionKey());
        dropCutBegins(end);
        if (begin != null) {
            covered.release(begin);
        }
        for (SourceEvent row : pending.takeSlots(end.getTransactionKey())) {
            unhold(row, progress, touched);
            resentDropped.inc();
        }
        released.remember(end.getTransactionKey()); // its data events still to come are dropped too
        LOG.debug("Forwarding {} alone: its transaction was released already", end);
        out.collect(end);
        releaseStandaloneBehind(touched, progress, out);
    }

    private void release(SourceEvent end, TransactionSlots slots, RebuildProgress progress,
            Collector<SourceEvent> out) throws Exception {
        pending.pop(progress);
        covered.release(end);
        SourceEvent begin = pending.takeBegin(end.getTransactionKey());
        if (begin != null) {
            covered.release(begin);
        } else {
            begin = PendingTransactions.beginFrom(end);
        }
        dropCutBegins(end);
        Set<String> touched = new HashSet<>();
        List<SourceEvent> rows = pending.takeSlots(end.getTransactionKey());
        for (SourceEvent row : rows) {
            unhold(row, progress, touched);
        }
        released.released(end, slots == null ? null : slots.getCommitSource());
        stamp(end, progress);
        out.collect(begin);
        rows.forEach(out::collect);
        out.collect(end);
        releaseStandaloneBehind(touched, progress, out);
    }

    /**
     * BEGINs held below an END that left the queue belong to transactions that will never end there: the connector
     * writes one transaction's BEGIN .. END before the next one's BEGIN, so such a BEGIN was cut off by a connector
     * restart (its re-send has its own BEGIN). Held, they would keep the transaction topic's covered offset down for
     * ever. ENDs below leave the queue first (queue order is offset order), so every held offset below is a BEGIN.
     */
    private void dropCutBegins(SourceEvent end) throws Exception {
        String partition = CoveredOffsets.partitionOf(end);
        long lowest;
        while ((lowest = covered.lowestHeld(partition)) >= 0 && lowest < end.getOffset()) {
            SourceEvent cut = pending.takeBeginAt(lowest);
            if (cut == null) {
                return;
            }
            covered.release(cut);
            LOG.info("BEGIN of transaction '{}' at {} has no END before the END of '{}' at {}: a connector restart cut "
                    + "it off; no longer held (its data events, if any, wait for its END)", cut.getTransactionId(),
                    cut.describePosition(), end.getTransactionId(), end.describePosition());
        }
    }

    private void unhold(SourceEvent row, RebuildProgress progress, Set<String> touched) throws Exception {
        covered.release(row);
        progress.setHeldBytes(progress.getHeldBytes() - PendingTransactions.bytesOf(row));
        touched.add(CoveredOffsets.partitionOf(row));
    }

    /** Rule 5: standalone rows now at the head of their partition's held events go, each as its own unit. */
    private void releaseStandaloneBehind(Set<String> partitions, RebuildProgress progress,
            Collector<SourceEvent> out) throws Exception {
        for (String partition : partitions) {
            long lowest;
            SourceEvent row;
            while ((lowest = covered.lowestHeld(partition)) >= 0
                    && (row = pending.takeStandalone(partition, lowest)) != null) {
                unhold(row, progress, new HashSet<>());
                emitStandalone(row, progress, out);
            }
        }
    }

    private void emitStandalone(SourceEvent row, RebuildProgress progress, Collector<SourceEvent> out)
            throws Exception {
        stamp(row, progress);
        out.collect(row);
    }

    /** Rules 3 and 4: the next rebuilt position and the covered offsets that grew. */
    private void stamp(SourceEvent unit, RebuildProgress progress) throws Exception {
        progress.setLastRebuiltPosition(progress.getLastRebuiltPosition() + 1);
        unit.setRebuiltSource(layout.rebuiltSource());
        unit.setRebuiltPosition(progress.getLastRebuiltPosition());
        HashMap<String, Long> changed = covered.takeChanged();
        unit.setCoveredPositions(changed.isEmpty() ? null : changed);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SourceEvent> out) throws Exception {
        RebuildProgress progress = progressState.value();
        SourceEvent head = progress == null ? null : pending.head(progress);
        if (ctx.timeDomain() == TimeDomain.EVENT_TIME) {
            if (progress != null && (head != null || progress.getHeldBytes() > 0)) {
                LOG.warn("The input ended with {} ENDs queued and {} bytes of row text held by the cross-topic "
                        + "rebuild: {}. Nothing of them loaded; the next run reads them again from the covered "
                        + "offsets", pending.queued(progress), progress.getHeldBytes(), HeadWaitReport.describe(head,
                        head == null ? null : pending.slotsOf(head.getTransactionKey()), layout, covered));
            }
            return;
        }
        if (head == null || progress.getWaitingSeq() != progress.getHeadSeq()
                || timestamp < progress.getWaitingSinceMs() + maxOpenMs) {
            return; // released meanwhile, or a later head's own timer decides
        }
        throw new TransactionRebuildException(HeadWaitReport.describe(head, pending.slotsOf(head.getTransactionKey()),
                layout, covered) + ", at the head of the rebuild for over " + maxOpenMs + " ms "
                + "(--max-transaction-open); later transactions wait behind it. A table topic deleted or events lost "
                + "to retention leave it incomplete for ever; a topic lagging far behind: raise "
                + "--max-transaction-open (" + HeadWaitReport.DOCS + ")");
    }
}
