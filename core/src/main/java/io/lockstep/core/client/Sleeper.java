package io.lockstep.core.client;

/**
 * The time source of the transaction client's retry backoff and label-state polling: it reads the time and
 * waits. Production uses {@link #SYSTEM}; tests pass a fake that advances its own clock instead of sleeping.
 * Implementations are thread-safe.
 */
public interface Sleeper {

    /** The real clock ({@link System#nanoTime()} based) and {@link Thread#sleep(long)}. */
    Sleeper SYSTEM = new Sleeper() {
        @Override
        public long nowMs() {
            return System.nanoTime() / 1_000_000L;
        }

        @Override
        public void sleep(long ms) throws InterruptedException {
            if (ms > 0) {
                Thread.sleep(ms);
            }
        }
    };

    /** A monotonic time in ms; only differences are meaningful. */
    long nowMs();

    /**
     * Waits {@code ms} milliseconds (0 or less returns at once).
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    void sleep(long ms) throws InterruptedException;
}
