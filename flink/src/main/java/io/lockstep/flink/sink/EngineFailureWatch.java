package io.lockstep.flink.sink;

import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import javax.annotation.Nullable;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails a sink's task soon after its engine failed, even when no further row or checkpoint comes (a rejected row at
 * the end of the input, a stalled source), so a job never sits in RUNNING over a sink that stopped
 * (docs/architecture.md#rules-from-field-reports): a processing-time timer fires every {@value #PERIOD_MS} ms and
 * calls the engine's failure check, which throws the engine's first failure. One class for both sink APIs: the
 * SinkFunction sinks take the timers of their streaming runtime context, the Sink V2 writers those of their init
 * context.
 *
 * <p>Why a timer: the engine's threads must not touch the task. Flink runs processing-time callbacks on the task
 * thread (through the task's mailbox), between records, and an exception thrown by one fails the task like an
 * exception from {@code invoke}/{@code write}; so the check is as safe as the one a row's call already makes. The
 * task fails within {@value #PERIOD_MS} ms of the engine's failure (plus the time the task thread is busy with the
 * record at hand).
 *
 * <p>Owned by the sink's task thread: started when the sink opens, stopped in {@code close()}; every callback runs on
 * that thread too, so the fields need no lock.
 */
public final class EngineFailureWatch {
    private static final Logger LOG = LoggerFactory.getLogger(EngineFailureWatch.class);
    /** Period of the check, ms. */
    public static final long PERIOD_MS = 200;

    /** The engine's check: returns when the engine is healthy, throws its first failure otherwise. */
    @FunctionalInterface
    public interface Check {
        void run() throws Exception;
    }

    private final ProcessingTimeService timers;
    private final Check check;
    private ScheduledFuture<?> next;
    private boolean stopped;

    private EngineFailureWatch(ProcessingTimeService timers, Check check) {
        this.timers = Objects.requireNonNull(timers, "timers");
        this.check = Objects.requireNonNull(check, "check");
    }

    /** Starts checking every {@value #PERIOD_MS} ms on the task thread of {@code timers}. */
    public static EngineFailureWatch start(ProcessingTimeService timers, Check check) {
        EngineFailureWatch watch = new EngineFailureWatch(timers, check);
        watch.schedule();
        return watch;
    }

    /**
     * Starts the watch on a SinkFunction's processing-time service; returns null (no watch) when {@code context} is
     * not a streaming operator's context (a unit test calling {@code open} by hand).
     */
    @Nullable
    public static EngineFailureWatch start(RuntimeContext context, Check check) {
        ProcessingTimeService timers = timersOf(context);
        return timers == null ? null : start(timers, check);
    }

    /** The processing-time service of a SinkFunction's runtime context, or null outside a streaming operator. */
    @Nullable
    public static ProcessingTimeService timersOf(RuntimeContext context) {
        if (!(context instanceof StreamingRuntimeContext streaming)) {
            LOG.debug("no processing-time service in {}: engine failures surface at the next row or checkpoint",
                    context.getClass().getName());
            return null;
        }
        return streaming.getProcessingTimeService();
    }

    private void schedule() {
        next = timers.registerTimer(timers.getCurrentProcessingTime() + PERIOD_MS, this::fire);
    }

    private void fire(long time) throws Exception {
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

    /** Stops the checks; idempotent. */
    public void stop() {
        stopped = true;
        if (next != null) {
            next.cancel(false);
            next = null;
        }
    }

    /** Stops {@code watch} if there is one (task thread, in {@code close()}). */
    public static void stop(@Nullable EngineFailureWatch watch) {
        if (watch != null) {
            watch.stop();
        }
    }
}
