package io.lockstep.core.engine;

import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.buffer.SegmentPool;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single-table load engine of one sink subtask: one transaction stream load per table and flush
 * (docs/exactly-once.md; docs/protocol.md#what-the-official-starrocks-connector-does). At-least-once: a flush (every
 * {@code commitIntervalMs}, or {@link #flush()} at a checkpoint) prepares and commits each table's transaction.
 * Exactly-once: {@link #prepare(long)} at the checkpoint barrier flushes and prepares, returning the prepared labels
 * for Flink state; {@link #requestCommit} and {@link #requestAbort} settle them by label later.
 *
 * <p>Task thread: {@link #write}, {@link #flush}, {@link #prepare}, {@link #checkFailure}. Any thread:
 * {@link #requestCommit}, {@link #requestAbort} (they queue to the manager thread, which does all HTTP work except
 * the loads on the I/O executor). Asynchronous failures are kept (first wins) and rethrown on the next task-thread
 * call and by the next flush or prepare. Unlike the multi-table engine, tables may span databases.
 *
 * <p>With {@link LoadEngineConfig#loadMethod()} {@link LoadMethod#CLASSIC} (at-least-once only), each flush sends one
 * classic stream load per table carrying all its buffered rows, under a fresh label
 * ({@link io.lockstep.core.label.LabelGenerator#classicLabel}); a retry after a lost reply reuses the label, so the
 * server deduplicates it (docs/protocol.md#labels-and-label-state).
 *
 * <p>With {@link LoadMethod#TWO_PHASE_STREAM_LOAD} (Apache Doris, exactly-once only), every flush of a table (under
 * memory pressure, or at the barrier) is one load that is its own pre-committed transaction;
 * {@link #prepare(long)} returns every transaction of the epoch, and commit and abort go by label as above.
 */
public final class SingleTableLoadEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SingleTableLoadEngine.class);
    /** Single-table regions carry no source partition. */
    private static final int NO_PARTITION = -1;

    private final LoadEngineConfig config;
    private final DeliverySemantic semantic;
    private final Ticker ticker;
    /**
     * The engine's pooled chunk segments, for reuse: the task thread takes them while appending, the manager (or
     * an I/O, or the closing) thread returns them when their chunk is loaded or discarded (thread-safe).
     */
    private final SegmentPool segments;
    private final RegionTable regions;
    private final FirstFailure failure = new FirstFailure();
    private final MemoryBudget budget;
    private final TableTransactionCycle cycle;
    private final ManagerThread managerThread;
    private final ExecutorService ownedIoPool;
    /** Task thread only: the column-set check of partial-update tables. */
    private final PartialUpdateRows partialUpdates;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Task thread only: checkpoint ids must increase, so exactly-once labels never repeat. */
    private long lastPreparedCheckpointId;

    /**
     * An engine driven through {@link #runOnce(long)} by the caller; no thread is started.
     *
     * @param restoredCheckpointId the checkpoint restored from (0 for a fresh start); the first exactly-once
     *                             transactions are labelled for {@code restoredCheckpointId + 1}
     */
    public SingleTableLoadEngine(LoadEngineConfig config, TransactionClient client, LoadMetrics metrics,
                                 DeliverySemantic semantic, long restoredCheckpointId, Ticker ticker,
                                 Executor ioExecutor) {
        this(config, client, null, metrics, semantic, restoredCheckpointId, ticker, ioExecutor, null);
    }

    /**
     * An engine driven through {@link #runOnce(long)} by the caller, for {@link LoadMethod#CLASSIC}: every flush of
     * a table is one classic stream load through {@code streamLoader}; no transaction operation is sent.
     *
     * @throws IllegalArgumentException if the config's load method is not CLASSIC, or the semantic is exactly-once
     *                                  (a classic stream load commits at once and cannot be held prepared)
     */
    public SingleTableLoadEngine(LoadEngineConfig config, StreamLoader streamLoader, LoadMetrics metrics,
                                 DeliverySemantic semantic, Ticker ticker, Executor ioExecutor) {
        this(config, null, Objects.requireNonNull(streamLoader, "streamLoader"), metrics, semantic, 0, ticker,
                ioExecutor, null);
    }

    private SingleTableLoadEngine(LoadEngineConfig config, TransactionClient client, StreamLoader streamLoader,
                                  LoadMetrics metrics, DeliverySemantic semantic, long restoredCheckpointId,
                                  Ticker ticker, Executor ioExecutor, ExecutorService ownedIoPool) {
        this.config = Objects.requireNonNull(config, "config");
        this.partialUpdates = new PartialUpdateRows(config);
        this.semantic = Objects.requireNonNull(semantic, "semantic");
        checkLoadMethod(config.loadMethod(), semantic, streamLoader != null);
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        if (restoredCheckpointId < 0) {
            throw new IllegalArgumentException("restoredCheckpointId must be >= 0, was " + restoredCheckpointId);
        }
        this.lastPreparedCheckpointId = restoredCheckpointId;
        this.ownedIoPool = ownedIoPool;
        // the commit interval is a deadline; the scanning frequency stays the longest sleep (memory pressure)
        this.managerThread = new ManagerThread("lockstep-table-manager-" + config.subtaskIndex(), ticker,
                config.scanningFrequencyMs(), this::runOnceUntilNextDeadline, t -> cycle().fail(t),
                () -> cycle().shutdown());
        this.budget = new MemoryBudget(config.bufferSizeBytes(), config.hardLimitBytes(), managerThread::wake);
        this.segments = new SegmentPool(config.bufferSizeBytes(), config.hardLimitBytes(), budget::usedBytes);
        this.regions = new RegionTable(segments, config.loadFormat().rowSeparator());
        this.cycle = new TableTransactionCycle(config, client, streamLoader, metrics, regions, budget, failure, ioExecutor,
                managerThread::wake, semantic, restoredCheckpointId, ticker);
        metrics.gauge(MetricNames.BUFFERED_BYTES, budget::usedBytes);
        metrics.gauge(MetricNames.OPEN_TRANSACTIONS, cycle::openTransactions);
    }

    /** Creates an engine on the system clock with its own I/O pool and starts its manager thread. */
    public static SingleTableLoadEngine start(LoadEngineConfig config, TransactionClient client, LoadMetrics metrics,
                                              DeliverySemantic semantic, long restoredCheckpointId) {
        checkLoadMethod(config.loadMethod(), semantic, false);
        ExecutorService pool = ioPool(config);
        return startOn(new SingleTableLoadEngine(config, client, null, metrics, semantic, restoredCheckpointId,
                Ticker.system(), pool, pool));
    }

    /**
     * Creates a {@link LoadMethod#CLASSIC} at-least-once engine on the system clock with its own I/O pool and starts
     * its manager thread.
     *
     * @throws IllegalArgumentException if the config's load method is not CLASSIC
     */
    public static SingleTableLoadEngine startClassic(LoadEngineConfig config, StreamLoader streamLoader,
                                                     LoadMetrics metrics) {
        Objects.requireNonNull(streamLoader, "streamLoader");
        checkLoadMethod(config.loadMethod(), DeliverySemantic.AT_LEAST_ONCE, true);
        ExecutorService pool = ioPool(config);
        return startOn(new SingleTableLoadEngine(config, null, streamLoader, metrics, DeliverySemantic.AT_LEAST_ONCE,
                0, Ticker.system(), pool, pool));
    }

    private static ExecutorService ioPool(LoadEngineConfig config) {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(config.ioThreads(), r -> {
            Thread t = new Thread(r, "lockstep-table-io-" + config.subtaskIndex() + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    private static SingleTableLoadEngine startOn(SingleTableLoadEngine engine) {
        engine.started.set(true);
        engine.managerThread.start();
        return engine;
    }

    /**
     * CLASSIC goes with a stream loader and at-least-once only; TRANSACTION with a transaction client.
     *
     * @throws IllegalArgumentException naming the load method and what does not fit it
     */
    static void checkLoadMethod(LoadMethod method, DeliverySemantic semantic, boolean hasStreamLoader) {
        if (method == LoadMethod.TWO_PHASE_STREAM_LOAD && semantic != DeliverySemantic.EXACTLY_ONCE) {
            throw new IllegalArgumentException("loadMethod TWO_PHASE_STREAM_LOAD is EXACTLY_ONCE only: its loads stay "
                    + "pre-committed until a checkpoint completes; at-least-once uses loadMethod CLASSIC");
        }
        if (method == LoadMethod.CLASSIC && semantic == DeliverySemantic.EXACTLY_ONCE) {
            throw new IllegalArgumentException("loadMethod CLASSIC cannot be EXACTLY_ONCE: a classic stream load "
                    + "commits by itself and cannot be held prepared until the checkpoint completes; use "
                    + "loadMethod TRANSACTION or AT_LEAST_ONCE");
        }
        if ((method == LoadMethod.CLASSIC) != hasStreamLoader) {
            throw new IllegalArgumentException("loadMethod " + method + " needs "
                    + (method == LoadMethod.CLASSIC ? "a StreamLoader (use the classic constructor or startClassic)"
                    : "a TransactionClient (the classic constructor is for loadMethod CLASSIC only)"));
        }
    }

    private TableTransactionCycle cycle() {
        return cycle;
    }

    /**
     * Task thread: buffers one row for {@code database.table}; blocks at the hard limit (2 × buffer-size) for at most
     * {@code maxBlockMs}.
     *
     * @throws LoadEngineException      if the engine failed earlier
     * @throws IllegalArgumentException if {@link LoadEngineConfig#loadFormat()} refuses the row (JSON: not an object)
     * @throws io.lockstep.core.buffer.BufferExhaustedException if the row can never fit or no room appeared in time
     * @throws InterruptedException     if interrupted while blocked
     */
    public void write(String database, String table, byte[] given) throws InterruptedException {
        byte[] row = given;
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(row, "row");
        // once per row: the row's description is built only when a message needs it
        if (closed.get() || failure.get() != null) {
            checkUsable("write to " + database + "." + table);
        }
        if (!config.loadFormat().isWellFormed(row)) {
            throw config.loadFormat().malformedRow(row, database + "." + table);
        }
        partialUpdates.check(database, table, row, database + "." + table);
        row = config.encodeRow(database, table, row);
        try {
            budget.reserve(row.length, config.maxBlockMs(), () -> "row for " + database + "." + table);
        } catch (io.lockstep.core.buffer.BufferExhaustedException e) {
            failure.rethrowIfFailed("write to " + database + "." + table);
            throw e;
        }
        try {
            regions.writeUnit(new RegionKey(NO_PARTITION, database, table), row);
        } catch (RuntimeException e) {
            budget.release(row.length);
            throw e;
        }
    }

    /**
     * Task thread, at-least-once: asks for everything buffered so far to be loaded, prepared and committed (CLASSIC:
     * one committing stream load per table).
     *
     * @return completes (with an empty list) once committed
     * @throws IllegalStateException if the engine is exactly-once (use {@link #requestPrepare(long)}, whose
     *                               checkpoint id names the transactions)
     */
    public CompletableFuture<List<PreparedTransaction>> requestFlush() {
        if (semantic != DeliverySemantic.AT_LEAST_ONCE) {
            throw new IllegalStateException("flush commits by itself only at-least-once; an exactly-once engine "
                    + "prepares at a checkpoint: call prepare(checkpointId)");
        }
        checkUsable("flush");
        return cycle.submitFlush(regions.freezeForFlush(ticker.nowMs()), -1);
    }

    /** Task thread: {@link #requestFlush()} and wait up to {@code flushTimeoutMs}. */
    public void flush() throws InterruptedException {
        await(requestFlush(), "flush");
    }

    /**
     * Task thread, exactly-once, at the barrier of {@code checkpointId}: loads everything buffered so far and
     * prepares each table's transaction.
     *
     * @return completes with the prepared transactions (none if nothing was written since the last checkpoint)
     * @throws IllegalArgumentException if {@code checkpointId} does not increase
     * @throws IllegalStateException    if the engine is at-least-once
     */
    public CompletableFuture<List<PreparedTransaction>> requestPrepare(long checkpointId) {
        if (semantic != DeliverySemantic.EXACTLY_ONCE) {
            throw new IllegalStateException("prepare at a checkpoint needs exactly-once; this engine is " + semantic);
        }
        checkUsable("prepare for checkpoint " + checkpointId);
        if (checkpointId <= lastPreparedCheckpointId) {
            throw new IllegalArgumentException("checkpoint id " + checkpointId + " does not increase (last "
                    + lastPreparedCheckpointId + "); exactly-once labels would repeat");
        }
        lastPreparedCheckpointId = checkpointId;
        return cycle.submitFlush(regions.freezeForFlush(ticker.nowMs()), checkpointId);
    }

    /** Task thread: {@link #requestPrepare(long)} and wait up to {@code flushTimeoutMs}. */
    public List<PreparedTransaction> prepare(long checkpointId) throws InterruptedException {
        return await(requestPrepare(checkpointId), "prepare for checkpoint " + checkpointId);
    }

    /**
     * Any thread: commits prepared transactions by label on the manager thread. Committing a label that is already
     * committed succeeds (the client settles by label state).
     *
     * @return completes when all are committed; a failure also fails the engine (the checkpoint's data is at risk)
     */
    public CompletableFuture<Void> requestCommit(Collection<PreparedTransaction> txns) {
        requireTransactions("commit by label");
        return cycle.submitLabels(List.copyOf(txns), true);
    }

    /** Any thread: rolls back prepared transactions by label; an already aborted label succeeds. */
    public CompletableFuture<Void> requestAbort(Collection<PreparedTransaction> txns) {
        requireTransactions("abort by label");
        return cycle.submitLabels(List.copyOf(txns), false);
    }

    /** Task thread: throws the first asynchronous failure, if any. */
    public void checkFailure() {
        failure.rethrowIfFailed("call");
    }

    /**
     * Any thread, once: {@code action} runs when the engine records its first asynchronous failure, on the recording
     * (manager or I/O) thread, or at once if the engine already failed; at most once. It must not block or touch the
     * task's state; it only hands the news over (e.g. posts a mail to the Flink task's mailbox, whose action then calls
     * {@link #checkFailure}).
     *
     * @throws IllegalStateException if a listener is already registered
     */
    public void onFirstFailure(Runnable action) {
        failure.whenFailed(action);
    }

    /** Manager thread: one scan at {@code nowMs} (tests call it directly). */
    public void runOnce(long nowMs) {
        cycle.runOnce(nowMs);
    }

    /**
     * Manager thread: one scan now, then the time (ticker ms) of the cycle's next timer
     * ({@link TableTransactionCycle#nextDeadlineMs}).
     */
    private long runOnceUntilNextDeadline() {
        long nowMs = ticker.nowMs();
        cycle.runOnce(nowMs);
        return cycle.nextDeadlineMs();
    }

    /** The flush cycle's state now (any thread). */
    public TableFlushState state() {
        return cycle.state();
    }

    /** Bytes buffered in all regions now. */
    public long bufferedBytes() {
        return budget.usedBytes();
    }

    /** Stops the manager thread (bounded), rolls back open transactions, releases buffers. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        budget.close(new LoadEngineException("the engine is closed"));
        if (started.get()) {
            try {
                if (!managerThread.stop(config.closeTimeoutMs())) {
                    LOG.warn("manager thread of subtask {} did not end", config.subtaskIndex());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            cycle.shutdown();
        }
        if (ownedIoPool != null) {
            ownedIoPool.shutdownNow();
        }
    }

    private <T> T await(CompletableFuture<T> done, String what) throws InterruptedException {
        T result;
        try {
            result = done.get(config.flushTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new LoadEngineException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new LoadEngineException(what + " did not finish within " + config.flushTimeoutMs()
                    + " ms; the flush cycle is " + cycle.state());
        }
        checkFailure();
        return result;
    }

    private void requireTransactions(String call) {
        if (config.loadMethod() == LoadMethod.CLASSIC) {
            throw new IllegalStateException(call + " needs loadMethod TRANSACTION; this engine is "
                    + config.loadMethod());
        }
    }

    private void checkUsable(String call) {
        failure.rethrowIfFailed(call);
        if (closed.get()) {
            throw new IllegalStateException(call + " refused: the engine is closed");
        }
    }

    /** Package-private, for tests. */
    MemoryBudget budget() {
        return budget;
    }

    /** The engine's segment pool (for tests). */
    SegmentPool segmentPool() {
        return segments;
    }
}
