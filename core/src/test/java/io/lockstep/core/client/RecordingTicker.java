package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link Ticker} that never waits: each sleep is recorded and advances its clock. */
final class RecordingTicker implements Ticker {
    private final AtomicLong nowMs = new AtomicLong(1_000_000);
    private final List<Long> sleeps = new CopyOnWriteArrayList<>();
    private volatile Runnable onSleep = () -> { };

    /** Runs {@code action} at every sleep, before the clock advances (to change the world during a backoff). */
    void onSleep(Runnable action) {
        this.onSleep = action;
    }

    @Override
    public long nowMs() {
        return nowMs.get();
    }

    @Override
    public void sleep(long ms) {
        sleeps.add(ms);
        onSleep.run();
        nowMs.addAndGet(Math.max(0, ms));
    }

    /** Every requested wait, in order, ms. */
    List<Long> sleeps() {
        return List.copyOf(sleeps);
    }
}
