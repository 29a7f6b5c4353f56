package io.lockstep.core.engine;

import io.lockstep.core.time.Ticker;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager thread of one engine, deadline-driven like the Kafka producer's sender loop ({@code Sender.runOnce}
 * polls for exactly the time to its next deadline and the application thread calls {@code wakeup()}; Apache Kafka,
 * {@code clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java}): it runs one
 * {@code step}, which returns the time of its cycle's next timer (ticker ms, {@code Long.MAX_VALUE}: none), then
 * sleeps until that deadline, until {@link #wake()} (a load finished, a flush or a freeze waits, the buffer passed its
 * soft limit, close), or for at most {@code maxWaitMs} (a safety net; {@code Long.MAX_VALUE}: none), whichever comes
 * first, until {@link #stop}. A {@link #wakeBy} from another thread wakes it only if that deadline is earlier than
 * the one it sleeps towards. Then it runs {@code onExit} (roll back, release buffers) on itself, so that
 * manager-owned state is never touched by two threads.
 *
 * <p>It never dies silently: anything {@code step} throws goes to {@code onCrash} (which records the failure for
 * the task thread) and the loop goes on until stopped. Thread-safe: {@code running} and {@code plannedWakeMs} are
 * volatile; the wake-up flag is guarded by {@code lock}. The wait itself is a real {@link Condition} wait on the
 * system's monotonic time, bounded by the deadline read on {@code ticker}.
 */
@ThreadSafe
final class ManagerThread {
    private static final Logger LOG = LoggerFactory.getLogger(ManagerThread.class);

    private final Ticker ticker;
    private final long maxWaitMs;
    private final LongSupplier step;
    private final Consumer<Throwable> onCrash;
    private final Runnable onExit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signal = lock.newCondition();
    @GuardedBy("lock")
    private boolean wakeRequested;
    /**
     * Written by the manager thread: the time (ticker ms) its current sleep ends; {@code Long.MAX_VALUE} while a step
     * runs, so that every {@link #wakeBy} during a step is kept (the step may have read the state before it changed).
     */
    private volatile long plannedWakeMs = Long.MAX_VALUE;
    private final Thread thread;
    /** Set false by {@link #stop} on any thread; read by the manager thread. */
    private volatile boolean running = true;

    /**
     * @param ticker    the engine's clock, on which {@code step} returns its deadlines
     * @param maxWaitMs the longest sleep without a deadline or a wake-up, ms, &gt; 0; {@code Long.MAX_VALUE}: none
     * @param step      one scan; returns the time of the next deadline (ticker ms), {@code Long.MAX_VALUE} if none
     */
    ManagerThread(String name, Ticker ticker, long maxWaitMs, LongSupplier step, Consumer<Throwable> onCrash,
                  Runnable onExit) {
        if (maxWaitMs <= 0) {
            throw new IllegalArgumentException("maxWaitMs must be > 0, was " + maxWaitMs);
        }
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.maxWaitMs = maxWaitMs;
        this.step = step;
        this.onCrash = onCrash;
        this.onExit = onExit;
        this.thread = new Thread(this::loop, name);
        this.thread.setDaemon(true);
        this.thread.setUncaughtExceptionHandler((t, e) -> LOG.error("{} ended by an uncaught error", t.getName(), e));
    }

    void start() {
        thread.start();
    }

    /** Any thread: makes the next scan happen now. */
    void wake() {
        lock.lock();
        try {
            wakeRequested = true;
            signal.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Any thread: a new timer falls due at {@code deadlineMs} (ticker ms); wakes the manager if it sleeps towards a
     * later time (or runs a step, which may not have seen the timer), else does nothing (one volatile read).
     */
    void wakeBy(long deadlineMs) {
        if (deadlineMs < plannedWakeMs) {
            wake();
        }
    }

    /**
     * Any thread but the manager's: stops the loop and waits for {@code onExit} to finish; interrupts the thread if it
     * does not stop within {@code timeoutMs} (e.g. stuck in a slow HTTP call) and waits as long again.
     *
     * @return true if the thread ended
     */
    boolean stop(long timeoutMs) throws InterruptedException {
        running = false;
        wake();
        thread.join(timeoutMs);
        if (thread.isAlive()) {
            LOG.warn("{} did not stop within {} ms; interrupting it", thread.getName(), timeoutMs);
            thread.interrupt();
            thread.join(timeoutMs);
        }
        return !thread.isAlive();
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    private void loop() {
        try {
            while (running) {
                long deadlineMs = Long.MAX_VALUE;
                try {
                    deadlineMs = step.getAsLong();
                } catch (Throwable t) {
                    crash(t);
                }
                try {
                    awaitDeadlineOrWake(deadlineMs);
                } catch (InterruptedException e) {
                    if (running) {
                        crash(new LoadEngineException("the manager thread was interrupted", e));
                    }
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        } finally {
            try {
                onExit.run();
            } catch (Throwable t) {
                LOG.error("{}: cleanup at exit failed", thread.getName(), t);
            }
        }
    }

    /** Manager thread: sleeps until {@code deadlineMs}, a wake-up or {@code maxWaitMs}, whichever comes first. */
    private void awaitDeadlineOrWake(long deadlineMs) throws InterruptedException {
        long nowMs = ticker.nowMs();
        long untilMs = maxWaitMs == Long.MAX_VALUE ? deadlineMs : Math.min(deadlineMs, saturatedAdd(nowMs, maxWaitMs));
        lock.lock();
        try {
            planWakeAt(untilMs);
            // the deadline is on the ticker; the wait runs on real time (a manual ticker cannot wake a parked thread)
            long remainingNs = untilMs == Long.MAX_VALUE ? Long.MAX_VALUE
                    : TimeUnit.MILLISECONDS.toNanos(Math.max(0, untilMs - nowMs));
            while (running && !wakeRequested && remainingNs > 0) {
                if (remainingNs == Long.MAX_VALUE) {
                    signal.await();
                } else {
                    remainingNs = signal.awaitNanos(remainingNs);
                }
            }
            wakeRequested = false;
            plannedWakeMs = Long.MAX_VALUE; // a step runs next
        } finally {
            lock.unlock();
        }
    }

    /** Manager thread (or a test driving an engine without its thread): the planned sleep ends at {@code untilMs}. */
    void planWakeAt(long untilMs) {
        plannedWakeMs = untilMs;
    }

    /** For tests of an engine driven without its thread: true if a wake-up was requested since the last call. */
    boolean takeWakeRequest() {
        lock.lock();
        try {
            boolean requested = wakeRequested;
            wakeRequested = false;
            return requested;
        } finally {
            lock.unlock();
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private void crash(Throwable t) {
        try {
            onCrash.accept(t);
        } catch (Throwable again) {
            LOG.error("{}: recording a failure failed", thread.getName(), again);
        }
    }
}
