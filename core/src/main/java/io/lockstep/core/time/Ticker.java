package io.lockstep.core.time;

/**
 * The source of "now" for every timing decision of the engine (mini interval, idle fallback, commit interval,
 * transaction recycling). Production uses {@link #system()}; tests use {@link ManualTicker} and step time by hand.
 *
 * <p>Only decisions are made on this clock. A thread that really blocks (memory backpressure, waiting for a
 * flush) bounds its wait on {@link System#nanoTime()}, because a manual clock cannot wake a parked thread.
 */
@FunctionalInterface
public interface Ticker {

    /** Milliseconds since an arbitrary but fixed origin; never decreases. */
    long nowMs();

    /** The wall clock ({@link System#currentTimeMillis()}), made monotonic. */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }
}
