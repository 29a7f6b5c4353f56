package io.lockstep.core.time;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Ticker} that only moves when told to; for tests (here and in the Flink layer). Thread-safe: a test may
 * advance it while the engine reads it from another thread.
 */
public final class ManualTicker implements Ticker {
    private final AtomicLong nowMs;

    /** Starts at {@code startMs} (use a realistic epoch value, e.g. 1_700_000_000_000, so "0" is long ago). */
    public ManualTicker(long startMs) {
        this.nowMs = new AtomicLong(startMs);
    }

    @Override
    public long nowMs() {
        return nowMs.get();
    }

    /** Never waits: advances this clock by {@code ms} (0 or less: no change), as if the wait had passed. */
    @Override
    public void sleep(long ms) {
        if (ms > 0) {
            nowMs.addAndGet(ms);
        }
    }

    /**
     * Moves time forward.
     *
     * @param deltaMs milliseconds, &gt;= 0
     * @return the new time, ms
     * @throws IllegalArgumentException if {@code deltaMs} is negative (time never goes back)
     */
    public long advanceMs(long deltaMs) {
        if (deltaMs < 0) {
            throw new IllegalArgumentException("time never goes back; advanceMs(" + deltaMs + ")");
        }
        return nowMs.addAndGet(deltaMs);
    }
}
