package io.lockstep.flink.docexample.publicevent;

import io.lockstep.flink.docexample.publicevent.WriteMultipleTablesWithTransaction.TxnEvent;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;

/**
 * A copy of {@link io.lockstep.flink.docexample.MockTxnEventSource} for the example variant whose {@code TxnEvent}
 * is public (this package); only the package and the {@code TxnEvent} import differ.
 *
 * <p>Original description: the "MockTxnEventSource" that the guide's complete example names in its placeholder
 * {@code env.addSource(/* KafkaSource or MockTxnEventSource *&#47;)} but does not define (the
 * document leaves the source to the reader; the placeholder alone does not compile). Written for
 * Lockstep so that the example compiles with that single argument filled in.
 *
 * <p>Bounded: each subtask owns the source partitions {@code p} with
 * {@code p % parallelism == subtaskIndex} out of {@code partitionCount}, and emits for each of them
 * {@code transactionsPerPartition} source transactions against the example's DDL: TXN_BEGIN, one
 * {@code test.orders} row, {@code itemsPerOrder} {@code test.order_items} rows, TXN_END. Order ids
 * are {@code partition * 1_000_000 + n}, item ids {@code orderId * 100 + k}, so every row is unique.
 */
public class MockTxnEventSource extends RichParallelSourceFunction<TxnEvent> {

    private static final long serialVersionUID = 1L;

    private final int partitionCount;
    private final int transactionsPerPartition;
    private final int itemsPerOrder;

    /** Written by {@link #cancel()} (any thread), read by the source thread. */
    private volatile boolean running = true;

    /** 4 partitions, 10 transactions each, 3 items per order. */
    public MockTxnEventSource() {
        this(4, 10, 3);
    }

    /**
     * @param partitionCount number of source partitions (&gt;= 1)
     * @param transactionsPerPartition source transactions per partition (&gt;= 0)
     * @param itemsPerOrder order_items rows per order (0..99)
     */
    public MockTxnEventSource(int partitionCount, int transactionsPerPartition, int itemsPerOrder) {
        if (partitionCount < 1 || transactionsPerPartition < 0 || itemsPerOrder < 0 || itemsPerOrder > 99) {
            throw new IllegalArgumentException("expected partitionCount >= 1, transactionsPerPartition >= 0, "
                    + "itemsPerOrder in [0, 99]; got " + partitionCount + ", " + transactionsPerPartition
                    + ", " + itemsPerOrder);
        }
        this.partitionCount = partitionCount;
        this.transactionsPerPartition = transactionsPerPartition;
        this.itemsPerOrder = itemsPerOrder;
    }

    @Override
    public void run(SourceContext<TxnEvent> ctx) {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        for (int n = 0; n < transactionsPerPartition && running; n++) {
            for (int partition = subtask; partition < partitionCount && running; partition += parallelism) {
                long orderId = partition * 1_000_000L + n;
                String txnId = "p" + partition + "-t" + n;
                synchronized (ctx.getCheckpointLock()) {
                    ctx.collect(TxnEvent.begin(partition, txnId));
                    ctx.collect(TxnEvent.data(partition, txnId, "test", "orders",
                            "{\"order_id\":" + orderId + ",\"customer_id\":" + (orderId % 97)
                                    + ",\"total_amount\":\"" + itemsPerOrder * 10 + ".00\",\"order_status\":\"NEW\"}"));
                    for (int k = 0; k < itemsPerOrder; k++) {
                        ctx.collect(TxnEvent.data(partition, txnId, "test", "order_items",
                                "{\"item_id\":" + (orderId * 100 + k) + ",\"order_id\":" + orderId
                                        + ",\"product_name\":\"item-" + k + "\",\"quantity\":1,\"price\":\"10.00\"}"));
                    }
                    ctx.collect(TxnEvent.end(partition, txnId));
                }
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
