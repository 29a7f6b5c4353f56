package io.lockstep.core.time;

/**
 * The one clock of core: the source of "now" for every timing decision of the engine (mini interval, idle fallback,
 * commit interval, transaction recycling, the manager thread's next deadline) and of the transaction clients (retry
 * backoff, label-state polling, running-transaction slot waits), and the wait of those client loops. Production
 * uses {@link #system()}; tests use {@link ManualTicker} and step time by hand (its {@link #sleep} advances the
 * clock instead of waiting). Implementations are thread-safe.
 *
 * <p>Waits that a parked thread must be woken from by another thread (the manager thread's wait for its next
 * deadline or a signal, a writer blocked on memory, a caller waiting for the manager to finish its flush or commit)
 * are real waits on {@link System#nanoTime()}-based conditions or futures (a manual clock cannot wake a parked
 * thread); the manager's deadline is still computed on this clock.
 */
public interface Ticker {

    /**
     * Milliseconds since an arbitrary but fixed origin; never decreases. On {@link #system()} the values look like
     * epoch milliseconds (the wall clock at start, then monotonic), so they may be shown as timestamps (e.g. the
     * progress table's informational {@code committed_at}); intervals never go negative.
     */
    long nowMs();

    /**
     * Waits {@code ms} milliseconds on this clock (0 or less returns at once). {@link ManualTicker} advances itself
     * instead of waiting.
     *
     * <p>Interrupts, as {@link Thread#sleep(long)}: an interrupt of the waiting thread (before or during the wait)
     * ends the wait with {@link InterruptedException} and clears the thread's interrupt status. A caller that cannot
     * throw {@link InterruptedException} on restores the status ({@code Thread.currentThread().interrupt()}) before
     * it throws its own exception, so the thread's owner still sees the interrupt; no caller swallows it.
     *
     * @throws InterruptedException if the waiting thread is interrupted (its interrupt status is then cleared)
     */
    void sleep(long ms) throws InterruptedException;

    /** The wall clock ({@link System#currentTimeMillis()}) made monotonic, and {@link Thread#sleep(long)}. */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }
}
