package io.lockstep.flink.sink;

import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails a sink's task soon after its engine failed, even when no further row or checkpoint comes (a rejected row at
 * the end of the input, a stalled source), so a job never sits in RUNNING over a sink that stopped
 * (docs/architecture.md#rules-from-field-reports). The engine's threads must never touch the task: the news reaches
 * the task thread, which calls the engine's failure check (it throws the engine's first failure, and Flink fails the
 * task with it like an exception from {@code write}/{@code invoke}). Two ways, by sink API:
 *
 * <ul>
 *   <li>{@link Target#mailbox}, the Sink V2 writers ({@code WriterInitContext.getMailboxExecutor()}, Flink 1.20 and
 *       2.x): the engine's first failure posts one mail to the task's mailbox, at once, from the engine thread that
 *       records it ({@code MailboxExecutor} may be called from any thread; a mail's exception fails the task), the
 *       way Flink's own Kafka sink writer posts one mailbox action at the first asynchronous send error. No polling;
 *       the task fails as soon as it finishes the record at hand.</li>
 *   <li>{@link Target#timers}, the legacy SinkFunction sinks: a {@code RichSinkFunction} has no mailbox executor
 *       (only its operator, {@code StreamSink}, has one, through its containing task), and its processing-time
 *       service documents no registration from foreign threads. There a processing-time timer (which Flink runs on
 *       the task thread, through the mailbox) calls the check every {@value #PERIOD_MS} ms, besides the check every
 *       {@code invoke} and snapshot already make.</li>
 * </ul>
 *
 * <p>Owned by the sink's task thread: started when the sink opens, stopped in {@code close()}; the mail and the
 * timer callbacks run on that thread too, so {@code stopped} and {@code next} need no lock. The engine thread only
 * calls the mailbox.
 */
public final class EngineFailureWatch {
    private static final Logger LOG = LoggerFactory.getLogger(EngineFailureWatch.class);
    /** Period of the SinkFunction path's check, ms. */
    public static final long PERIOD_MS = 200;

    /** The engine's check: returns when the engine is healthy, throws its first failure otherwise. */
    @FunctionalInterface
    public interface Check {
        void run() throws Exception;
    }

    /** Where the engine's failure reaches the task thread: the task's mailbox, or (SinkFunction) its timers. */
    public sealed interface Target {
        /** A Sink V2 writer's mailbox: one mail at the engine's first failure. */
        static Target mailbox(MailboxExecutor mailbox) {
            return new Mailbox(Objects.requireNonNull(mailbox, "mailbox"));
        }

        /** A SinkFunction's processing-time service: a check every {@value #PERIOD_MS} ms. */
        static Target timers(ProcessingTimeService timers) {
            return new Timers(Objects.requireNonNull(timers, "timers"));
        }
    }

    private record Mailbox(MailboxExecutor mailbox) implements Target {
    }

    private record Timers(ProcessingTimeService timers) implements Target {
    }

    private final Check check;
    /** Null on the mailbox path. */
    @Nullable
    private final ProcessingTimeService timers;
    private ScheduledFuture<?> next;
    private boolean stopped;

    private EngineFailureWatch(@Nullable ProcessingTimeService timers, Check check) {
        this.timers = timers;
        this.check = Objects.requireNonNull(check, "check");
    }

    /**
     * Starts the watch on the task thread.
     *
     * @param check          the engine's failure check (throws the first failure)
     * @param onFirstFailure registers the engine's one first-failure listener (e.g.
     *                       {@code engine::onFirstFailure}); used on the mailbox path
     */
    public static EngineFailureWatch start(Target target, Check check, Consumer<Runnable> onFirstFailure) {
        if (target instanceof Timers t) {
            EngineFailureWatch watch = new EngineFailureWatch(t.timers(), check);
            watch.schedule();
            return watch;
        }
        MailboxExecutor mailbox = ((Mailbox) target).mailbox();
        EngineFailureWatch watch = new EngineFailureWatch(null, check);
        onFirstFailure.accept(() -> watch.post(mailbox));
        return watch;
    }

    /**
     * Starts the watch of a SinkFunction (its timers); returns null (no watch) when {@code context} is not a
     * streaming operator's context (a unit test calling {@code open} by hand).
     */
    @Nullable
    public static EngineFailureWatch start(RuntimeContext context, Check check) {
        Target target = targetOf(context);
        return target == null ? null : start(target, check, listener -> { }); // timers: no listener needed
    }

    /**
     * The failure target of a SinkFunction's runtime context (its processing-time service), or null (no watch) when
     * {@code context} is not a streaming operator's context (a unit test calling {@code open} by hand).
     */
    @Nullable
    public static Target targetOf(RuntimeContext context) {
        if (!(context instanceof StreamingRuntimeContext streaming)) {
            LOG.debug("no processing-time service in {}: engine failures surface at the next row or checkpoint",
                    context.getClass().getName());
            return null;
        }
        return Target.timers(streaming.getProcessingTimeService());
    }

    /** Engine thread, once: posts the check to the task's mailbox. */
    private void post(MailboxExecutor mailbox) {
        try {
            mailbox.execute(this::fire, "lockstep sink: the load engine failed");
        } catch (RuntimeException e) {
            // the task is already ending (its mailbox closed): the failure surfaces at close or is moot
            LOG.debug("could not post the engine failure to the task's mailbox: {}", e.toString());
        }
    }

    private void schedule() {
        next = timers.registerTimer(timers.getCurrentProcessingTime() + PERIOD_MS, time -> {
            if (!stopped) {
                fire();
                schedule();
            }
        });
    }

    /** Task thread: throws the engine's failure (Flink fails the task with it) unless the sink closed. */
    private void fire() throws Exception {
        if (stopped) {
            return;
        }
        try {
            check.run(); // throws the engine's failure: Flink fails the task with it
        } catch (Exception failure) {
            throw NonRecoverableSinkFailure.classify(failure);
        }
    }

    /** Stops the watch; idempotent. A mail posted later does nothing. */
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
