package io.lockstep.core.engine;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager thread's half of the single-table engine: the flush cycle (docs/exactly-once.md,
 * docs/protocol.md#what-the-official-starrocks-connector-does). A flush (commit timer at-least-once, a
 * {@code flush()}/{@code prepare()} request, or memory pressure) takes a cut, loads what it covers, then ends the
 * transactions of the cut; chunks frozen after the cut go to the next transactions. How a table's rows load and how
 * its transactions end depends on the load method ({@link TableLoads}: transaction stream load, classic stream load,
 * Doris two-phase stream load). Commit and abort of given labels (the Flink committer, restore) also run here.
 *
 * <p>Threads: everything runs on the manager thread except the {@code submit*} methods (task thread or the Flink
 * committer), which only add to {@link PendingRequests}, and the loads themselves ({@link LoadHandOff}, I/O threads).
 * Manager-only fields need no lock.
 */
final class TableTransactionCycle extends ManagerCycle<TableFlushState> {
    private static final Logger LOG = LoggerFactory.getLogger(TableTransactionCycle.class);

    /** Flush every chunk up to {@code freezeSequence}; {@code checkpointId} is -1 for a plain flush. */
    record FlushRequest(long freezeSequence, long checkpointId, CompletableFuture<List<PreparedTransaction>> done)
            implements PendingRequests.Request {
    }

    /** Commit ({@code commit}) or abort the given prepared transactions. */
    record LabelRequest(List<PreparedTransaction> txns, boolean commit, CompletableFuture<Void> done)
            implements PendingRequests.Request {
    }

    private final DeliverySemantic semantic;
    private final TableLoads loads;

    private final PendingRequests<FlushRequest> flushes = new PendingRequests<>();
    private final PendingRequests<LabelRequest> labelRequests = new PendingRequests<>();
    /** Open per-table transactions; written by the manager thread after each scan, read by the metrics gauge. */
    private volatile int openTransactions;

    // ---- manager thread only ----
    private long cutSequence;
    private long cycleStartMs = -1;

    /** @param classicLoader non-null exactly when {@code config.loadMethod()} is {@link LoadMethod#CLASSIC} */
    TableTransactionCycle(LoadEngineConfig config, TransactionClient client, StreamLoader classicLoader,
                          LoadMetrics metrics, RegionTable regions, MemoryBudget budget, FirstFailure failure,
                          Executor ioExecutor, Runnable wakeManager, DeliverySemantic semantic,
                          long restoredCheckpointId, Ticker ticker) {
        super(LOG, "single-table load engine failed", config, client, metrics, regions, budget, failure, ioExecutor, wakeManager,
                TableFlushState.ACCEPTING, TableFlushState.FAILED, TableFlushState.CLOSED);
        this.semantic = semantic;
        LabelGenerator labels = new LabelGenerator(config.labelPrefix(), config.subtaskIndex(), config.runId());
        this.loads = switch (config.loadMethod()) {
            case CLASSIC -> new ClassicTableLoads(classicLoader, labels, metrics);
            case TWO_PHASE_STREAM_LOAD -> new TwoPhaseTableLoads(config, client, labels, metrics,
                    restoredCheckpointId);
            case TRANSACTION -> new TransactionStreamTableLoads(config, client, labels, metrics, semantic,
                    restoredCheckpointId, ticker);
        };
    }

    /** Manager thread: one scan at {@code nowMs}. Never throws; a failure moves the cycle to FAILED. */
    void runOnce(long nowMs) {
        if (cycleStartMs < 0) {
            cycleStartMs = nowMs;
        }
        TableFlushState s = state();
        if (s == TableFlushState.FAILED || s == TableFlushState.CLOSED) {
            failRequests(s == TableFlushState.CLOSED ? "the engine is closed" : "the engine failed");
            return;
        }
        try {
            for (LoadCompletion done : handOff.drain()) {
                loads.loaded(done.key(), done.txn());
            }
            runLabelRequests();
            if (state() == TableFlushState.ACCEPTING) {
                boolean timerDue = semantic == DeliverySemantic.AT_LEAST_ONCE
                        && nowMs - cycleStartMs >= config.commitIntervalMs();
                if (timerDue || budget.underPressure()) {
                    regions.freezeIdleClean(nowMs, 0, true); // single-table regions are always clean
                }
                // a flush that is the only load of a table (classic, two-phase): memory pressure starts one
                boolean pressureFlush = !loads.loadsBeforeCut() && budget.underPressure();
                if (!flushes.pending().isEmpty() || ((timerDue || pressureFlush) && hasData())) {
                    cutSequence = regions.lastFreezeSequence();
                    moveTo(TableFlushState.FLUSHING);
                } else if (timerDue) {
                    cycleStartMs = nowMs;
                }
            }
            loadFrozen();
            if (maybeFinishFlush(nowMs)) {
                loadFrozen();
            }
        } catch (TransactionException | RuntimeException e) {
            fail(e);
        }
        openTransactions = loads.openTransactions();
    }

