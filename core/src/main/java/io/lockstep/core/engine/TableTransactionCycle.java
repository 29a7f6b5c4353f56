package io.lockstep.core.engine;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.ChunkState;
import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager thread's half of the single-table engine: one transaction per table and flush
 * (docs/protocol.md#what-the-official-starrocks-connector-does). Frozen chunks stream into the table's open transaction
 * (begun lazily at its first load; one load in flight per table). A flush takes a cut, loads what it covers, then
 * prepares every open transaction and either commits it (at-least-once) or hands it back as a
 * {@link PreparedTransaction} (exactly-once, checkpoint); chunks frozen after the cut go to the next transactions.
 * Commit and abort of given labels also run here. With {@link LoadMethod#CLASSIC} there is no transaction: nothing
 * loads until a flush's cut (timer, {@code flush()} or memory pressure), then each table's rows up to the cut go out as
 * one classic stream load under a fresh label. With {@link LoadMethod#TWO_PHASE_STREAM_LOAD} (Doris, exactly-once)
 * likewise nothing loads before a cut (memory pressure or the barrier); each table's rows up to the cut go out as ONE
 * load that is its own pre-committed transaction, labelled {@code ...-{checkpoint}_{flush}}; loaded ones wait in a
 * {@link TwoPhaseEpoch} until the barrier hands the whole epoch out, and are aborted at close or failure if it never
 * does.
 *
 * <p>Threads: everything runs on the manager thread except the {@code submit*} methods (task thread or the Flink
 * committer) and load bodies (I/O threads), which only add to concurrent queues. Manager-only fields need no lock.
 */
final class TableTransactionCycle {
    private static final Logger LOG = LoggerFactory.getLogger(TableTransactionCycle.class);

    /** Flush every chunk up to {@code freezeSequence}; {@code checkpointId} is -1 for a plain flush. */
    record FlushRequest(long freezeSequence, long checkpointId, CompletableFuture<List<PreparedTransaction>> done) {
    }

    /** Commit ({@code commit}) or abort the given prepared transactions. */
    record LabelRequest(List<PreparedTransaction> txns, boolean commit, CompletableFuture<Void> done) {
    }

    /** A table's transaction in the current cycle. */
    private static final class TableTxn {
        final TransactionRef ref;
        boolean loaded;

        TableTxn(TransactionRef ref) {
            this.ref = ref;
        }
    }

    private final LoadEngineConfig config;
    private final TransactionClient client;
    /** Set only for {@link LoadMethod#CLASSIC}: each table's flush is one classic stream load, no transaction ops. */
    private final StreamLoader classicLoader;
    private final LoadMetrics metrics;
    private final RegionTable regions;
    private final MemoryBudget budget;
    private final LabelGenerator labels;
    private final FirstFailure failure;
    private final Executor ioExecutor;
    private final Runnable wakeManager;
    private final DeliverySemantic semantic;
    private final Ticker ticker;
    /** One load per transaction, pre-committed by the load (Doris): nothing loads before a cut. */
    private final boolean twoPhaseLoad;

    /** Written by the manager thread only; volatile so any thread may read it. */
    private volatile TableFlushState state = TableFlushState.ACCEPTING;
    private final Queue<LoadCompletion> completions = new ConcurrentLinkedQueue<>();
    private final Queue<FlushRequest> flushRequests = new ConcurrentLinkedQueue<>();
    private final Queue<LabelRequest> labelRequests = new ConcurrentLinkedQueue<>();
    /** Open per-table transactions; written by the manager thread after each scan, read by the metrics gauge. */
    private volatile int openTransactions;

    // ---- manager thread only ----
    private final Map<String, TableTxn> open = new LinkedHashMap<>();
    private final Map<String, List<Chunk>> inFlight = new HashMap<>();
    private final List<FlushRequest> pendingFlushes = new ArrayList<>();
    private long cutSequence;
    private long cycleStartMs = -1;
    private long atLeastOnceSequence;
    private long classicSequence;
    /** Exactly-once: transactions begun now are named for the checkpoint after the last prepared one. */
    private long labelCheckpointId;
    /** TWO_PHASE_STREAM_LOAD: the current epoch's pre-committed transactions, not yet handed out. */
    private final TwoPhaseEpoch epoch = new TwoPhaseEpoch();

    /** @param classicLoader non-null exactly when {@code config.loadMethod()} is {@link LoadMethod#CLASSIC} */
    TableTransactionCycle(LoadEngineConfig config, TransactionClient client, StreamLoader classicLoader,
                          LoadMetrics metrics, RegionTable regions, MemoryBudget budget, FirstFailure failure,
                          Executor ioExecutor, Runnable wakeManager, DeliverySemantic semantic,
                          long restoredCheckpointId, Ticker ticker) {
        this.config = config;
        this.client = client;
        this.classicLoader = classicLoader;
        this.metrics = metrics;
        this.regions = regions;
        this.budget = budget;
        this.labels = new LabelGenerator(config.labelPrefix(), config.subtaskIndex(), config.runId());
        this.failure = failure;
        this.ioExecutor = ioExecutor;
        this.wakeManager = wakeManager;
        this.semantic = semantic;
        this.labelCheckpointId = restoredCheckpointId + 1;
        this.ticker = ticker;
        this.twoPhaseLoad = config.loadMethod() == LoadMethod.TWO_PHASE_STREAM_LOAD;
    }

    /** Manager thread: one scan at {@code nowMs}. Never throws; a failure moves the cycle to FAILED. */
    void runOnce(long nowMs) {
        if (cycleStartMs < 0) {
            cycleStartMs = nowMs;
        }
        TableFlushState s = state;
        if (s == TableFlushState.FAILED || s == TableFlushState.CLOSED) {
            failRequests(s == TableFlushState.CLOSED ? "the engine is closed" : "the engine failed");
            return;
        }
        try {
            drainCompletions();
            for (FlushRequest r; (r = flushRequests.poll()) != null; ) {
                pendingFlushes.add(r);
            }
            runLabelRequests();
            if (state == TableFlushState.ACCEPTING) {
                boolean timerDue = semantic == DeliverySemantic.AT_LEAST_ONCE
                        && nowMs - cycleStartMs >= config.commitIntervalMs();
                if (timerDue || budget.underPressure()) {
                    regions.freezeIdleClean(nowMs, 0, true); // single-table regions are always clean
                }
                // classic and two-phase: a flush is the only load of a table, so memory pressure starts one
                boolean classicPressure = (classicLoader != null || twoPhaseLoad) && budget.underPressure();
                if (!pendingFlushes.isEmpty() || ((timerDue || classicPressure) && hasData())) {
                    cutSequence = regions.lastFreezeSequence();
                    moveTo(TableFlushState.FLUSHING);
                } else if (timerDue) {
                    cycleStartMs = nowMs;
                }
            }
            flushFrozen();
            if (maybeFinishFlush(nowMs)) {
                flushFrozen();
            }
        } catch (TransactionException | RuntimeException e) {
            fail(e);
        }
        openTransactions = open.size();
    }

    CompletableFuture<List<PreparedTransaction>> submitFlush(long freezeSequence, long checkpointId) {
        FlushRequest request = new FlushRequest(freezeSequence, checkpointId, new CompletableFuture<>());
        flushRequests.add(request);
        wakeManager.run();
        return request.done();
    }

    CompletableFuture<Void> submitLabels(List<PreparedTransaction> txns, boolean commit) {
        LabelRequest request = new LabelRequest(List.copyOf(txns), commit, new CompletableFuture<>());
        labelRequests.add(request);
        wakeManager.run();
        return request.done();
    }

    private boolean hasData() {
        return !open.isEmpty() || !inFlight.isEmpty() || regions.hasFrozen(Long.MAX_VALUE);
    }

    private void flushFrozen() throws TransactionException {
        long maxSequence;
        if (state == TableFlushState.ACCEPTING) {
            maxSequence = Long.MAX_VALUE;
        } else if (state == TableFlushState.FLUSHING) {
            maxSequence = cutSequence;
        } else {
            return;
        }
        if ((classicLoader != null || twoPhaseLoad) && state != TableFlushState.FLUSHING) {
            return; // classic, two-phase: a table's flush is ONE load of all its rows up to the cut, nothing before
        }
        for (RegionKey key : regions.regionsWithFrozen(maxSequence)) {
            String id = key.database() + "." + key.table();
            if (inFlight.containsKey(id)) {
                continue;
            }
            if (classicLoader != null) { // every region was frozen before the cut: this takes all the table's rows
                List<Chunk> chunks = regions.takeFrozen(key, maxSequence);
                if (!chunks.isEmpty()) {
                    String label = labels.classicLabel(key.table(), ++classicSequence);
                    startLoad(id, TransactionRef.singleTable(key.database(), key.table(), label), chunks);
                }
                continue;
            }
            if (twoPhaseLoad) { // every region was frozen before the cut: one load, its own transaction
                List<Chunk> chunks = regions.takeFrozen(key, maxSequence);
                if (!chunks.isEmpty()) {
                    TransactionRef ref = epoch.nextTransaction(labels, key.database(), key.table(),
                            labelCheckpointId);
                    client.begin(ref, config.serverTimeoutSeconds());
                    open.put(id, new TableTxn(ref));
                    startLoad(id, ref, chunks);
                }
                continue;
            }
            TableTxn txn = open.get(id);
            if (txn == null) {
                txn = begin(key);
                open.put(id, txn);
            }
            List<Chunk> chunks = regions.takeFrozen(key, maxSequence);
            if (!chunks.isEmpty()) {
                startLoad(id, txn.ref, chunks);
            }
        }
    }

    private TableTxn begin(RegionKey key) throws TransactionException {
        String label = semantic == DeliverySemantic.AT_LEAST_ONCE
                ? labels.atLeastOnceLabel(key.table(), ++atLeastOnceSequence)
                : labels.exactlyOnceLabel(key.table(), labelCheckpointId);
        TransactionRef ref = TransactionRef.singleTable(key.database(), key.table(), label);
        client.begin(ref, config.serverTimeoutSeconds());
        return new TableTxn(ref);
    }

    private void startLoad(String id, TransactionRef target, List<Chunk> chunks) {
        byte[] body = Chunk.writeBody(chunks);
        Map<String, String> properties = config.loadPropertiesFor(target.database(), target.table());
        inFlight.put(id, chunks);
        ioExecutor.execute(() -> {
            LoadCompletion done;
            try {
                LoadReply reply = classicLoader == null
                        ? client.load(target, target.table(), body, properties)
                        : classicLoader.load(target.database(), target.table(), target.label(), body, properties);
                done = new LoadCompletion(id, target.table(), target, chunks, body.length, reply, null);
            } catch (Throwable t) {
                done = new LoadCompletion(id, target.table(), target, chunks, body.length, null, t);
            }
            completions.add(done);
            wakeManager.run();
        });
    }

    private void drainCompletions() {
        for (LoadCompletion done; (done = completions.poll()) != null; ) {
            inFlight.remove(done.key());
            long rowBytes = 0;
            int rows = 0;
            ChunkState outcome = done.failure() == null ? ChunkState.LOADED : ChunkState.DISCARDED;
            for (Chunk chunk : done.chunks()) {
                rowBytes += chunk.rowBytes();
                rows += chunk.rowCount();
                chunk.moveTo(outcome);
            }
            if (done.failure() != null) {
                LoadEngineException e = new LoadEngineException("load of " + rows + " rows (" + done.bodyBytes()
                        + " bytes) into " + done.key() + " under " + done.txn() + " failed: "
                        + done.failure().getMessage(), done.failure());
                failure.record(e); // before the release: a blocked writer must wake to the failure
                budget.close(e);
                budget.release(rowBytes);
                throw e;
            }
            budget.release(rowBytes);
            TableTxn txn = open.get(done.key());
            if (txn != null) {
                txn.loaded = true;
            }
            if (twoPhaseLoad && txn != null) { // the load pre-committed its own transaction
                open.remove(done.key());
                epoch.loaded(txn.ref);
            }
            metrics.tableCounter(MetricNames.LOADS, done.txn().database(), done.table()).inc();
            metrics.tableCounter(MetricNames.LOADED_BYTES, done.txn().database(), done.table()).inc(done.bodyBytes());
            metrics.tableCounter(MetricNames.LOADED_ROWS, done.txn().database(), done.table()).inc(rows);
            if (classicLoader != null) {
                metrics.counter(MetricNames.COMMITS).inc(); // a classic stream load commits by itself
            }
        }
    }

    /** Prepares (and, at-least-once, commits) every open transaction once the cut is loaded. */
    private boolean maybeFinishFlush(long nowMs) throws TransactionException {
        if (state != TableFlushState.FLUSHING || !inFlight.isEmpty() || regions.hasFrozen(cutSequence)) {
            return false;
        }
        List<PreparedTransaction> prepared = new ArrayList<>();
        for (Iterator<TableTxn> it = open.values().iterator(); it.hasNext(); ) {
            TableTxn txn = it.next();
            it.remove(); // settled below, or the engine fails; never retried under this cycle
            if (!txn.loaded) {
                client.rollback(txn.ref); // a prepare with no data fails on the server (docs/protocol.md#the-emulators-state-tables)
                continue;
            }
            if (semantic == DeliverySemantic.AT_LEAST_ONCE) {
                long startMs = ticker.nowMs();
                prepareAndCommit(txn.ref);
                metrics.histogram(MetricNames.COMMIT_LATENCY_MS).update(ticker.nowMs() - startMs);
                metrics.counter(MetricNames.COMMITS).inc();
            } else {
                client.prepare(txn.ref);
                prepared.add(new PreparedTransaction(txn.ref.database(), txn.ref.table(), txn.ref.label()));
            }
        }
        long checkpointId = -1;
        List<FlushRequest> finished = new ArrayList<>();
        for (Iterator<FlushRequest> it = pendingFlushes.iterator(); it.hasNext(); ) {
            FlushRequest r = it.next();
            if (r.freezeSequence() <= cutSequence) {
                checkpointId = Math.max(checkpointId, r.checkpointId());
                finished.add(r);
                it.remove();
            }
        }
        if (twoPhaseLoad && checkpointId >= 0) { // the barrier hands out the whole epoch; a pressure flush keeps it
            prepared.addAll(epoch.handOut());
        }
        finished.forEach(r -> r.done().complete(List.copyOf(prepared)));
        if (semantic == DeliverySemantic.EXACTLY_ONCE && checkpointId >= 0) {
            labelCheckpointId = checkpointId + 1;
        }
        cycleStartMs = nowMs;
        moveTo(TableFlushState.ACCEPTING);
        return true;
    }

    /** At-least-once: prepare and commit; a transaction whose prepare or commit is given up is rolled back. */
    private void prepareAndCommit(TransactionRef ref) throws TransactionException {
        String step = "prepare";
        try {
            client.prepare(ref);
            step = "commit";
            client.commit(ref);
        } catch (TransactionException e) {
            GivenUpCommit.rollBack(client, ref, step, e, metrics, LOG);
            throw e;
        }
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

    private void moveTo(TableFlushState next) {
        state = state.checkMove(next);
    }

    /** Manager thread: records the failure (first wins), moves to FAILED, wakes writers, fails requests. */
    void fail(Throwable cause) {
        LoadEngineException error = failure.recordAndLog(cause, LOG, "single-table load engine failed");
        if (state != TableFlushState.FAILED && state != TableFlushState.CLOSED) {
            moveTo(TableFlushState.FAILED);
        }
        budget.close(error);
        failRequests("the engine failed");
        rollbackOpen("after a failure");
    }

    /** Manager thread (or the closing thread once it ended): rolls back open transactions, discards, releases. */
    void shutdown() {
        rollbackOpen("at close");
        if (state != TableFlushState.CLOSED) {
            moveTo(TableFlushState.CLOSED);
        }
        long bytes = regions.discardAll();
        for (List<Chunk> chunks : inFlight.values()) {
            for (Chunk chunk : chunks) {
                bytes += chunk.rowBytes();
                chunk.moveTo(ChunkState.DISCARDED);
            }
        }
        inFlight.clear();
        completions.clear();
        budget.release(bytes);
        failRequests("the engine is closed");
    }

    /** Rolls back transactions of the current cycle (never prepared ones handed to the Flink layer). */
    private void rollbackOpen(String when) {
        for (PreparedTransaction txn : epoch.takeUnhandedOut()) { // two-phase loads not handed out yet
            try {
                client.rollback(txn.ref());
                metrics.counter(MetricNames.ROLLBACKS).inc();
            } catch (TransactionException | RuntimeException e) {
                LOG.warn("abort of pre-committed {} {} failed (the server's pre-commit timeout will end it): {}",
                        txn.ref(), when, e.getMessage());
            }
        }
        for (TableTxn txn : open.values()) {
            try {
                client.rollback(txn.ref);
                metrics.counter(MetricNames.ROLLBACKS).inc();
            } catch (TransactionException | RuntimeException e) {
                LOG.warn("rollback of {} {} failed (the server timeout will end it): {}", txn.ref, when,
                        e.getMessage());
            }
        }
        open.clear();
        openTransactions = 0;
    }

    private void failRequests(String why) {
        Throwable cause = failure.get();
        LoadEngineException error = cause == null ? new LoadEngineException(why)
                : new LoadEngineException(why + ": " + cause.getMessage(), cause);
        for (FlushRequest r; (r = flushRequests.poll()) != null; ) {
            pendingFlushes.add(r);
        }
        pendingFlushes.forEach(r -> r.done().completeExceptionally(error));
        pendingFlushes.clear();
        for (LabelRequest r; (r = labelRequests.poll()) != null; ) {
            r.done().completeExceptionally(error);
        }
    }

    TableFlushState state() {
        return state;
    }

    /** Per-table transactions open after the last scan. */
    int openTransactions() {
        return openTransactions;
    }
}
