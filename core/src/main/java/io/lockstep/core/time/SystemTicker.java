package io.lockstep.core.time;

import java.util.concurrent.TimeUnit;

/**
 * {@link Ticker} over {@link System#nanoTime()} and {@link Thread#sleep(long)}, offset so that its values look like
 * epoch milliseconds at start.
 * Monotonic: a wall-clock step backwards never makes an interval negative. Thread-safe (immutable).
 */
final class SystemTicker implements Ticker {
    static final SystemTicker INSTANCE = new SystemTicker();

    private final long originNanos = System.nanoTime();
    private final long originEpochMs = System.currentTimeMillis();

    private SystemTicker() {
    }

    @Override
    public long nowMs() {
        return originEpochMs + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - originNanos);
    }

    @Override
    public void sleep(long ms) throws InterruptedException {
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }
}
