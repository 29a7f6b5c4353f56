package io.lockstep.core.engine;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.ChunkState;
import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.format.LoadBody;
import io.lockstep.core.format.LoadFormat;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The hand-off of loads between the manager thread and the I/O pool, the same for both engines. The manager
 * {@link #start}s a load of chunks it took from the regions (LOADING); an I/O thread sends their body
 * ({@link LoadFormat#body}), written from the chunks' segments straight to the connection (no body array: a load is
 * MBs), again on each retry or redirect; the completion comes back through a concurrent queue, and the manager
 * {@link #drain}s it: the chunks move to LOADED or DISCARDED, their bytes go back to the
 * {@link MemoryBudget}, the per-table load metrics count the load, and a failed load fails the engine.
 *
 * <p>Who owns a load's chunks: the manager thread from {@link #start} until an I/O thread picks the load up; that I/O
 * thread while it writes them to the connection, as often as the client re-sends, until the send returns (success,
 * failure or an unknown outcome alike); the manager again once it drains the completion, and only then do they move
 * to LOADED or DISCARDED and give their segments back. Each load's {@link Phase} is moved by compare-and-set, so
 * {@link #shutdown} and an I/O thread never both release a load: shutdown releases the chunks of loads no I/O thread
 * has picked up (or that finished), and leaves the chunks of a load an I/O thread is still reading to that thread,
 * which releases them when it is done (the budget is closed by then, so no writer takes the room early).
 *
 * <p>Threads: {@link #start}, {@link #drain}, {@link #busy}, {@link #idle} and {@link #shutdown} run on the manager
 * thread (or on the closing thread after the manager thread ended); the in-flight map is confined to it. I/O threads
 * only add to the completion queue and wake the manager.
 */
final class LoadHandOff {
    /**
     * Sends one load body; runs on an I/O thread. The body reads the load's chunks as it is written, and may be
     * written again (a retry, a redirect) until {@code send} returns: the chunks stay LOADING until then.
     */
    @FunctionalInterface
    interface Sender {
        LoadReply send(LoadBody body) throws TransactionException;
    }

    /** Where one load is; moved by compare-and-set only. */
    private enum Phase {
        /** Handed to the executor; no I/O thread has picked it up. */
        QUEUED,
        /** An I/O thread sends the body or waits for the reply: it reads the chunks, until the send returns. */
        SENDING,
        /** The completion is queued for the manager. */
        FINISHED,
        /** {@link #shutdown} came first: whoever moved it here, or the I/O thread that was sending, releases it. */
        ABANDONED
    }

    private static final class Load {
        final String key;
        final String table;
        final TransactionRef txn;
        final List<Chunk> chunks;
        final LoadBody body;
        final int bodyBytes;
        final AtomicReference<Phase> phase = new AtomicReference<>(Phase.QUEUED);

        Load(String key, String table, TransactionRef txn, List<Chunk> chunks, LoadBody body) {
            this.key = key;
            this.table = table;
            this.txn = txn;
            this.chunks = chunks;
            this.body = body;
            this.bodyBytes = (int) body.contentLength(); // at most 2 GiB: LoadFormat#body refuses more
        }
    }

    private final MemoryBudget budget;
    private final FirstFailure failure;
    private final LoadMetrics metrics;
    private final Executor ioExecutor;
    private final Runnable wakeManager;
    /** Frames each load's body from its chunks. */
    private final LoadFormat format;
    /** I/O threads add, the manager thread polls. */
    private final Queue<LoadCompletion> completions = new ConcurrentLinkedQueue<>();
    /** Manager thread only: the load in flight per key (one per table). */
    private final Map<String, Load> inFlight = new HashMap<>();

    LoadHandOff(MemoryBudget budget, FirstFailure failure, LoadMetrics metrics, Executor ioExecutor,
                Runnable wakeManager, LoadFormat format) {
        this.budget = budget;
        this.format = format;
        this.failure = failure;
        this.metrics = metrics;
        this.ioExecutor = ioExecutor;
        this.wakeManager = wakeManager;
    }

    /**
     * Manager thread: sends {@code chunks} (LOADING, taken from the regions) as one load on an I/O thread.
     *
     * @param key    the in-flight key: one load at a time per key (the table, or {@code database.table})
     * @param table  the table loaded
     * @param txn    the transaction (or, for classic stream load, the label) loaded under
     * @param sender sends the body, on the I/O thread
     * @throws IllegalStateException if a load of {@code key} is in flight
     */
    void start(String key, String table, TransactionRef txn, List<Chunk> chunks, Sender sender) {
        Load load = new Load(key, table, txn, chunks, format.body(chunks));
        if (inFlight.putIfAbsent(key, load) != null) {
            throw new IllegalStateException("a load of " + key + " is already in flight");
        }
        ioExecutor.execute(() -> send(load, sender));
    }

    /** I/O thread. */
    private void send(Load load, Sender sender) {
        if (!load.phase.compareAndSet(Phase.QUEUED, Phase.SENDING)) {
            return; // abandoned before it started: shutdown released the chunks
        }
        LoadCompletion done;
        try {
            LoadReply reply = sender.send(load.body);
            done = new LoadCompletion(load.key, load.table, load.txn, load.chunks, load.bodyBytes, reply, null);
        } catch (Throwable t) {
            done = new LoadCompletion(load.key, load.table, load.txn, load.chunks, load.bodyBytes, null, t);
        }
        if (load.phase.compareAndSet(Phase.SENDING, Phase.FINISHED)) {
            completions.add(done);
            wakeManager.run();
        } else {
            release(load.chunks); // shutdown left these chunks to this thread: nobody else touches them
        }
    }

    /** Manager thread: true while a load of {@code key} is in flight. */
    boolean busy(String key) {
        return inFlight.containsKey(key);
    }

    /** Manager thread: true if no load is in flight. */
    boolean idle() {
        return inFlight.isEmpty();
    }

    /** Manager thread: the keys with a load in flight. */
    java.util.Set<String> keys() {
        return java.util.Set.copyOf(inFlight.keySet());
    }

    /**
     * Manager thread: settles every finished load: its chunks move to LOADED, their bytes are released and the
     * table's load metrics count it.
     *
     * @return the successful completions, in the order they finished
     * @throws LoadEngineException for the first failed load, naming rows, bytes, table and transaction; recorded as
     *                             the engine's failure and the budget closed before its bytes are released, so a writer
     *                             blocked on memory wakes to the failure rather than to room
     */
    List<LoadCompletion> drain() {
        List<LoadCompletion> loaded = new ArrayList<>();
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
                        + " bytes) into " + done.txn().database() + "." + done.table() + " under " + done.txn()
                        + " failed: " + done.failure().getMessage(), done.failure());
                failure.record(e);
                budget.close(e);
                budget.release(rowBytes);
                throw e;
            }
            budget.release(rowBytes);
            metrics.tableCounter(MetricNames.LOADS, done.txn().database(), done.table()).inc();
            metrics.tableCounter(MetricNames.LOADED_BYTES, done.txn().database(), done.table()).inc(done.bodyBytes());
            metrics.tableCounter(MetricNames.LOADED_ROWS, done.txn().database(), done.table()).inc(rows);
            loaded.add(done);
        }
        return loaded;
    }

    /**
     * Manager thread, or the closing thread once the manager thread ended: drops everything buffered, the regions'
     * chunks and the loads in flight, and releases their bytes. The chunks of a load an I/O thread is still sending
     * are left to that thread, which releases them when it ends (its completion is dropped).
     */
    void shutdown(RegionTable regions) {
        budget.release(regions.discardAll());
        for (Load load : inFlight.values()) {
            while (true) {
                Phase phase = load.phase.get();
                if (phase == Phase.SENDING) {
                    if (load.phase.compareAndSet(Phase.SENDING, Phase.ABANDONED)) {
                        break; // the I/O thread releases them
                    }
                } else if (phase == Phase.QUEUED) {
                    if (load.phase.compareAndSet(Phase.QUEUED, Phase.ABANDONED)) {
                        release(load.chunks); // no I/O thread will read them
                        break;
                    }
                } else { // FINISHED: the I/O thread is done with them
                    release(load.chunks);
                    break;
                }
            }
        }
        inFlight.clear();
        completions.clear();
    }

    private void release(List<Chunk> chunks) {
        long bytes = 0;
        for (Chunk chunk : chunks) {
            bytes += chunk.rowBytes();
            chunk.moveTo(ChunkState.DISCARDED);
        }
        budget.release(bytes);
    }
}
