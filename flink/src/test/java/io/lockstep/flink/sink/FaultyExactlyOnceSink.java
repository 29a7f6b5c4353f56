package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.restart.CheckpointedTransaction;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.flink.runtime.state.FunctionSnapshotContext;

/**
 * The exactly-once sink with one-shot failures for the ITs, armed through static flags (the MiniCluster runs in this
 * JVM), and a record of every transaction prepared, by checkpoint. Call {@link #reset()} before each job.
 */
final class FaultyExactlyOnceSink extends ExactlyOnceSinkFunction<DefaultStarRocksRowData> {
    private static final long serialVersionUID = 1L;

    /** Throw once right after a snapshotState that prepared data, once a checkpoint of this run completed. */
    static final AtomicBoolean FAIL_AFTER_PREPARE = new AtomicBoolean();
    /** Throw once right after the first snapshotState that prepared data, before any checkpoint completed. */
    static final AtomicBoolean FAIL_AT_FIRST_PREPARE = new AtomicBoolean();
    /** Throw once in notifyCheckpointComplete, before committing, when something is due. */
    static final AtomicBoolean FAIL_BEFORE_COMMIT = new AtomicBoolean();
    /** The checkpoint at which a failure was injected, or -1. */
    static final AtomicLong FAILED_AT = new AtomicLong(-1);
    /** Transactions that were due when the commit failure was injected. */
    static final List<CheckpointedTransaction> DUE_AT_FAILURE = new CopyOnWriteArrayList<>();
    /** Every transaction prepared, by the checkpoint that prepared it. */
    static final Map<Long, List<CheckpointedTransaction>> PREPARED = new ConcurrentHashMap<>();

    /** Task thread: whether a checkpoint of this run (attempt) completed. */
    private transient boolean completedOnce;

    FaultyExactlyOnceSink(StarRocksSinkOptions options) {
        super(options);
    }

    static void reset() {
        FAIL_AFTER_PREPARE.set(false);
        FAIL_AT_FIRST_PREPARE.set(false);
        FAIL_BEFORE_COMMIT.set(false);
        FAILED_AT.set(-1);
        DUE_AT_FAILURE.clear();
        PREPARED.clear();
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        super.snapshotState(context);
        long checkpointId = context.getCheckpointId();
        List<CheckpointedTransaction> now = pendingTransactions().stream()
                .filter(t -> t.checkpointId() == checkpointId).toList();
        PREPARED.computeIfAbsent(checkpointId, k -> new CopyOnWriteArrayList<>()).addAll(now);
        if (!now.isEmpty() && completedOnce && FAIL_AFTER_PREPARE.compareAndSet(true, false)) {
            FAILED_AT.set(checkpointId);
            throw new IllegalStateException("injected failure right after the prepare of checkpoint " + checkpointId);
        }
        if (!now.isEmpty() && !completedOnce && FAIL_AT_FIRST_PREPARE.compareAndSet(true, false)) {
            FAILED_AT.set(checkpointId);
            throw new IllegalStateException("injected failure right after the first prepare, checkpoint "
                    + checkpointId);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        List<CheckpointedTransaction> due = pendingTransactions().stream()
                .filter(t -> t.checkpointId() <= checkpointId).toList();
        if (!due.isEmpty() && FAIL_BEFORE_COMMIT.compareAndSet(true, false)) {
            FAILED_AT.set(checkpointId);
            DUE_AT_FAILURE.addAll(due);
            throw new IllegalStateException("injected failure after checkpoint " + checkpointId
                    + " completed, before its commit");
        }
        super.notifyCheckpointComplete(checkpointId);
        completedOnce = true;
    }
}
