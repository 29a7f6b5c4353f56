package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.route.TableRouter;
import io.lockstep.flink.row.SinkInput;
import java.util.Objects;
import java.util.function.BiPredicate;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assembles Maxwell transactions (marker-based, docs/input-formats.md#maxwell): rows with the same {@code xid} form a
 * transaction that ends at the row with {@code commit: true}. With Maxwell's default
 * {@code producer_partition_by=database}, a transaction's rows are contiguous in one partition. {@code bootstrap-insert}
 * rows are emitted as their own transactions.
 *
 * <p>With a source commit position on the rows ({@code gtid} with {@code output_gtid_position}, else {@code position}
 * with {@code output_binlog_position}; docs/input-formats.md#source-commit-positions-and-re-sends), each transaction
 * is decided at its commit row by {@link CommittedSourcePositions}: a re-send after a Maxwell restart is dropped, a
 * source that went back stops the job. A row of another {@code xid} while a transaction is open is then a restart that
 * cut the open one off: its rows are discarded with one WARN and its re-send (Maxwell sends whole transactions again)
 * must come before any later transaction. A row of the open transaction whose {@code position} is below the last one
 * received starts it again from its first row (the partial copy is discarded). Without a position, a row of another
 * {@code xid} fails the job naming both (the rows of one transaction are spread over partitions, or its commit row was
 * lost), and a replayed transaction simply continues the open one: its repeated rows load twice (harmless on PRIMARY
 * KEY tables, duplicates on DUPLICATE KEY tables), as does a whole re-sent transaction, which only the Kafka offsets
 * of the progress table then guard. Once a position is committed on the source partition, a transaction whose commit
 * row carries none stops the job in one line (it could not be told from a re-send).
 */
public class MaxwellTransactionAssembler extends TransactionAssembler {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MaxwellTransactionAssembler.class);

    /**
     * A row of the open transaction whose {@code position} is below the last one received: Maxwell sends the
     * transaction again from its first row. Rows of one rows event share a position, so a transaction cut inside its
     * first rows event is not seen (its repeated rows are buffered twice).
     */
    private static final BiPredicate<OpenTransaction, SourceEvent> RESTARTED = (t, row) ->
            row.getBinlogFile() != null && t.getLastBinlogFile() != null
                    && CommitPosition.binlogOrder(row.getBinlogFile(), row.getBinlogPosition(), t.getLastBinlogFile(),
                    t.getLastBinlogPosition()) < 0;

    /**
     * @param router maps source tables to target tables
     * @param options bounds and error handling
     */
    public MaxwellTransactionAssembler(TableRouter router, AssemblerOptions options) {
        super(router, options);
    }

    @Override
    protected void handle(SourceEvent event, Context ctx, Collector<SinkInput> out) throws Exception {
        if (event.getKind() != SourceEventKind.ROW) {
            throw badInput(event, "a " + event.getKind() + " event in a Maxwell stream (Maxwell marks "
                    + "transactions with xid and commit only)");
        }
        if (event.isStandalone()) {
            emitStandalone(event, ctx, out);
            return;
        }
        OpenTransaction t = current();
        if (t != null && !Objects.equals(t.getTransactionKey(), event.getTransactionKey())) {
            String what = t.describe() + " on source partition " + sourcePartition(ctx) + " (started at "
                    + t.getStartPosition() + ") has no commit row: a row of xid " + event.getTransactionId()
                    + " arrived at " + event.describePosition();
            if (!CommitPosition.carried(event)) {
                throw new TransactionAssemblyException(what
                        + "; are the rows of one transaction spread over partitions (producer_partition_by)?");
            }
            // Maxwell restarted from its stored position, before this transaction: it is sent again whole
            LOG.warn("{}: a Maxwell restart cut it off; discarding its {} rows buffered, it is loaded when it is sent "
                    + "again (before any later transaction, else the job stops)", what, t.getReceivedEvents());
            positions().cut(t.getTransactionKey(), t.describe() + " (started at " + t.getStartPosition() + ")");
            discard(t, ctx);
            t = null;
        } else if (t != null && RESTARTED.test(t, event)) {
            LOG.warn("{} is sent again from its first row at {} (a Maxwell restart): discarding the {} rows buffered "
                    + "since {}", t.describe(), event.describePosition(), t.getReceivedEvents(), t.getStartPosition());
            discard(t, ctx);
            t = null;
        }
        if (t == null) {
            positions().arrived(event.getTransactionKey(), event.describePosition());
            t = begin(event, ctx);
        }
        t.setLastBinlogFile(event.getBinlogFile());
        t.setLastBinlogPosition(event.getBinlogPosition());
        add(t, event, ctx, out);
        if (event.isCommit()) {
            int partition = sourcePartition(ctx);
            CommitPosition position = CommitPosition.of(event.getCommitSource(), event);
            String what = "transaction xid " + event.getTransactionId() + " (commit row at "
                    + event.describePosition() + ")";
            if (position == null) {
                positions().requireNoCommittedPosition(partition, event.getCommitSource(), what);
            }
            if (position != null && positions().isResent(partition, event.getCommitSource(), position, what)) {
                discard(t, ctx);
                return;
            }
            String text = position == null ? null : positions().commit(partition, event.getCommitSource(), position);
            commit(t, event, text == null ? null : event.getCommitSource(), text, ctx, out);
        }
    }
}
