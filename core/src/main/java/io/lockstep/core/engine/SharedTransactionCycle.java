package io.lockstep.core.engine;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager thread's half of the multi-table engine (docs/architecture.md#the-multi-table-commit-cycle): the shared
 * transaction and its commit cycle.
 * One {@link #runOnce} step: take load replies, freeze idle clean regions, open the shared transaction once a frozen
 * chunk waits to be loaded (before its first load, never earlier: a subtask without data holds none of the server's
 * running-transaction slots) or recycle it at 80% of the server timeout, start a commit when due, stream frozen chunks
 * under the shared label (one load in flight per table), and commit once every chunk of the cut is loaded. When a
 * table's frozen chunks load is {@link LoadBatching}'s; the progress rows a commit carries in exactly-once mode are
 * {@link SharedCommitProgress}'s (both immutable).
 *
 * <p>Threads: everything here runs on the manager thread, except {@link #submitFlush} (task thread), which only
 * adds to {@link PendingRequests}, and the loads themselves ({@link LoadHandOff}, I/O threads). Replies are handled on
 * the manager thread, so the commit cycle never changes elsewhere. The manager-only fields need no lock.
 */
final class SharedTransactionCycle extends ManagerCycle<SharedTransactionState> {
    private static final Logger LOG = LoggerFactory.getLogger(SharedTransactionCycle.class);
    /** Rounds of the client's rollback (each with its own retries) before an open shared transaction is given up. */
    static final int ROLLBACK_ROUNDS = 3;

    /** A flush waits until every chunk up to {@code freezeSequence} is committed. */
    record FlushRequest(long freezeSequence, CompletableFuture<Void> done) implements PendingRequests.Request {
    }

    private final LabelGenerator labels;
    private final Supplier<String> database;
    /** The engine's clock, for the commit latency and the rollback rounds (a scan gets its time as nowMs). */
    private final Ticker ticker;
    /** When frozen chunks go out as loads under the open shared transaction, and how large a load is. */
    private final LoadBatching batching;
    /** Exactly-once mode: the progress rows each commit carries; null in the other modes. */
    private final SharedCommitProgress progress;

    /** Written by the manager thread only; volatile for diagnostics on other threads. */
    private volatile TransactionRef txn;
    /** The task thread submits, the manager thread completes. */
    private final PendingRequests<FlushRequest> flushes = new PendingRequests<>();

    // ---- manager thread only ----
    private boolean txnMayBeOpen;
    private long openedAtMs;
    /**
     * When the commit timer of the open cycle started: when the previous commit started (its cut), or the first
     * begin. Counting from the previous commit's start rather than its end keeps one commit per commit interval
     * however long a commit takes: a row written just after a cut is visible about one interval plus one commit
     * later, not one interval plus two commits.
     */
    private long timerStartMs;
    /** When the last commit started (its cut was taken), or -1 before the first one. */
    private long lastCommitStartMs = -1;
    private long cycle;
    private boolean dataLoaded;
    /** Rows of the job's tables loaded under the open shared transaction (progress rows not included). */
    private long rowsLoaded;
    private long cutSequence;
    private long committedSequence;

    SharedTransactionCycle(LoadEngineConfig config, TransactionClient client, LoadMetrics metrics, RegionTable regions,
                           MemoryBudget budget, FirstFailure failure, Executor ioExecutor, Runnable wakeManager,
                           Supplier<String> database, Ticker ticker) {
        super(LOG, "load engine failed", config, client, metrics, regions, budget, failure, ioExecutor, wakeManager,
                SharedTransactionState.NONE, SharedTransactionState.FAILED, SharedTransactionState.CLOSED);
        this.labels = new LabelGenerator(config.labelPrefix(), config.subtaskIndex(), config.runId());
        this.database = database;
        this.ticker = ticker;
        this.batching = new LoadBatching(config);
        this.progress = config.progress() == null ? null : new SharedCommitProgress(config.progress(),
                labels.runId(), config.subtaskIndex(), client, metrics, ticker);
    }

    /** Manager thread: one scan at time {@code nowMs}. Never throws; a failure moves the cycle to FAILED. */
    void runOnce(long nowMs) {
        SharedTransactionState s = state();
        if (s == SharedTransactionState.FAILED || s == SharedTransactionState.CLOSED) {
            failRequests(s == SharedTransactionState.CLOSED ? "the engine is closed" : "the engine failed");
            return;
        }
        try {
            for (LoadCompletion loaded : handOff.drain()) {
                dataLoaded = true;
                for (Chunk chunk : loaded.chunks()) {
                    rowsLoaded += chunk.rowCount();
                }
            }
            regions.freezeIdleClean(nowMs, config.miniIntervalMs(), budget.underPressure());
            ensureTransaction(nowMs);
            maybeStartCommit(nowMs);
            flushFrozen(nowMs);
            if (maybeFinishCommit(nowMs)) {
                flushFrozen(nowMs); // chunks that waited for the next label go out under it now
            }
            completeFlushes();
        } catch (TransactionException | RuntimeException e) {
            fail(e);
        }
    }

    /**
     * Manager thread, right after {@link #runOnce}: the time (ticker ms) of the cycle's next timer, the one a scan
     * must not sleep past; {@code Long.MAX_VALUE} if only a signal can bring work (the manager then sleeps until
     * {@code wakeManager}). The timers: the idle freeze of a clean partition ({@link #idleFreezeAfterMs} after its
     * last switch), and while the shared transaction is open, its recycling (80% of the server timeout), the commit
     * interval (once it holds data) and the load hold of a frozen chunk of a table with no load in flight
     * ({@link LoadBatching}). Everything else reaches the manager as a signal: a load reply ({@link LoadHandOff}), a
     * freeze or clean partition at a transaction end, a flush request, the soft memory limit, close. The client's
     * retry backoff runs inside the call on this thread and needs no deadline.
     *
     * @param nowMs the time the scan ran at
     * @return the next deadline, ms; at most {@code nowMs} means "scan again now"
     */
    long nextDeadlineMs(long nowMs) {
        SharedTransactionState s = state();
        if (s == SharedTransactionState.FAILED || s == SharedTransactionState.CLOSED) {
            return Long.MAX_VALUE;
        }
        long next = regions.nextIdleFreezeMs(idleFreezeAfterMs());
        if (s == SharedTransactionState.OPEN) {
            next = Math.min(next, openedAtMs + config.recycleAfterMs());
            if (hasData()) {
                next = Math.min(next, timerStartMs + config.commitIntervalMs());
            }
            next = Math.min(next, batching.nextLoadHoldEndMs(frozen, handOff.keys()));
        }
        return next;
    }

    /**
     * How long after its last switch a clean partition is due for the idle freeze, ms: the mini interval; under memory
     * pressure (when a scan freezes clean partitions of any age) at most the scanning frequency, so that a
     * transaction end under pressure does not wake the manager for a chunk per source transaction.
     */
    long idleFreezeAfterMs() {
        return budget.underPressure() ? Math.min(config.miniIntervalMs(), config.scanningFrequencyMs())
                : config.miniIntervalMs();
    }

    /** Task thread: asks for every chunk up to {@code freezeSequence} to be committed. */
    CompletableFuture<Void> submitFlush(long freezeSequence) {
        FlushRequest request = new FlushRequest(freezeSequence, new CompletableFuture<>());
        flushes.submit(request);
        wakeManager.run();
        return request.done();
    }

    /**
     * Begins the shared transaction once a frozen chunk waits to be loaded
     * (docs/architecture.md#the-multi-table-commit-cycle, step 3): before that chunk's load, so no load goes out under
     * a stray label, and never while there is nothing to load. Recycles an open one at 80% of the server timeout.
     */
    private void ensureTransaction(long nowMs) throws TransactionException {
        if (state() == SharedTransactionState.NONE) {
            if (!frozen.hasFrozen(Long.MAX_VALUE)) {
                return; // nothing to load: hold no running-transaction slot of the server
            }
            String db = database.get();
            if (db == null) {
                return; // nothing written yet: the database is not known
            }
            cycle++;
            TransactionRef next = TransactionRef.multiTable(db, labels.sharedLabel(cycle));
            txn = next;
            txnMayBeOpen = true;
            client.begin(next, config.serverTimeoutSeconds());
            openedAtMs = nowMs;
            timerStartMs = lastCommitStartMs >= 0 ? lastCommitStartMs : nowMs;
            dataLoaded = false;
            rowsLoaded = 0;
            moveTo(SharedTransactionState.OPEN);
            LOG.debug("opened shared transaction {}", next);
        } else if (state() == SharedTransactionState.OPEN && nowMs - openedAtMs >= config.recycleAfterMs()) {
            recycle(nowMs);
        }
    }

    /** The shared transaction reached 80% of the server timeout: commit what it holds, or roll it back and reopen. */
    private void recycle(long nowMs) throws TransactionException {
        SortedSet<Integer> stuck = regions.partitionsMidTransactionSince(openedAtMs);
        if (!stuck.isEmpty()) {
            throw new LoadEngineException("shared transaction " + txn + " has been open " + (nowMs - openedAtMs)
                    + " ms (80% of the server timeout of " + config.serverTimeoutSeconds() + " s) and must be "
                    + "recycled, but source partitions " + stuck + " have had a source transaction open since before "
                    + "it began: rows were written without a following transactionEnd=true");
        }
        if (hasData()) {
            LOG.info("recycling shared transaction {} by committing it", txn);
            startCommit(nowMs);
        } else {
            LOG.debug("recycling idle shared transaction {} by rolling it back", txn);
            client.rollback(txn);
            txnMayBeOpen = false;
            metrics.counter(MetricNames.ROLLBACKS).inc();
            moveTo(SharedTransactionState.NONE);
            ensureTransaction(nowMs);
        }
    }

    private boolean hasData() {
        return dataLoaded || !handOff.idle() || frozen.hasFrozen(Long.MAX_VALUE);
    }

    private void maybeStartCommit(long nowMs) {
        if (state() != SharedTransactionState.OPEN) {
            return;
        }
        boolean flushWaiting = false;
        for (FlushRequest r : flushes.pending()) {
            flushWaiting |= r.freezeSequence() > committedSequence;
        }
        boolean timerDue = nowMs - timerStartMs >= config.commitIntervalMs();
        if ((timerDue || flushWaiting) && hasData()) {
            startCommit(nowMs);
        }
    }

    private void startCommit(long nowMs) {
        cutSequence = regions.lastFreezeSequence();
        lastCommitStartMs = nowMs;
        moveTo(SharedTransactionState.DRAINING);
    }

    /**
     * Streams frozen chunks under the shared label: one load in flight per table; never an active chunk. While the
     * shared transaction is open (no commit due), a table loads when {@link LoadBatching} says so; a commit loads
     * everything of its cut.
     */
    private void flushFrozen(long nowMs) {
        long maxSequence;
        java.util.Set<String> tables;
        if (state() == SharedTransactionState.OPEN) {
            maxSequence = Long.MAX_VALUE;
            tables = batching.tablesReadyToLoad(frozen, nowMs, budget.underPressure());
        } else if (state() == SharedTransactionState.DRAINING) {
            maxSequence = cutSequence; // later chunks wait for the next label
            tables = frozen.tablesWithFrozen(maxSequence);
        } else {
            return;
        }
        for (String table : tables) {
            if (handOff.busy(table)) {
                continue;
            }
            List<Chunk> chunks = frozen.takeFrozen(table, maxSequence, batching.maxLoadRowBytes());
            if (!chunks.isEmpty()) {
                TransactionRef target = txn;
                Map<String, String> properties = config.loadPropertiesFor(target.database(), table);
                handOff.start(table, table, target, chunks, body -> client.load(target, table, body, properties));
            }
        }
    }

    /** Commits once every chunk of the cut is loaded; returns true if the cycle ended. */
    private boolean maybeFinishCommit(long nowMs) throws TransactionException {
        if (state() != SharedTransactionState.DRAINING || !handOff.idle() || frozen.hasFrozen(cutSequence)) {
            return false;
        }
        SourcePositionsByFreeze.Covered positions = progress == null ? null : regions.takePositionsCovered(cutSequence);
        if (!dataLoaded) {
            // nothing reached the label: a commit would fail with "no data"; positions of data-less source
            // transactions are not worth a commit (replaying them loads nothing)
            client.rollback(txn);
            metrics.counter(MetricNames.ROLLBACKS).inc();
        } else {
            if (progress != null) {
                progress.load(txn, cycle, positions);
            }
            moveTo(SharedTransactionState.COMMITTING);
            // from here the client settles the outcome (label-state query); never roll back after a commit attempt
            txnMayBeOpen = false;
            long startMs = ticker.nowMs();
            try {
                client.commit(txn);
            } catch (TransactionException e) {
                GivenUpCommit.rollBack(client, txn, "commit", e, metrics, LOG); // never undoes a committed label
                throw e;
            }
            metrics.histogram(MetricNames.COMMIT_LATENCY_MS).update(ticker.nowMs() - startMs);
            metrics.counter(MetricNames.COMMITS).inc();
            metrics.counter(MetricNames.COMMITTED_ROWS).inc(rowsLoaded);
            LOG.debug("committed shared transaction {} (chunks up to sequence {})", txn, cutSequence);
        }
        txnMayBeOpen = false;
        // ends without data (empty source transactions) count too: nothing of them is left to make visible
        metrics.counter(MetricNames.SOURCE_TRANSACTIONS_COMMITTED).inc(regions.takeEndsCovered(cutSequence));
        committedSequence = cutSequence;
        dataLoaded = false;
        rowsLoaded = 0;
        regions.resetTracker();
        moveTo(SharedTransactionState.NONE);
        completeFlushes();
        ensureTransaction(nowMs); // chunks past the cut wait: the next label opens before their load
        return true;
    }

    private void completeFlushes() {
        flushes.completeWhere(r -> r.freezeSequence() <= committedSequence, r -> r.done().complete(null));
    }

    /**
     * Rolls back a shared transaction that may be open (docs/reliability.md#open-transactions-left-behind): up to
     * {@value #ROLLBACK_ROUNDS} rounds of the client's rollback, each with its own retries and backoff (the client's
     * retry budget: {@code sink.max-retries}, {@code sink.retry.interval-ms}), so a FE that is briefly unreachable
     * does not leave the transaction holding a running-transaction slot until the server timeout. No round starts once
     * the engine's close timeout ({@code closeTimeoutMs}) has passed on the engine's ticker since the first one began;
     * on the manager thread the closing thread also interrupts it after that timeout. When every round fails the
     * label is named at WARN; a later run restored from a checkpoint rolls it back
     * ({@code io.lockstep.core.restart.EarlierRunSettlement}). Never one whose commit was sent: the client has settled
     * that one.
     */
    @Override
    void rollBackOpen(String when) {
        TransactionRef open = txn;
        if (!txnMayBeOpen || open == null) {
            return;
        }
        txnMayBeOpen = false;
        long startMs = ticker.nowMs();
        for (int round = 1; ; round++) {
            try {
                client.rollback(open);
                metrics.counter(MetricNames.ROLLBACKS).inc();
                LOG.info("rolled back shared transaction {} {}", open, when);
                return;
            } catch (TransactionException | RuntimeException e) {
                long spentMs = ticker.nowMs() - startMs;
                if (round >= ROLLBACK_ROUNDS || spentMs >= config.closeTimeoutMs()
                        || Thread.currentThread().isInterrupted()) {
                    LOG.warn("rollback of shared transaction {} {} failed {} time(s) in {} ms; the label stays open "
                            + "until a run restored from a checkpoint rolls it back, or the server timeout "
                            + "(sink.properties.timeout): {}", open, when, round, spentMs, e.getMessage());
                    return;
                }
                LOG.info("rollback of shared transaction {} {} failed, trying again: {}", open, when, e.getMessage());
            }
        }
    }

    @Override
    void failRequests(String why) {
        flushes.failAll(failure.failedBecause("flush failed: " + why));
    }

    /** The current shared transaction (the last one begun), or null before the first begin. */
    TransactionRef transaction() {
        return txn;
    }

    /** Manager thread: tables with a load in flight now. */
    java.util.Set<String> tablesInFlight() {
        return handOff.keys();
    }
}
