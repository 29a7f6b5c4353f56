package io.lockstep.core.engine;

import io.lockstep.core.client.OutageLog;
import java.util.concurrent.atomic.AtomicReference;

import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;

/**
 * Keeps the first asynchronous failure of an engine (later ones are logged by the caller and dropped), so that the task
 * thread sees it at its next call and a checkpoint can never succeed after a lost load
 * (docs/architecture.md#failure-surfacing). Thread-safe: set once by compare-and-set.
 */
@ThreadSafe
final class FirstFailure {
    private final AtomicReference<Throwable> first = new AtomicReference<>();

    /**
     * Records {@code failure} unless one is already recorded.
     *
     * @return true if this was the first
     */
    boolean record(Throwable failure) {
        return first.compareAndSet(null, failure);
    }

    /**
     * The engine's fail path: records {@code cause} unless one is already recorded, logs it (the first at ERROR in
     * one line, its stack at DEBUG; a later one at WARN in one line; the first at DEBUG when it is a call the target's
     * ongoing outage left unsettled, which {@link OutageLog} counts in the outage's last line) and returns the error that blocked writers and
     * waiting callers are released with. The stack is not lost: the returned error carries the failure as its cause
     * to the caller (a Flink task logs it with the task's failure).
     *
     * @param cause the failure the manager thread observed
     * @param log the engine's logger (so the entry carries the engine's category)
     * @param what what failed, e.g. "load engine failed"
     * @return a LoadEngineException wrapping the first failure
     */
    LoadEngineException recordAndLog(Throwable cause, Logger log, String what) {
        if (record(cause) || get() == cause) {
            if (OutageLog.countedInOngoingOutage(cause)) { // its outage's lines say it: counted in the last one
                log.debug("{} during the target's outage: {}", what, cause.getMessage());
            } else {
                log.error("{}: {}", what, cause.getMessage());
            }
            log.debug("{}: stack of the first failure", what, cause);
        } else {
            log.warn("further failure after the first one: {}", cause.toString());
        }
        Throwable first = get();
        return new LoadEngineException("the engine failed: " + first.getMessage(), first);
    }

    /**
     * The error requests that can no longer complete are failed with: {@code why}, followed by the first failure's
     * message (and with it as the cause) if one is recorded.
     */
    LoadEngineException failedBecause(String why) {
        Throwable cause = first.get();
        return cause == null ? new LoadEngineException(why)
                : new LoadEngineException(why + ": " + cause.getMessage(), cause);
    }

    /** The first failure, or null. */
    Throwable get() {
        return first.get();
    }

    /**
     * Throws if a failure is recorded.
     *
     * @param call names the call that observes the failure, e.g. "write to test.orders"
     * @throws LoadEngineException wrapping the first failure, so the stack shows both the observer and the cause
     */
    void rethrowIfFailed(String call) {
        Throwable failure = first.get();
        if (failure != null) {
            throw new LoadEngineException(call + " refused: the engine failed earlier: " + failure.getMessage(),
                    failure);
        }
    }
}
