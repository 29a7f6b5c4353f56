package io.lockstep.core.client;

import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retries of one operation call: at most {@code maxRetries} after the first attempt, waiting
 * {@code retryBackoffInitialMs} before the first retry and doubling up to {@code retryBackoffMaxMs}. Each retry
 * is counted under {@code retries.<class>}. Confined to the calling thread.
 */
final class RetryBudget {
    private static final Logger LOG = LoggerFactory.getLogger(RetryBudget.class);

    private final TransactionClientConfig config;
    private final Sleeper sleeper;
    private final LoadMetrics metrics;
    private final String operation;
    private int attempts = 1;

    /**
     * @param operation what is being done, for messages, e.g. "commit of label L (db D, multi-table)"
     */
    RetryBudget(TransactionClientConfig config, Sleeper sleeper, LoadMetrics metrics, String operation) {
        this.config = config;
        this.sleeper = sleeper;
        this.metrics = metrics;
        this.operation = operation;
    }

    /** Attempts made so far, counting the one in progress (1 before any retry). */
    int attempts() {
        return attempts;
    }

    /**
     * Accounts for a retriable failure: waits the backoff and returns when another attempt may be made.
     *
     * @param failureClass the (retriable) class, counted under {@code retries.<class>}
     * @param failure      what went wrong, for the log and the final error
     * @param serverStatus the server's {@code Status}, or null
     * @throws TransactionException when the retries are used up (naming the attempts and the last failure), or
     *                              when interrupted while waiting (the interrupt flag is restored)
     */
    void retryOrFail(FailureClass failureClass, String failure, String serverStatus, Throwable cause)
            throws TransactionException {
        if (attempts > config.maxRetries()) {
            throw new TransactionException(operation + " failed after " + attempts + " attempt(s); last failure ("
                    + failureClass + "): " + failure, serverStatus, cause);
        }
        long backoffMs = Math.min(config.retryBackoffMaxMs(),
                config.retryBackoffInitialMs() << Math.min(attempts - 1, 20));
        metrics.counter(MetricNames.RETRIES_PREFIX + failureClass.name()).inc();
        LOG.warn("{}: retry {}/{} in {} ms after {}: {}", operation, attempts, config.maxRetries(), backoffMs,
                failureClass, failure);
        try {
            sleeper.sleep(backoffMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionException(operation + " interrupted while waiting to retry after: " + failure,
                    serverStatus, e);
        }
        attempts++;
    }
}
