package io.lockstep.flink.sink;

import java.util.concurrent.ScheduledFuture;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails the sink's task soon after its engine failed, even when no further row or checkpoint comes (a rejected row at
 * the end of the input, a stalled source): a processing-time timer fires every {@value #PERIOD_MS} ms and calls the
 * engine's failure check, which throws the engine's first failure.
 *
 * <p>Why a timer: a {@code SinkFunction} has no mailbox executor of its own, and the engine's threads must not touch
 * the task. Flink runs processing-time callbacks on the task thread (through the task's mailbox), between records,
 * and an exception thrown by one fails the task like an exception from {@code invoke}; so the check is as safe as
 * the one {@code invoke} already makes. The task fails within {@value #PERIOD_MS} ms of the engine's failure (plus the
 * time the task thread is busy with the record at hand).
 *
 * <p>Owned by the sink's task thread: started in {@code open()}, stopped in {@code close()}; every callback runs on
 * that thread too, so the fields need no lock.
 */
final class EngineFailureWatch {
    private static final Logger LOG = LoggerFactory.getLogger(EngineFailureWatch.class);
    /** Period of the check, ms. */
    static final long PERIOD_MS = 200;

    /** The engine's check: returns when the engine is healthy, throws its first failure otherwise. */
    @FunctionalInterface
    interface Check {
        void run() throws Exception;
    }

    private final ProcessingTimeService timers;
    private final Check check;
    private ScheduledFuture<?> next;
    private boolean stopped;

    private EngineFailureWatch(ProcessingTimeService timers, Check check) {
        this.timers = timers;
        this.check = check;
    }

    /**
     * Starts the watch on the sink's processing-time service; returns null (no watch) when {@code context} is not a
     * streaming operator's context (a unit test calling {@code open} by hand).
     */
    static EngineFailureWatch start(RuntimeContext context, Check check) {
        if (!(context instanceof StreamingRuntimeContext streaming)) {
            LOG.debug("no processing-time service in {}: engine failures surface at the next row or checkpoint",
                    context.getClass().getName());
            return null;
        }
        EngineFailureWatch watch = new EngineFailureWatch(streaming.getProcessingTimeService(), check);
        watch.schedule();
        return watch;
    }

    private void schedule() {
        next = timers.registerTimer(timers.getCurrentProcessingTime() + PERIOD_MS, timestamp -> onTimer());
    }

    private void onTimer() throws Exception {
        if (stopped) {
            return;
        }
        try {
            check.run(); // throws the engine's failure: Flink fails the task with it
        } catch (Exception failure) {
            throw NonRecoverableSinkFailure.classify(failure);
        }
        schedule();
    }

    /** Stops the watch (task thread, in {@code close()}); a null watch is allowed. */
    static void stop(EngineFailureWatch watch) {
        if (watch != null) {
            watch.stopped = true;
            if (watch.next != null) {
                watch.next.cancel(false);
            }
        }
    }
}
