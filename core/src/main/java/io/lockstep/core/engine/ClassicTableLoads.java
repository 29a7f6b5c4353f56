package io.lockstep.core.engine;

import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.format.LoadBody;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;

import java.util.List;
import java.util.Map;

/**
 * {@link LoadMethod#CLASSIC} (at-least-once only): no transaction operations. Nothing loads before a flush's cut; then
 * each table's rows up to the cut go out as one classic stream load ({@code PUT /api/{db}/{table}/_stream_load},
 * docs/protocol.md#starrocks-classic-stream-load) under a fresh label {@code ...-{table}-{subtask}-{runId}-c{n}}, which
 * commits by itself; a retry reuses the label, so the server deduplicates it
 * (docs/protocol.md#labels-and-label-state).
 *
 * <p>Not thread-safe: the manager thread's, apart from {@link #send} (I/O threads; reads only final fields).
 */
final class ClassicTableLoads implements TableLoads {
    private final StreamLoader loader;
    private final LabelGenerator labels;
    private final LoadMetrics metrics;
    /** Manager thread only. */
    private long classicSequence;

    ClassicTableLoads(StreamLoader loader, LabelGenerator labels, LoadMetrics metrics) {
        this.loader = loader;
        this.labels = labels;
        this.metrics = metrics;
    }

    @Override
    public boolean loadsBeforeCut() {
        return false;
    }

    @Override
    public TransactionRef nextLoad(RegionKey key) {
        return TransactionRef.singleTable(key.database(), key.table(),
                labels.classicLabel(key.table(), ++classicSequence));
    }

    @Override
    public LoadReply send(TransactionClient client, TransactionRef txn, LoadBody body, Map<String, String> properties)
            throws TransactionException { // no transaction: the classic stream load begins and commits by itself
        return loader.load(txn.database(), txn.table(), txn.label(), body, properties);
    }

    @Override
    public void loaded(String key, TransactionRef txn) {
        metrics.counter(MetricNames.COMMITS).inc(); // a classic stream load commits by itself
    }

    @Override
    public int openTransactions() {
        return 0;
    }

    @Override
    public List<PreparedTransaction> finishFlush(long checkpointId) {
        return List.of();
    }

    @Override
    public void rollbackOpen(String when) {
        // nothing is open between loads: each load committed or failed by itself
    }
}