    /**
     * Manager thread, right after {@link #runOnce}: the time (ticker ms) of the cycle's next timer, the at-least-once
     * commit interval while accepting rows; {@code Long.MAX_VALUE} otherwise. Load replies, flush and label requests
     * and the soft memory limit signal the manager; the manager thread's longest sleep (the scanning frequency)
     * bounds the rest (freezing under memory pressure as rows keep coming).
     */
    long nextDeadlineMs() {
        if (state() != TableFlushState.ACCEPTING || semantic != DeliverySemantic.AT_LEAST_ONCE || cycleStartMs < 0) {
            return Long.MAX_VALUE;
        }
        return cycleStartMs + config.commitIntervalMs();
    }

    CompletableFuture<List<PreparedTransaction>> submitFlush(long freezeSequence, long checkpointId) {
        FlushRequest request = new FlushRequest(freezeSequence, checkpointId, new CompletableFuture<>());
        flushes.submit(request);
        wakeManager.run();
        return request.done();
    }

    CompletableFuture<Void> submitLabels(List<PreparedTransaction> txns, boolean commit) {
        LabelRequest request = new LabelRequest(List.copyOf(txns), commit, new CompletableFuture<>());
        labelRequests.submit(request);
        wakeManager.run();
        return request.done();
    }

    private boolean hasData() {
        return loads.openTransactions() > 0 || !handOff.idle() || frozen.hasFrozen(Long.MAX_VALUE);
    }

    /**
     * Starts a load per table with frozen chunks and no load in flight: any frozen chunk while accepting (if the load
     * method loads before a cut), the cut's chunks while flushing.
     */
    private void loadFrozen() throws TransactionException {
        long maxSequence;
        if (state() == TableFlushState.ACCEPTING && loads.loadsBeforeCut()) {
            maxSequence = Long.MAX_VALUE;
        } else if (state() == TableFlushState.FLUSHING) {
            maxSequence = cutSequence; // classic, two-phase: every region was frozen before the cut, all rows go
        } else {
            return;
        }
        for (RegionKey key : frozen.regionsWithFrozen(maxSequence)) {
            String id = key.database() + "." + key.table();
            if (handOff.busy(id)) {
                continue;
            }
            TransactionRef txn = loads.nextLoad(key); // before the chunks are taken: a failed begin leaves them
            List<Chunk> chunks = frozen.takeFrozen(key, maxSequence);
            if (!chunks.isEmpty()) {
                Map<String, String> properties = config.loadPropertiesFor(key.database(), key.table());
                handOff.start(id, key.table(), txn, chunks, body -> loads.send(client, txn, body, properties));
            }
        }
    }

    /** Ends the transactions of the cut once it is loaded, then completes the flush requests it covers. */
    private boolean maybeFinishFlush(long nowMs) throws TransactionException {
        if (state() != TableFlushState.FLUSHING || !handOff.idle() || frozen.hasFrozen(cutSequence)) {
            return false;
        }
        long checkpointId = -1;
        for (FlushRequest r : flushes.pending()) {
            if (r.freezeSequence() <= cutSequence) {
                checkpointId = Math.max(checkpointId, r.checkpointId());
            }
        }
        List<PreparedTransaction> prepared = List.copyOf(loads.finishFlush(checkpointId));
        flushes.completeWhere(r -> r.freezeSequence() <= cutSequence, r -> r.done().complete(prepared));
        cycleStartMs = nowMs;
        moveTo(TableFlushState.ACCEPTING);
        return true;
    }

    private void runLabelRequests() {
        for (LabelRequest r; (r = labelRequests.poll()) != null; ) {
            PreparedTransaction current = null;
            try {
                for (PreparedTransaction txn : r.txns()) {
                    current = txn;
                    if (r.commit()) {
                        client.commit(txn.ref());
                        metrics.counter(MetricNames.COMMITS).inc();
                    } else {
                        client.rollback(txn.ref());
                        metrics.counter(MetricNames.ROLLBACKS).inc();
                    }
                }
                r.done().complete(null);
            } catch (TransactionException | RuntimeException e) {
                LoadEngineException error = new LoadEngineException((r.commit() ? "commit" : "abort") + " of prepared "
                        + current.ref() + " failed: " + e.getMessage(), e);
                r.done().completeExceptionally(error);
                if (r.commit()) {
                    throw error; // a prepared transaction that cannot commit loses a checkpoint's data: fail loudly
                }
            }
        }
    }

    @Override
    void rollBackOpen(String when) {
        loads.rollbackOpen(when);
        openTransactions = 0;
    }

    @Override
    void failRequests(String why) {
        LoadEngineException error = failure.failedBecause(why);
        flushes.failAll(error);
        labelRequests.failAll(error);
    }

    /** Per-table transactions open after the last scan. */
    int openTransactions() {
        return openTransactions;
    }
}
