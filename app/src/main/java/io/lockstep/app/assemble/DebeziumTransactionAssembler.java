package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TableRouter;
import io.lockstep.flink.row.SinkInput;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assembles Debezium transactions from one ordered stream of BEGIN, data events and END (transaction metadata on, table
 * topics and the transaction topic routed into one topic partition; docs/input-formats.md#ordering-and-delivery): BEGIN
 * opens, data events of the same transaction key are buffered, END closes after checking its {@code event_count} and
 * per-table counts against what was received (a mismatch fails the job naming the transaction and both counts per
 * table; rows of skipped tables count as received). Transactions are keyed by {@link SourceEvent#getTransactionKey()}
 * (the {@code txId} for PostgreSQL ids).
 *
 * <p>Events without a transaction (snapshot rows) are emitted as their own transactions. An empty transaction
 * ({@code event_count} 0) emits nothing. A second BEGIN of the open transaction (a replay after a connector restart)
 * discards the partial copy and starts again. A data event whose {@code transaction.total_order} is not above the
 * highest one received for the open transaction is a repeat (Debezium resumes a transaction after a restart without a
 * new BEGIN, docs/input-formats.md#ordering-and-delivery) and is dropped without counting it.
 *
 * <p>Source commit positions (PostgreSQL and MySQL connectors; docs/input-formats.md#source-commit-positions-and-re-sends):
 * at its END each transaction is decided by {@link CommittedSourcePositions} (a re-send of a committed transaction is
 * dropped, a source that went back stops the job), and the shapes a connector restart leaves are handled, none is bad
 * input: a tail resumed without its BEGIN after the transaction had ended (its data events and END, buffered as a
 * headless transaction: dropped at or below the committed position; above it, loaded only when END's counts match,
 * else the job stops, its first events never seen); a transaction cut off by the restart (its BEGIN and some events,
 * then another transaction's BEGIN, data event or END): its partial copy is discarded with one WARN and its re-send
 * must come before any later transaction; an END alone at or below the committed position: dropped. Bad input
 * otherwise (with {@link io.lockstep.app.event.BadInputMode}): without commit positions, a data event outside any
 * transaction or of another transaction than the open one, an END without BEGIN or of another transaction; a BEGIN of
 * another transaction while one is open stops the job.
 */
public class DebeziumTransactionAssembler extends TransactionAssembler {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DebeziumTransactionAssembler.class);

    /** Metric {@value #DUPLICATES_METRIC}: data events dropped as repeats; task thread only. */
    private transient Counter duplicates;

    /** Name of the counter of data events dropped as repeats. */
    public static final String DUPLICATES_METRIC = "lockstepRepeatedEventsDropped";

    /**
     * @param router maps source tables to target tables
     * @param options bounds and error handling
     */
    public DebeziumTransactionAssembler(TableRouter router, AssemblerOptions options) {
        super(router, options);
    }

    @Override
    public void open(OpenContext openContext) {
        super.open(openContext);
        duplicates = getRuntimeContext().getMetricGroup().counter(DUPLICATES_METRIC);
    }

    @Override
    protected void handle(SourceEvent event, Context ctx, Collector<SinkInput> out) throws Exception {
        switch (event.getKind()) {
            case BEGIN:
                onBegin(event, ctx);
                break;
            case ROW:
                onRow(event, ctx, out);
                break;
            case END:
                onEnd(event, ctx, out);
                break;
            default:
                throw new IllegalStateException("unknown event kind " + event.getKind());
        }
    }

    private void onBegin(SourceEvent event, Context ctx) throws Exception {
        OpenTransaction t = current();
        if (t != null) {
            if (!Objects.equals(t.getTransactionKey(), event.getTransactionKey())) {
                String cut = t.describe() + " on source partition " + sourcePartition(ctx) + " (started at "
                        + t.getStartPosition() + ") has no END: BEGIN of transaction '" + event.getTransactionId()
                        + "' arrived at " + event.describePosition();
                cutOff(t, event, cut, ctx);
            } else {
                LOG.warn("BEGIN of {} again at {} (a replay after a source restart?): discarding the {} events "
                        + "buffered since {}", t.describe(), event.describePosition(), t.getReceivedEvents(),
                        t.getStartPosition());
                discard(t, ctx);
            }
        }
        positions().arrived(event.getTransactionKey(), event.describePosition());
        begin(event, ctx);
    }

    /**
     * {@code t} never got its END: another transaction's event came first. With commit positions that is a connector
     * restart (the stream is in commit order, and a restart re-sends {@code t} from its BEGIN or resumes it): its
     * partial copy is discarded with one WARN, and its re-send is awaited ({@link CommittedSourcePositions#cut}).
     * Without commit positions nothing can tell: the job stops.
     */
    private void cutOff(OpenTransaction t, SourceEvent next, String what, Context ctx) throws Exception {
        if (!positional(t, next, ctx)) {
            throw new TransactionAssemblyException(what);
        }
        LOG.warn("{}: a connector restart cut it off; discarding its {} events buffered, it is loaded when it is sent "
                + "again (before any later transaction, else the job stops)", what, t.getReceivedEvents());
        positions().cut(t.getTransactionKey(), t.describe() + " (started at " + t.getStartPosition() + ")");
        discard(t, ctx);
    }

    /**
     * Whether this partition's transactions carry commit positions: the open transaction's events or {@code event}
     * carry one ({@link CommitPosition#carried}), or a commit source has a committed position here.
     */
    private boolean positional(OpenTransaction t, SourceEvent event, Context ctx) throws Exception {
        return t != null && t.getCommitSource() != null || CommitPosition.carried(event)
                || positions().soleCommitSource(sourcePartition(ctx)) != null;
    }

    private void onRow(SourceEvent event, Context ctx, Collector<SinkInput> out) throws Exception {
        if (event.isStandalone()) {
            emitStandalone(event, ctx, out);
            return;
        }
        OpenTransaction t = current();
        boolean otherKey = t != null && !Objects.equals(t.getTransactionKey(), event.getTransactionKey());
        if ((t == null || otherKey) && !positional(t, event, ctx)) {
            throw badInput(event, t == null ? "data event of transaction '" + event.getTransactionId()
                    + "' outside any transaction (no BEGIN before it; BEGIN and END come from Debezium's transaction "
                    + "topic, which must be routed into this topic: docs/sources.md)"
                    : "data event of transaction '" + event.getTransactionId() + "' inside " + t.describe()
                            + " (started at " + t.getStartPosition() + ")");
        }
        if (otherKey) {
            cutOff(t, event, t.describe() + " on source partition " + sourcePartition(ctx) + " (started at "
                    + t.getStartPosition() + ") has no END: a data event of transaction '" + event.getTransactionId()
                    + "' arrived at " + event.describePosition(), ctx);
            t = null;
        }
        if (t == null) { // a tail resumed without its BEGIN: decided at its END by its commit position
            positions().arrived(event.getTransactionKey(), event.describePosition());
            t = begin(event, ctx);
            t.setHeadless(true);
        }
        if (event.getTotalOrder() > 0) {
            if (event.getTotalOrder() <= t.getMaxTotalOrder()) {
                duplicates.inc();
                LOG.debug("Dropping data event {} of {} at {}: already received (a replay after a source restart)",
                        event.getTotalOrder(), t.describe(), event.describePosition());
                return;
            }
            t.setMaxTotalOrder(event.getTotalOrder());
        }
        add(t, event, ctx, out);
    }

    private void onEnd(SourceEvent event, Context ctx, Collector<SinkInput> out) throws Exception {
        OpenTransaction t = current();
        int partition = sourcePartition(ctx);
        if (t != null && !Objects.equals(t.getTransactionKey(), event.getTransactionKey())
                && positional(t, event, ctx)) {
            cutOff(t, event, t.describe() + " on source partition " + partition + " (started at " + t.getStartPosition()
                    + ") has no END: END of transaction '" + event.getTransactionId() + "' arrived at "
                    + event.describePosition(), ctx);
            t = null;
        }
        if (t == null) { // only the END was sent again after a restart: a re-send, or events are missing
            String source = positions().soleCommitSource(partition);
            CommitPosition position = source == null ? null : CommitPosition.of(source, event);
            if (position != null && positions().isResent(partition, source, position, "END of transaction '"
                    + event.getTransactionId() + "' at " + event.describePosition())) {
                return;
            }
            throw badInput(event, "END of transaction '" + event.getTransactionId() + "' without BEGIN");
        }
        if (!Objects.equals(t.getTransactionKey(), event.getTransactionKey())) {
            throw badInput(event, "END of transaction '" + event.getTransactionId() + "' while " + t.describe()
                    + " (started at " + t.getStartPosition() + ") is open");
        }
        String source = t.getCommitSource() != null ? t.getCommitSource() : positions().soleCommitSource(partition);
        CommitPosition position = source == null ? null : CommitPosition.of(source, event);
        String what = "transaction '" + event.getTransactionId() + "' (END at " + event.describePosition() + ")";
        if (position == null && source != null) {
            positions().requireNoCommittedPosition(partition, source, what);
        }
        if (position != null && positions().isResent(partition, source, position, what)) {
            if (t.getEmittedRows() > 0) {
                LOG.warn("{} is a re-send of a committed transaction, but {} of its rows were emitted already at the "
                        + "size or time bound (--on-bound emit): they load a second time", what, t.getEmittedRows());
            }
            discard(t, ctx);
            return;
        }
        if (event.getRebuiltSource() != null && t.getEmittedRows() > 0) {
            throw new TransactionAssemblyException(what + " on source partition " + partition + " was emitted in parts "
                    + "at the size or time bound (--on-bound emit; " + t.getEmittedRows() + " rows emitted), which a "
                    + "transaction rebuilt from several topics (--transaction-topic) cannot be: its parts carry no "
                    + "rebuilt position; use --on-bound fail and raise the bound");
        }
        Map<String, Long> expected = new TreeMap<>(event.getTableEventCounts());
        expected.values().removeIf(count -> count == 0);
        Map<String, Long> received = t.receivedByTableSorted();
        if (event.getEventCount() != t.getReceivedEvents() || !expected.equals(received)) {
            throw new TransactionAssemblyException("transaction '" + event.getTransactionId()
                    + "' on source partition " + partition + " (started at " + t.getStartPosition()
                    + "): END at " + event.describePosition() + " counts " + event.getEventCount()
                    + " events " + expected + " but " + t.getReceivedEvents() + " were received " + received
                    + (!t.isHeadless() ? "; events are missing or duplicated, or the source topology splits "
                    + "transactions" : position != null && positions().hasCommittedPosition(partition, source)
                    ? "; it was resumed without its BEGIN after a connector restart and is not a re-send of a "
                    + "committed transaction: its first events were never seen"
                    : "; it was resumed without its BEGIN: its first events were never seen in this run, and no "
                    + "committed commit position is known for " + (source == null ? "its source" : source)
                    + " to tell a re-send from lost events (a progress table without the commit_position column: "
                    + "add it, docs/exactly-once.md#upgrading-a-progress-table; a job's first start: start its "
                    + "input at a transaction's BEGIN)"));
        }
        String text = position == null ? null : positions().commit(partition, source, position);
        commit(t, event, text == null ? null : source, text, ctx, out);
    }
}
