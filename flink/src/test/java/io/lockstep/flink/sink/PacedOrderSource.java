package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.util.concurrent.CancellationException;
import org.apache.flink.streaming.api.functions.source.SourceFunction;

/**
 * A non-parallel test source generating shop transactions (1 order + {@code items} items each, see
 * {@link ShopSinkJobs#orderTxn}) round-robin over the given source partitions, {@code txnsPerPartition} each.
 * Order ids are {@code partition * 1_000_000 + n}. Each transaction is emitted under the checkpoint lock.
 *
 * <p>Paced by the test, not by time: after every {@code roundsPerBatch} rounds (one transaction per partition) it
 * waits at gate {@link #gateName(String, int) gateName(prefix, batch)} until the test opens it, so a reader that
 * opens one gate per sample is guaranteed to sample between batches while commits are under way.
 */
@SuppressWarnings("deprecation")
final class PacedOrderSource implements SourceFunction<DefaultStarRocksRowData> {
    private static final long serialVersionUID = 1L;

    private final int[] partitions;
    private final int txnsPerPartition;
    private final int items;
    private final int roundsPerBatch;
    private final String gatePrefix;
    /** Written by cancel() (any thread), read by the source thread. */
    private volatile boolean running = true;

    /** @param partitions the source partition ids, e.g. {@link ShopSinkJobs#spreadPartitions(int)} */
    PacedOrderSource(int[] partitions, int txnsPerPartition, int items, int roundsPerBatch, String gatePrefix) {
        this.partitions = partitions.clone();
        this.txnsPerPartition = txnsPerPartition;
        this.items = items;
        this.roundsPerBatch = roundsPerBatch;
        this.gatePrefix = gatePrefix;
    }

    /** The gate the source waits at after batch {@code batch} (0-based). */
    static String gateName(String prefix, int batch) {
        return prefix + "-" + batch;
    }

    /** Number of gates the source passes. */
    int batches() {
        return (txnsPerPartition + roundsPerBatch - 1) / roundsPerBatch;
    }

    @Override
    public void run(SourceContext<DefaultStarRocksRowData> ctx) throws Exception {
        for (int n = 0; n < txnsPerPartition && running; n++) {
            for (int p : partitions) {
                synchronized (ctx.getCheckpointLock()) {
                    for (TxnRow row : ShopSinkJobs.orderTxn(p, p * 1_000_000L + n, items)) {
                        ctx.collect(row.toRowData());
                    }
                }
            }
            if ((n + 1) % roundsPerBatch == 0 || n + 1 == txnsPerPartition) {
                if (!Gates.pass(gateName(gatePrefix, n / roundsPerBatch), () -> running)) {
                    // cancelled: throw rather than return, so the input does not end and the sinks do not finish()
                    throw new CancellationException("paced source cancelled");
                }
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
