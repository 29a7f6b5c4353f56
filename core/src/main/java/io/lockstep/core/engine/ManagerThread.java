package io.lockstep.core.engine;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.annotation.concurrent.ThreadSafe;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager thread of one engine: calls {@code step} every {@code scanningFrequencyMs}, or sooner when
 * {@link #wake()}d (a load finished, a flush waits, the buffer passed its soft limit), until {@link #stop}.
 * Then it runs {@code onExit} (roll back, release buffers) on itself, so that manager-owned state is never touched
 * by two threads.
 *
 * <p>It never dies silently: anything {@code step} throws goes to {@code onCrash} (which records the failure for
 * the task thread) and the loop goes on until stopped. Thread-safe: {@code running} is volatile; wake-ups are
 * semaphore permits.
 */
@ThreadSafe
final class ManagerThread {
    private static final Logger LOG = LoggerFactory.getLogger(ManagerThread.class);

    private final long scanningFrequencyMs;
    private final Runnable step;
    private final Consumer<Throwable> onCrash;
    private final Runnable onExit;
    private final Semaphore wakeups = new Semaphore(0);
    private final Thread thread;
    /** Set false by {@link #stop} on any thread; read by the manager thread. */
    private volatile boolean running = true;

    ManagerThread(String name, long scanningFrequencyMs, Runnable step, Consumer<Throwable> onCrash, Runnable onExit) {
        this.scanningFrequencyMs = scanningFrequencyMs;
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
        if (wakeups.availablePermits() == 0) {
            wakeups.release();
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
        wakeups.release();
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
                try {
                    wakeups.tryAcquire(scanningFrequencyMs, TimeUnit.MILLISECONDS);
                    wakeups.drainPermits();
                    if (!running) {
                        break;
                    }
                    step.run();
                } catch (InterruptedException e) {
                    if (running) {
                        crash(new LoadEngineException("the manager thread was interrupted", e));
                    }
                    Thread.currentThread().interrupt();
                    break;
                } catch (Throwable t) {
                    crash(t);
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

    private void crash(Throwable t) {
        try {
            onCrash.accept(t);
        } catch (Throwable again) {
            LOG.error("{}: recording a failure failed", thread.getName(), again);
        }
    }
}
