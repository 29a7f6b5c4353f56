package io.lockstep.emulator;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an emulator's timer evaluation every {@code intervalMs} of real time on one daemon thread, so timers fire
 * even when no request arrives. Started and stopped by the thread owning the emulator.
 */
final class TimerSweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TimerSweeper.class);
    private final ScheduledExecutorService executor;

    /** Starts sweeping now. */
    TimerSweeper(Runnable tick, long intervalMs) {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lockstep-emulator-sweeper");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                tick.run();
            } catch (RuntimeException e) {
                LOG.error("timer sweep failed; retrying on the next run", e);
            }
        }, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
