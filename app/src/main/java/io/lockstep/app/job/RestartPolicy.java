package io.lockstep.app.job;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;

/**
 * How the job restarts after a failure that may heal (a server outage, a broken connection): Flink's
 * {@code exponential-delay} restart strategy. The first restart waits {@code initialDelayMs}, each further one
 * twice as long up to {@code maxDelayMs}; after {@code attempts} restarts without a healthy period the job
 * fails. A job that then runs for {@code resetAfterMs} without failing starts over with a fresh budget and the
 * initial delay, so outages weeks apart each get the whole budget (a fixed-delay budget counts over the job's
 * whole life). Failures that can never heal skip this entirely: the sink raises them as
 * {@code io.lockstep.flink.sink.NonRecoverableSinkFailure}, bad input as exceptions marked non-recoverable.
 *
 * <p>Flink options set (docs: "Task Failure Recovery", {@code restart-strategy.exponential-delay.*}):
 * {@code initial-backoff}, {@code max-backoff}, {@code backoff-multiplier} 2, {@code reset-backoff-threshold},
 * {@code jitter-factor} 0.1 and {@code attempts-before-reset-backoff}.
 *
 * @param attempts restarts allowed between two healthy periods (&gt;= 0; 0 fails at the first failure)
 * @param initialDelayMs wait before the first restart, in ms (&gt;= 0)
 * @param maxDelayMs longest wait between restarts, in ms (&gt;= initialDelayMs)
 * @param resetAfterMs running this long without a failure resets the budget and the delay, in ms (&gt; 0)
 */
public record RestartPolicy(int attempts, long initialDelayMs, long maxDelayMs, long resetAfterMs) {

    /** Default restarts between healthy periods. */
    public static final int DEFAULT_ATTEMPTS = 10;
    /** Default first delay: 5 s. */
    public static final long DEFAULT_INITIAL_DELAY_MS = 5_000L;
    /** Default longest delay: 5 min. */
    public static final long DEFAULT_MAX_DELAY_MS = 300_000L;
    /** Default healthy period that resets the budget: 30 min. */
    public static final long DEFAULT_RESET_AFTER_MS = 1_800_000L;
    private static final double BACKOFF_MULTIPLIER = 2.0;
    private static final double JITTER = 0.1;

    /** @throws IllegalArgumentException naming the value that is out of range */
    public RestartPolicy {
        if (attempts < 0) {
            throw new IllegalArgumentException("restart attempts must not be negative, got " + attempts);
        }
        if (initialDelayMs < 0) {
            throw new IllegalArgumentException("restart delay must not be negative, got " + initialDelayMs);
        }
        if (maxDelayMs < initialDelayMs) {
            throw new IllegalArgumentException("the longest restart delay (" + maxDelayMs
                    + " ms) must not be below the first (" + initialDelayMs + " ms)");
        }
        if (resetAfterMs <= 0) {
            throw new IllegalArgumentException("the healthy period that resets restarts must be positive, got "
                    + resetAfterMs);
        }
    }

    /**
     * Sets the restart strategy in {@code settings}, replacing any other.
     *
     * @param settings a job or cluster configuration
     * @return {@code settings}
     */
    public Configuration applyTo(Configuration settings) {
        if (attempts == 0) {
            settings.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            return settings;
        }
        settings.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF,
                Duration.ofMillis(Math.max(1, initialDelayMs)));
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF,
                Duration.ofMillis(Math.max(1, maxDelayMs)));
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER, BACKOFF_MULTIPLIER);
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD,
                Duration.ofMillis(resetAfterMs));
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, JITTER);
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, attempts);
        return settings;
    }

    /** @return e.g. {@code exponential 5s..5m, 10 attempts, reset after 30m} */
    public String describe() {
        if (attempts == 0) {
            return "no restarts";
        }
        return "exponential " + seconds(initialDelayMs) + ".." + seconds(maxDelayMs) + ", " + attempts
                + " attempts, reset after " + seconds(resetAfterMs) + " healthy";
    }

    private static String seconds(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
