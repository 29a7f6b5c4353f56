package io.lockstep.core.engine;

import io.lockstep.core.buffer.BufferExhaustedException;
import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.buffer.SegmentPool;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.progress.CommitPosition;
import io.lockstep.core.progress.SourcePartition;
import io.lockstep.core.time.Ticker;

import java.util.Map;
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
 * The multi-table load engine of one sink subtask (docs/architecture.md#the-multi-table-commit-cycle): every table
 * written in a commit cycle loads under one shared StarRocks transaction ({@code transaction_type: multi},
 * docs/protocol.md#multi-table-transactions), committed at once.
 *
 * <p>Task thread (the Flink operator thread; the only caller of these): {@link #write}, {@link #txnEnd},
 * {@link #requestFlush}, {@link #flush}, {@link #checkFailure}. {@code write} and {@code txnEnd} never do
 * HTTP; {@code write} blocks only at the hard buffer limit. Manager thread: {@link #runOnce}, called by the thread
 * that {@link #start(LoadEngineConfig, TransactionClient, LoadMetrics)} starts (at the cycle's next deadline or when
 * signalled, never periodically: {@link SharedTransactionCycle#nextDeadlineMs}), or directly by tests (the
 * {@linkplain #MultiTableLoadEngine(LoadEngineConfig, TransactionClient, LoadMetrics, Ticker, Executor) constructor}
 * starts no thread). Loads run on the I/O executor; their replies are handled by {@code runOnce}.
 *
 * <p>Any asynchronous failure (load, begin, commit, recycle check) is kept (the first one wins) and rethrown by the
 * next task-thread call and by the next flush, so a checkpoint never succeeds after a lost load. Limits kept from
 * the design: one database per engine; atomicity per subtask and per source partition. At-least-once, unless
 * {@link LoadEngineConfig#progress()} is set: then each commit also loads the committed source positions
 * ({@link #txnEnd(int, SourcePartition, long, CommitPosition)}) into the progress table, and the caller settles earlier runs and
 * drops replayed source transactions first ({@code io.lockstep.core.restart.ProgressOpening}).
 */
public final class MultiTableLoadEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MultiTableLoadEngine.class);

    private final LoadEngineConfig config;
    private final Ticker ticker;
    /**
     * The engine's pooled chunk segments, for reuse: the task thread takes them while appending, the manager (or
     * an I/O, or the closing) thread returns them when their chunk is loaded or discarded (thread-safe).
     */
    private final SegmentPool segments;
    private final RegionTable regions;
    private final FirstFailure failure = new FirstFailure();
    private final MemoryBudget budget;
    private final SharedTransactionCycle cycle;
    private final ManagerThread managerThread;
    /** The I/O pool this engine created and must shut down; null when the caller supplied the executor. */
    private final ExecutorService ownedIoPool;
    /** The one database of the shared transactions: fixed by the config or by the first row. */
    private final TransactionDatabase database;
    /** Task thread only: the column-set check of partial-update tables. */
    private final PartialUpdateRows partialUpdates;
    /**
     * Under memory pressure, the row bytes of a partition's active chunks that switch at its next transaction end
     * inside the mini interval: buffer-size / 64, at most 1 MiB (at least 1 byte: every transaction end).
     */
    private final long pressureSwitchBytes;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * An engine whose manager steps are driven by the caller through {@link #runOnce()}; no thread is started.
     *
     * @param ioExecutor runs load requests (tests pass a manual executor)
     */
    public MultiTableLoadEngine(LoadEngineConfig config, TransactionClient client, LoadMetrics metrics, Ticker ticker,
                                Executor ioExecutor) {
        this(config, client, metrics, ticker, ioExecutor, null);
    }

    private MultiTableLoadEngine(LoadEngineConfig config, TransactionClient client, LoadMetrics metrics,
                                 Ticker ticker, Executor ioExecutor, ExecutorService ownedIoPool) {
        this.config = Objects.requireNonNull(config, "config");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.ownedIoPool = ownedIoPool;
        this.database = new TransactionDatabase(config.database());
        this.partialUpdates = new PartialUpdateRows(config);
        this.pressureSwitchBytes = Math.max(1, Math.min(1L << 20, config.bufferSizeBytes() / 64));
        // no periodic scan: the cycle's timers are deadlines, everything else signals the manager
        this.managerThread = new ManagerThread("lockstep-manager-" + config.subtaskIndex(), ticker, Long.MAX_VALUE,
                this::runOnceUntilNextDeadline, this::crash, this::shutdownOnManager);
        this.budget = new MemoryBudget(config.bufferSizeBytes(), config.hardLimitBytes(), managerThread::wake);
        this.segments = new SegmentPool(config.bufferSizeBytes(), config.hardLimitBytes(), budget::usedBytes);
        this.regions = new RegionTable(segments, config.loadFormat().rowSeparator());
        this.cycle = new SharedTransactionCycle(config, client, metrics, regions, budget, failure, ioExecutor,
                managerThread::wake, database::get, ticker);
        metrics.gauge(MetricNames.BUFFERED_BYTES, budget::usedBytes);
        metrics.gauge(MetricNames.OPEN_TRANSACTIONS, () -> switch (cycle.state()) {
            case OPEN, DRAINING, COMMITTING -> 1;
            default -> 0;
        });
    }

    /**
     * Creates an engine on the system clock with its own I/O pool ({@code ioThreads} daemon threads) and starts its
     * manager thread.
     */
    public static MultiTableLoadEngine start(LoadEngineConfig config, TransactionClient client, LoadMetrics metrics) {
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(config.ioThreads(), r -> {
            Thread t = new Thread(r, "lockstep-load-io-" + config.subtaskIndex() + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        MultiTableLoadEngine engine = new MultiTableLoadEngine(config, client, metrics, Ticker.system(), pool, pool);
        engine.started.set(true);
        engine.managerThread.start();
        return engine;
    }

    /**
     * Task thread: buffers one row for {@code database.table} of source {@code partition}. Reserves the row's bytes
     * first (blocking at the hard limit, 2 × buffer-size, for at most {@code maxBlockMs}); never freezes a chunk.
     *
     * @param given one row of {@link LoadEngineConfig#loadFormat()} (one JSON object, UTF-8; CSV writes it as a record)
     * @throws LoadEngineException      if the engine failed earlier (the first failure is the cause)
     * @throws IllegalArgumentException if the load format refuses the row, the database differs from the one this
     *                                  engine loads into (both named), or the table is a partial update and the
     *                                  row's keys differ from its declared columns (both named); nothing is buffered
     * @throws BufferExhaustedException at once if the row, or the source transactions in progress with it, can never
     *                                  fit under the hard limit (waiting cannot help: only this thread ends them);
     *                                  after {@code maxBlockMs} if no room appeared
     * @throws InterruptedException     if interrupted while blocked on memory
     */
    public void write(int partition, String database, String table, byte[] given) throws InterruptedException {
        byte[] row = given;
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(row, "row");
        if (closed.get() || failure.get() != null) { // once per row: the row's description only for a message
            checkUsable("write to " + RegionKey.describe(partition, database, table));
        }
        if (!config.loadFormat().isWellFormed(row)) {
            throw config.loadFormat().malformedRow(row, RegionKey.describe(partition, database, table));
        }
        this.database.check(database, table);
        if (partialUpdates.isPartialUpdate(database, table)) {
            partialUpdates.check(database, table, row, RegionKey.describe(partition, database, table));
        }
        row = config.encodeRow(database, table, row);
        // Only the task thread can end a source transaction, so while it waits for memory no open one can shrink:
        // if the open ones plus this row pass the hard limit, waiting can never succeed.
        long open = regions.openSourceTxnBytes();
        if (open + row.length > config.hardLimitBytes()) {
            throw new BufferExhaustedException("source transactions in progress hold " + open + " bytes (by "
                    + "partition: " + regions.openSourceTxnBytesByPartition() + "); with this row for "
                    + RegionKey.describe(partition, database, table) + " (" + row.length + " bytes) they pass the "
                    + "hard buffer limit of " + config.hardLimitBytes() + " bytes (2 x buffer-size "
                    + config.bufferSizeBytes() + ") and can never be loaded whole: split source transactions upstream "
                    + "or raise sink.transaction.multi-table.buffer-size");
        }
        try {
            if (!budget.tryReserve(row.length)) { // no room now, or closed: wait, or fail naming the row
                budget.reserve(row.length, config.maxBlockMs(),
                        () -> "row for " + RegionKey.describe(partition, database, table));
            }
        } catch (BufferExhaustedException e) {
            failure.rethrowIfFailed("write to " + RegionKey.describe(partition, database, table));
            throw e;
        }
        try {
            regions.write(partition, database, table, row, ticker.nowMs());
        } catch (RuntimeException e) {
            budget.release(row.length);
            throw e;
        }
    }

    /**
     * Task thread: the source transaction of {@code partition} ended (its last row had {@code transactionEnd=true}).
     * Marks every region of the partition clean and freezes the ones last switched at least a mini interval ago, or,
     * while buffered bytes are at or above {@code buffer-size} (the soft limit), once the partition's active chunks
     * hold buffer-size / 64 (at most 1 MiB) of rows.
     * Non-blocking; no HTTP.
     *
     * @throws LoadEngineException if the engine failed earlier
     */
    public void txnEnd(int partition) {
        txnEnd(partition, null, -1L, null);
    }

    /** As {@link #txnEnd(int, SourcePartition, long, CommitPosition, Map)} without covered positions. */
    public void txnEnd(int partition, SourcePartition source, long position, CommitPosition commit) {
        txnEnd(partition, source, position, commit, null);
    }

    /**
     * Task thread, exactly-once mode: like {@link #txnEnd(int)}; the commit that makes the rows of the source
     * transaction at {@code position} of {@code source} visible loads that position, its {@code commit} position and
     * each of {@code covered} (highest wins, docs/exactly-once.md#progress-rows-of-the-multi-topic-layout) into the
     * progress table ({@link SharedCommitProgress}). The caller checks that positions, not covered ones, grow.
     *
     * @param source   the source partition the transaction came from; null when positions are not tracked
     * @param position its source position, &gt;= 0 (ignored when {@code source} is null); {@code commit}: the source
     *                 database's commit position the transaction's end carried, or null
     * @param covered  position (&gt;= 0) per (source, source partition) the end covers without rows, or null; not kept
     * @throws LoadEngineException      if the engine failed earlier
     * @throws IllegalArgumentException for positions while the engine runs at-least-once, none while it runs
     *                                  exactly-once, or a position (its own or a covered one) below 0
     */
    public void txnEnd(int partition, SourcePartition source, long position, CommitPosition commit,
                       Map<SourcePartition, Long> covered) {
        SourcePositionsByFreeze.checkTxnEnd(config.progress() != null, partition, source, position, commit, covered);
        if (closed.get() || failure.get() != null) {
            checkUsable("transaction end of partition " + partition); // the message only when it is needed
        }
        // Above the soft limit a transaction end switches inside the mini interval once the partition's active chunks
        // hold pressureSwitchBytes, so that whole transactions never pile up in an active chunk until a writer blocks
        // mid-transaction (the unclean partition could not freeze, no load drain the buffer), yet no chunk, freeze and
        // lock round per transaction just when the engine is busiest. At most pressureSwitchBytes plus one transaction
        // per partition stays active, far below buffer-size: a writer blocked at the hard limit finds chunks to drain.
        long switchBytes = budget.underPressure() ? pressureSwitchBytes : Long.MAX_VALUE;
        long due = regions.txnEnd(partition, source, position, commit, covered, ticker.nowMs(),
                config.miniIntervalMs(), switchBytes, cycle.idleFreezeAfterMs());
        if (due == RegionTable.FROZE) {
            managerThread.wake();
        } else { // the partition is clean now: its idle freeze may fall due before the manager's next deadline
            managerThread.wakeBy(due);
        }
    }

    /**
     * Task thread, at a checkpoint: freezes every region (all must be clean) and asks the manager thread to load and
     * commit everything buffered so far. Does not block.
     *
     * @return completes when all of it is committed; fails with the engine's failure
     * @throws LoadEngineException naming the partitions in the middle of a source transaction, or if the engine failed
     */
    public CompletableFuture<Void> requestFlush() {
        checkUsable("flush");
        long sequence = regions.freezeForFlush(ticker.nowMs());
        return cycle.submitFlush(sequence);
    }

    /**
     * Task thread: {@link #requestFlush()} and wait up to {@code flushTimeoutMs} for the commit.
     *
     * @throws LoadEngineException if refused, failed or timed out (the message names the shared label and its state)
     */
    public void flush() throws InterruptedException {
        CompletableFuture<Void> done = requestFlush();
        try {
            done.get(config.flushTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            // the cycle's own failures already say "flush failed: ..."; do not say it twice
            throw cause instanceof LoadEngineException ? new LoadEngineException(cause.getMessage(), cause)
                    : new LoadEngineException("flush failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new LoadEngineException("flush did not commit within " + config.flushTimeoutMs()
                    + " ms; shared transaction " + cycle.transaction() + " is " + cycle.state());
        }
        checkFailure();
    }

    /** Task thread: throws the engine's first asynchronous failure, if any. */
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

    /** Manager thread: one scan now (see {@link SharedTransactionCycle}). */
    public void runOnce() {
        cycle.runOnce(ticker.nowMs());
    }

    /**
     * Manager thread: one scan now, then the time (ticker ms) the next one is due without a signal
     * ({@link SharedTransactionCycle#nextDeadlineMs}); {@code Long.MAX_VALUE} if only a signal can bring work.
     */
    long runOnceUntilNextDeadline() {
        long nowMs = ticker.nowMs();
        cycle.runOnce(nowMs);
        return cycle.nextDeadlineMs(nowMs);
    }

    /**
     * Stops the manager thread (waiting at most {@code closeTimeoutMs}, twice if it must be interrupted), rolls back
     * an open shared transaction, discards buffers and wakes a writer blocked on memory. Idempotent; never hangs.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        budget.close(new LoadEngineException("the engine is closed"));
        if (started.get()) {
            try {
                if (!managerThread.stop(config.closeTimeoutMs())) {
                    LOG.warn("manager thread of subtask {} did not end; its buffers stay allocated",
                            config.subtaskIndex());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.warn("interrupted while closing the engine of subtask {}", config.subtaskIndex());
            }
        } else {
            cycle.shutdown();
        }
        if (ownedIoPool != null) {
            ownedIoPool.shutdownNow();
        }
    }

    private void shutdownOnManager() {
        cycle.shutdown();
    }

    private void crash(Throwable t) {
        cycle.fail(t);
    }

    private void checkUsable(String call) {
        failure.rethrowIfFailed(call);
        if (closed.get()) {
            throw new IllegalStateException(call + " refused: the engine is closed");
        }
    }

    // ---- observation (any thread) ----

    /** The shared transaction's state now (any thread). */
    public SharedTransactionState transactionState() {
        return cycle.state();
    }

    /**
     * The database of this engine's shared transactions: the configured one, or the first row's when the sink
     * routes by {@code *} (null before that row).
     */
    public String database() {
        return database.get();
    }

    /** The current (last begun) shared transaction, or null before the first begin. */
    public TransactionRef currentTransaction() {
        return cycle.transaction();
    }

    /** Bytes buffered in all regions now. */
    public long bufferedBytes() {
        return budget.usedBytes();
    }

    /** The settings this engine runs with. */
    public LoadEngineConfig config() {
        return config;
    }

    // ---- package-private, for tests ----

    RegionTable regions() {
        return regions;
    }

    MemoryBudget budget() {
        return budget;
    }

    /** The engine's segment pool (for tests). */
    SegmentPool segmentPool() {
        return segments;
    }

    SharedTransactionCycle cycle() {
        return cycle;
    }

    /** The engine's manager thread (started only by {@link #start}; tests read its wake-ups). */
    ManagerThread managerThread() {
        return managerThread;
    }
}
