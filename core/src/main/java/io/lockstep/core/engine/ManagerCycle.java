package io.lockstep.core.engine;

import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.metrics.LoadMetrics;

import java.util.concurrent.Executor;

import org.slf4j.Logger;

/**
 * What the manager-thread halves of both engines share ({@link SharedTransactionCycle}, {@link TableTransactionCycle}):
 * the fail path and the shutdown, around the cycle's own state, requests and open transactions.
 *
 * <p>Threads: {@link #fail} runs on the manager thread; {@link #shutdown} on the manager thread as it exits, or on the
 * closing thread once the manager thread ended (never both: the engine's {@code close()} decides). The state these
 * touch is the cycle's manager-only state, the thread-safe {@link FirstFailure} and {@link MemoryBudget}, and the
 * {@link LoadHandOff}.
 */
abstract class ManagerCycle<S extends Enum<S> & ManagerCycle.State<S>> {
    /** A cycle's state enum: its legal-move table decides every move. */
    interface State<S> {
        /** True if this state may move to {@code next}. */
        boolean canMoveTo(S next);

        /**
         * @return {@code next}
         * @throws IllegalStateException naming both states if the move is illegal
         */
        S checkMove(S next);
    }

    private final Logger log;
    private final String name;
    final LoadEngineConfig config;
    final TransactionClient client;
    final LoadMetrics metrics;
    final RegionTable regions;
    /** The load side of {@code regions} (thread-safe on its own, under the region table's lock). */
    final FrozenChunks frozen;
    final MemoryBudget budget;
    final FirstFailure failure;
    final Runnable wakeManager;
    final LoadHandOff handOff;
    private final S failedState;
    private final S closedState;
    /** Written by the manager thread only (through {@link #moveTo}); volatile so any thread may read it. */
    private volatile S state;

    /**
     * @param log  the cycle's logger, so failures carry its category
     * @param name what fails, for the log, e.g. "load engine failed"
     */
    ManagerCycle(Logger log, String name, LoadEngineConfig config, TransactionClient client, LoadMetrics metrics,
                 RegionTable regions, MemoryBudget budget, FirstFailure failure, Executor ioExecutor,
                 Runnable wakeManager, S initial, S failedState, S closedState) {
        this.log = log;
        this.name = name;
        this.config = config;
        this.client = client;
        this.metrics = metrics;
        this.regions = regions;
        this.frozen = regions.frozen();
        this.budget = budget;
        this.failure = failure;
        this.wakeManager = wakeManager;
        this.handOff = new LoadHandOff(budget, failure, metrics, ioExecutor, wakeManager,
                config.loadFormat());
        this.state = initial;
        this.failedState = failedState;
        this.closedState = closedState;
    }

    /** The cycle's state; any thread. */
    final S state() {
        return state;
    }

    /** Manager thread: moves through the state's legal-move table. */
    final void moveTo(S next) {
        state = state.checkMove(next);
    }

    /**
     * Manager thread: records {@code cause} (the first failure wins; logged once at ERROR, later ones at WARN), moves
     * to the failed state, wakes a writer blocked on memory (to the failure, not to room), fails the waiting requests
     * and rolls back what may be open.
     */
    final void fail(Throwable cause) {
        LoadEngineException error = failure.recordAndLog(cause, log, name);
        if (state.canMoveTo(failedState)) {
            moveTo(failedState);
        }
        budget.close(error);
        failRequests("the engine failed");
        rollBackOpen("after a failure");
    }

    /**
     * Manager thread as it exits, or the closing thread once the manager thread ended: rolls back what is open, moves
     * to the closed state, drops every buffered chunk and every load in flight (releasing their bytes; a load an I/O
     * thread still sends releases its own) and fails the waiting requests.
     */
    final void shutdown() {
        rollBackOpen("at close");
        if (state != closedState) {
            moveTo(closedState);
        }
        handOff.shutdown(regions);
        failRequests("the engine is closed");
    }

    /** Fails every request waiting on this cycle; {@code why} says why, the first failure is the cause. */
    abstract void failRequests(String why);

    /** Rolls back what may be open and is not owned elsewhere (never what a checkpoint holds); never throws. */
    abstract void rollBackOpen(String when);
}
