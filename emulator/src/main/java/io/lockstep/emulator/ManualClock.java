package io.lockstep.emulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.concurrent.ThreadSafe;

/**
 * A clock that moves only when told to: give it to {@link StarRocksEmulator.Builder#clock} and every timer
 * (begin timeout, prepared timeout, label retention, deferred publish) is driven by {@link #advance}, so tests
 * never sleep. Thread-safe (an atomic epoch-millisecond counter).
 */
@ThreadSafe
public final class ManualClock extends Clock {
    private final AtomicLong epochMs;
    private final ZoneId zone;

    /** Starts at {@code start}. */
    public ManualClock(Instant start) {
        this(new AtomicLong(start.toEpochMilli()), ZoneOffset.UTC);
    }

    /** Starts at 2026-01-01T00:00:00Z. */
    public ManualClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    private ManualClock(AtomicLong epochMs, ZoneId zone) {
        this.epochMs = epochMs;
        this.zone = zone;
    }

    /** Moves the clock forward by {@code duration} (must not be negative). */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("cannot move a clock backwards: " + duration);
        }
        epochMs.addAndGet(duration.toMillis());
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
        return new ManualClock(epochMs, newZone);
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(epochMs.get());
    }

    @Override
    public long millis() {
        return epochMs.get();
    }
}
