package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import io.lockstep.core.metrics.LoadMetrics;
import java.io.IOException;
import io.lockstep.core.metrics.MetricNames;

/**
 * The retries of one operation call: at most {@code maxRetries} after the first attempt, waiting
 * {@code retryBackoffInitialMs} before the first retry and doubling up to {@code retryBackoffMaxMs}. Each retry
 * is counted under {@code retries.<class>}. Confined to the calling thread.
 *
 * <p>{@link #run} is the one retry loop of the client's operations (both dialects' load protocol and the SQL API;
 * {@code R} is the reply type): send, let the operation decide on the reply (or
 * the I/O error), and wait out the backoff before the next attempt. A request that never left the client
 * ({@link NotSentException}) is retried as a {@link FailureClass#CONNECTION} failure by the loop itself. Retries are
 * logged through the target's {@link OutageLog}: one WARN when an outage starts, one when the target answers again.
 */
final class RetryBudget {
    private final TransactionClientConfig config;
    private final Ticker ticker;
    private final LoadMetrics metrics;
    private final String operation;
    private final OutageLog outage;
    private int attempts = 1;

    /**
     * @param operation what is being done, for messages, e.g. "commit of label L (db D, multi-table)"
     */
    RetryBudget(TransactionClientConfig config, Ticker ticker, LoadMetrics metrics, String operation) {
        this.config = config;
        this.ticker = ticker;
        this.metrics = metrics;
        this.operation = operation;
        this.outage = OutageLog.of(config.loadUrls());
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
    private void retryOrFail(FailureClass failureClass, String failure, String serverStatus, Throwable cause)
            throws TransactionException {
        if (attempts > config.maxRetries()) {
            throw new TransactionException(operation + " failed after " + attempts + " attempt(s); last failure ("
                    + failureClass + "): " + failure, serverStatus, cause);
        }
        long backoffMs = Math.min(config.retryBackoffMaxMs(),
                config.retryBackoffInitialMs() << Math.min(attempts - 1, 20));
        metrics.counter(MetricNames.RETRIES_PREFIX + failureClass.name()).inc();
        outage.retrying(operation + ": retry " + attempts + "/" + config.maxRetries(), failureClass, failure,
                backoffMs);
        try {
            ticker.sleep(backoffMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionException(operation + " interrupted while waiting to retry after: " + failure,
                    serverStatus, e);
        }
        attempts++;
    }

    /** What one attempt of an operation decided. */
    sealed interface Step<T> permits Done, Retry, Again {
    }

    /** The operation ended with {@code value}. */
    record Done<T>(T value) implements Step<T> {
    }

    /** A retriable failure: wait the backoff and send again, or fail when the retries are used up. */
    record Retry<T>(FailureClass failureClass, String failure, String serverStatus, Throwable cause)
            implements Step<T> {
    }

    /** Send again at once, without using a retry: the operation waited itself (e.g. for a running-transaction slot). */
    record Again<T>() implements Step<T> {
    }

    /** Sends one attempt's request; {@code R} is the reply type ({@link ServerReply} for the load protocol). */
    @FunctionalInterface
    interface Call<R> {
        R send() throws IOException;
    }

    /** Decides on one attempt: {@code reply} when the request got one, else the {@code failure} that ended it. */
    @FunctionalInterface
    interface Decision<R, T> {
        Step<T> decide(R reply, IOException failure) throws TransactionException;
    }

    /**
     * The retry loop: sends with {@code call} and asks {@code decision} until it is {@link Done}, waiting the backoff
     * before each {@link Retry}. A request that was not sent ({@link NotSentException}) is retried as
     * {@link FailureClass#CONNECTION} without asking.
     *
     * @return the value of the {@link Done} step
     * @throws TransactionException from {@code decision}, or when the retries are used up (see {@link #retryOrFail})
     */
    <R, T> T run(Call<R> call, Decision<R, T> decision) throws TransactionException {
        while (true) {
            R reply = null;
            IOException failure = null;
            try {
                reply = call.send();
            } catch (NotSentException e) {
                retryOrFail(FailureClass.CONNECTION, e.getMessage(), null, e);
                continue;
            } catch (IOException e) {
                failure = e;
            }
            Step<T> step = decision.decide(reply, failure);
            if (step instanceof Done<T> done) {
                outage.answered();
                return done.value();
            }
            if (step instanceof Retry<T> retry) {
                retryOrFail(retry.failureClass(), retry.failure(), retry.serverStatus(), retry.cause());
            }
        }
    }

    static <T> Step<T> done(T value) {
        return new Done<>(value);
    }

    static <T> Step<T> retry(FailureClass failureClass, String failure, String serverStatus, Throwable cause) {
        return new Retry<>(failureClass, failure, serverStatus, cause);
    }

    static <T> Step<T> again() {
        return new Again<>();
    }
}
