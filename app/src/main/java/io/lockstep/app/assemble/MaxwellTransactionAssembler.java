package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.route.TableRouter;
import io.lockstep.flink.row.SinkInput;
import java.util.Objects;
import org.apache.flink.util.Collector;

/**
 * Assembles Maxwell transactions (marker-based, docs/input-formats.md#maxwell): rows with the same {@code xid} form a
 * transaction that ends at the row with {@code commit: true}. With Maxwell's default
 * {@code producer_partition_by=database}, a transaction's rows are contiguous in one partition, so a row of another
 * {@code xid} while a transaction is open means the open one lost its commit row: the job fails naming both. A replayed
 * transaction (same {@code xid} again after a Maxwell restart) simply continues the open one; its rows are upserts and
 * deletes by key, so the repeat is harmless. {@code bootstrap-insert} rows are emitted as their own transactions.
 */
public class MaxwellTransactionAssembler extends TransactionAssembler {

    private static final long serialVersionUID = 1L;

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
            throw new TransactionAssemblyException(t.describe() + " on source partition " + sourcePartition(ctx)
                    + " (started at " + t.getStartPosition() + ") has no commit row: a row of xid "
                    + event.getTransactionId() + " arrived at " + event.describePosition()
                    + "; are the rows of one transaction spread over partitions (producer_partition_by)?");
        }
        if (t == null) {
            t = begin(event, ctx);
        }
        add(t, event, ctx, out);
        if (event.isCommit()) {
            int partition = sourcePartition(ctx);
            CommitPosition position = CommitPosition.of(event.getCommitSource(), event);
            if (position != null && positions().isResent(partition, event.getCommitSource(), position,
                    "transaction xid " + event.getTransactionId() + " (commit row at " + event.describePosition() + ")")) {
                discard(t, ctx);
                return;
            }
            String text = position == null ? null : positions().commit(partition, event.getCommitSource(), position);
            commit(t, event, text == null ? null : event.getCommitSource(), text, ctx, out);
        }
    }
}
