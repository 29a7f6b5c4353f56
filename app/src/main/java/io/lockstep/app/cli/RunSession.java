package io.lockstep.app.cli;

import io.lockstep.app.demo.DemoMetricsReporter;
import io.lockstep.app.job.JobFailures;
import io.lockstep.core.server.Target;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * One run of the job on the local MiniCluster of this JVM, as {@code lockstep run} shows it: the job starts, a
 * progress line every {@code progressMs} (when asked for), a summary line when it ends, however it ends. Ctrl-C
 * (SIGINT) or SIGTERM cancels the job: the sink's {@code close} rolls back its open transaction (what it held is
 * replayed from the last checkpoint next time), and the command waits at most {@code stopTimeoutMs} for that.
 *
 * <p>Signals are taken with {@code sun.misc.Signal} rather than a shutdown hook, so the cancellation runs
 * before the JVM starts shutting down (Flink's own shutdown hooks would otherwise race it); the previous
 * handlers are restored when the run ends.
 *
 * <p>Threads: {@link #run} on the command's thread; the progress ticker on its own daemon thread; a signal on
 * the JVM's signal thread, which only sets {@link #stopRequested} and asks the job to cancel.
 */
final class RunSession {
    private static final Logger LOG = LoggerFactory.getLogger(RunSession.class);
    /** Exit code after a stop by signal (128 + SIGINT), as shells report Ctrl-C. */
    static final int EXIT_STOPPED = 130;
    /** Period of the restart-count reading, ms. */
    static final long OBSERVE_MS = 1_000;

    private final PrintWriter out;
    private final PrintWriter err;
    private final long progressMs;
    private final long stopTimeoutMs;
    /** Set by the signal thread, read by the command's thread. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    /**
     * @param out where the progress and summary lines go
     * @param err where the failure line goes
     * @param progressMs progress line period in ms, 0 for none
     * @param stopTimeoutMs longest wait in ms for the job to stop after a signal
     */
    RunSession(PrintWriter out, PrintWriter err, long progressMs, long stopTimeoutMs) {
        this.out = out;
        this.err = err;
        this.progressMs = progressMs;
        this.stopTimeoutMs = stopTimeoutMs;
    }

    /**
     * Starts the job, prints as it runs, waits for it to end.
     *
     * @param env the local environment with the job defined in it and {@link DemoMetricsReporter} enabled
     * @param jobName the job's name (its metrics are found by it)
     * @param startLine the first line to print (what it reads, where it writes, mode, restored state)
     * @param target the server family, for the counters' wording
     * @return 0 when the job finished (bounded input), {@link #EXIT_STOPPED} when a signal stopped it, 1 when it
     *     failed (after one line on {@code err} naming the cause)
     * @throws Exception when the job cannot be submitted
     */
    int run(StreamExecutionEnvironment env, String jobName, String startLine, Target target) throws Exception {
        DemoMetricsReporter.forget(jobName);
        RunProgress progress = new RunProgress(DemoMetricsReporter.metricsOf(jobName), target, System::nanoTime);
        List<Signal> signals = new ArrayList<>();
        List<SignalHandler> previous = new ArrayList<>();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "lockstep-run-progress");
            thread.setDaemon(true);
            return thread;
        });
        try {
            JobClient job = env.executeAsync(jobName);
            print(out, "lockstep run: " + startLine + "; job " + job.getJobID());
            for (String name : List.of("INT", "TERM")) {
                Signal signal = new Signal(name);
                previous.add(Signal.handle(signal, s -> requestStop(job, s.getName())));
                signals.add(signal);
            }
            schedule(ticker, progressMs, progress::observe, () -> print(out, progress.line()));
            return await(job, progress);
        } finally {
            ticker.shutdownNow();
            for (int i = 0; i < signals.size(); i++) {
                Signal.handle(signals.get(i), previous.get(i));
            }
            DemoMetricsReporter.forget(jobName);
        }
    }

    /**
     * Schedules the ticker's two tasks on its one thread: {@code observe} every {@value #OBSERVE_MS} ms (the restart
     * count is read while its gauge exists) and, when {@code progressMs > 0}, {@code print} every {@code progressMs}
     * ms, first after one period. An exception in either is logged at DEBUG and the task keeps its schedule.
     *
     * @param ticker a single-threaded executor, so the two tasks never run at once
     * @param progressMs period of the progress line in ms, 0 for none
     */
    static void schedule(ScheduledExecutorService ticker, long progressMs, Runnable observe, Runnable print) {
        ticker.scheduleAtFixedRate(guarded(observe), OBSERVE_MS, OBSERVE_MS, TimeUnit.MILLISECONDS);
        if (progressMs > 0) {
            ticker.scheduleAtFixedRate(guarded(print), progressMs, progressMs, TimeUnit.MILLISECONDS);
        }
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) { // a metric read went wrong: keep ticking (an escape would stop it)
                LOG.debug("progress task failed", e);
            }
        };
    }

    private void requestStop(JobClient job, String signal) {
        if (stopRequested.compareAndSet(false, true)) {
            print(out, "lockstep run: SIG" + signal + ": stopping (the open transaction is rolled back; "
                    + "the next start resumes from the last checkpoint)");
            job.cancel();
        }
    }

    private int await(JobClient job, RunProgress progress) throws InterruptedException {
        CompletableFuture<JobExecutionResult> result = job.getJobExecutionResult();
        Throwable failure = null;
        while (true) {
            try {
                result.get(stopRequested.get() ? stopTimeoutMs : 200, TimeUnit.MILLISECONDS);
                break;
            } catch (TimeoutException e) {
                if (stopRequested.get() && !result.isDone()) {
                    // may have been asked while this thread waited with the short timeout: wait once more in full
                    try {
                        result.get(stopTimeoutMs, TimeUnit.MILLISECONDS);
                        break;
                    } catch (TimeoutException again) {
                        print(err, "lockstep run: the job did not stop within " + stopTimeoutMs
                                + " ms; exiting (the server times out a transaction left open)");
                        print(out, "lockstep run: summary: " + progress.summary(RunProgress.Ending.NOT_STOPPED_IN_TIME));
                        return EXIT_STOPPED;
                    } catch (ExecutionException failed) {
                        failure = failed.getCause();
                        break;
                    }
                }
            } catch (ExecutionException e) {
                failure = e.getCause();
                break;
            }
        }
        progress.observe();
        if (stopRequested.get()) {
            print(out, "lockstep run: summary: " + progress.summary(RunProgress.Ending.STOPPED));
            return EXIT_STOPPED;
        }
        if (failure == null) {
            print(out, "lockstep run: summary: " + progress.summary(RunProgress.Ending.END_OF_INPUT));
            return 0;
        }
        boolean notHealing = NonRecoverableSinkFailure.canNeverHeal(failure);
        LOG.warn("lockstep run: job failed{}:{}", notHealing ? " (not restarted: it cannot heal)" : "",
                JobFailures.causeChain(failure, 6));
        print(out, "lockstep run: summary: " + progress.summary(RunProgress.Ending.FAILED));
        print(err, "lockstep run: job failed: " + JobFailures.describe(failure));
        return CommandLine.ExitCode.SOFTWARE;
    }

    private static void print(PrintWriter writer, String line) {
        synchronized (writer) {
            writer.println(line);
            writer.flush();
        }
    }
}
