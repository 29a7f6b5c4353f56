package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The one loop that waits for a label to reach a state: poll, stop when the answer is accepted or the deadline has
 * passed, else sleep with backoff and poll again. Label states come from the label-state query
 * (docs/protocol.md#labels-and-label-state).
 *
 * <p>Shape of the loop, for a timeout {@code T}: the deadline is {@code now + T} on the {@link Ticker}'s clock; each
 * round polls first, then reads the remaining time; an accepted answer or a remaining time {@code <= 0} ends it, else
 * it waits {@code min(wait, remaining)} ms, the wait starting at {@code initialWaitMs} and doubling up to
 * {@code maxWaitMs}. So the first poll always happens, even with {@code T <= 0}, and the loop never sleeps past the
 * deadline. Units are milliseconds throughout.
 *
 * <p>Interrupts follow {@link Ticker#sleep(long)}: the wait's {@link InterruptedException} is thrown to the caller
 * unchanged; the {@link TransactionClient} operations, which cannot carry it, wrap it in a
 * {@link TransactionException} at their own boundary.
 *
 * <p>Immutable; any thread (each call runs on the calling thread and keeps its state on the stack).
 */
public final class LabelStatePoller {
    /** Initial wait of the settling polls after a restart, ms. */
    public static final long SETTLE_INITIAL_WAIT_MS = 50;
    /** Longest wait of the settling polls after a restart, ms. */
    public static final long SETTLE_MAX_WAIT_MS = 1000;

    /** One poll: a label state, or whatever else shows what is awaited (e.g. rows of the progress table). */
    @FunctionalInterface
    public interface Poll<T> {
        /**
         * @throws TransactionException when the state cannot be read
         * @throws InterruptedException when interrupted inside the poll
         */
        T poll() throws TransactionException, InterruptedException;
    }

    /** Called before each wait: {@code first} for the first one, with the time left until the deadline, ms. */
    @FunctionalInterface
    public interface BeforeWait {
        void beforeWait(boolean first, long remainingMs);
    }

    /**
     * The end of a poll loop.
     *
     * @param last    the last answer polled
     * @param reached whether it was accepted (false: the deadline passed first)
     */
    public record Outcome<T>(T last, boolean reached) {
    }

    private final Ticker ticker;
    private final long initialWaitMs;
    private final long maxWaitMs;

    /**
     * @param ticker       clock and sleeps of the loop
     * @param initialWaitMs first wait between polls, ms, &gt; 0
     * @param maxWaitMs     longest wait between polls, ms, &gt;= {@code initialWaitMs}
     * @throws IllegalArgumentException naming the bad wait
     */
    public LabelStatePoller(Ticker ticker, long initialWaitMs, long maxWaitMs) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        if (initialWaitMs <= 0 || maxWaitMs < initialWaitMs) {
            throw new IllegalArgumentException("poll waits must be 0 < initial <= max, were initial " + initialWaitMs
                    + " ms, max " + maxWaitMs + " ms");
        }
        this.initialWaitMs = initialWaitMs;
        this.maxWaitMs = maxWaitMs;
    }

    /**
     * The poller of the settling after a restart: waits from {@value #SETTLE_INITIAL_WAIT_MS} to
     * {@value #SETTLE_MAX_WAIT_MS} ms.
     */
    public static LabelStatePoller forSettling(Ticker ticker) {
        return new LabelStatePoller(ticker, SETTLE_INITIAL_WAIT_MS, SETTLE_MAX_WAIT_MS);
    }

    /**
     * Polls the state of {@code label} in {@code database} until it is one of {@code until} or {@code timeoutMs} has
     * passed.
     *
     * @return the last state read: one of {@code until}, or any state when the deadline passed
     * @throws TransactionException from the query
     * @throws InterruptedException when interrupted while waiting
     */
    public LabelState awaitState(TransactionClient client, String database, String label, Set<LabelState> until,
                                 long timeoutMs) throws TransactionException, InterruptedException {
        Objects.requireNonNull(client, "client");
        return poll(() -> client.labelState(database, label), until::contains, timeoutMs, null).last();
    }

    /**
     * The loop itself (see the class comment).
     *
     * @param poll       one poll
     * @param accepted   whether an answer ends the loop
     * @param timeoutMs  the time after which the loop ends with the last answer, ms
     * @param beforeWait called before each wait, or null
     * @return the last answer and whether it was accepted
     * @throws TransactionException from {@code poll}
     * @throws InterruptedException when interrupted while waiting or inside {@code poll}
     */
    public <T> Outcome<T> poll(Poll<T> poll, Predicate<? super T> accepted, long timeoutMs, BeforeWait beforeWait)
            throws TransactionException, InterruptedException {
        long deadlineMs = ticker.nowMs() + timeoutMs;
        long waitMs = initialWaitMs;
        boolean first = true;
        while (true) {
            T answer = poll.poll();
            if (accepted.test(answer)) {
                return new Outcome<>(answer, true);
            }
            long remainingMs = deadlineMs - ticker.nowMs();
            if (remainingMs <= 0) {
                return new Outcome<>(answer, false);
            }
            if (beforeWait != null) {
                beforeWait.beforeWait(first, remainingMs);
            }
            first = false;
            ticker.sleep(Math.min(waitMs, remainingMs));
            waitMs = Math.min(maxWaitMs, waitMs * 2);
        }
    }
}
