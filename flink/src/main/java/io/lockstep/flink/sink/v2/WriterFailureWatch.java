package io.lockstep.flink.sink.v2;

import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.operators.ProcessingTimeService;

/**
 * Fails a Sink V2 writer's task soon after its engine failed, even when no further row or checkpoint comes (a
 * rejected row at the end of the input, a stalled source), so a job never sits in RUNNING over a sink that stopped
 * (docs/architecture.md#rules-from-field-reports): a processing-time timer fires every {@value #PERIOD_MS} ms and runs the engine's failure check, which
 * throws the engine's first failure. Flink runs the writer's processing-time callbacks on the task's mailbox thread,
 * between records, and an exception thrown by one fails the task like one thrown by {@code write}.
 *
 * <p>Owned by the writer's task thread: started in the writer's constructor, stopped in {@code close()}; every
 * callback runs on that thread too, so the fields need no lock.
 */
@NotThreadSafe
final class WriterFailureWatch {
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

    private WriterFailureWatch(ProcessingTimeService timers, Check check) {
        this.timers = Objects.requireNonNull(timers, "timers");
        this.check = Objects.requireNonNull(check, "check");
    }

    /** Starts checking every {@value #PERIOD_MS} ms on the task thread. */
    static WriterFailureWatch start(ProcessingTimeService timers, Check check) {
        WriterFailureWatch watch = new WriterFailureWatch(timers, check);
        watch.schedule();
        return watch;
    }

    private void schedule() {
        next = timers.registerTimer(timers.getCurrentProcessingTime() + PERIOD_MS, this::fire);
    }

    private void fire(long time) throws Exception {
        if (stopped) {
            return;
        }
        try {
            check.run();
        } catch (Exception failure) {
            throw NonRecoverableSinkFailure.classify(failure); // no restart for what cannot heal
        }
        schedule();
    }

    /** Stops the checks; idempotent. */
    void stop() {
        stopped = true;
        if (next != null) {
            next.cancel(false);
            next = null;
        }
    }
}
