package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The patient wait of one begin for a running-transaction slot: a begin refused by the server's per-database limit
 * ({@code current running txns on db ... larger than limit}, FE config {@code max_running_txn_num_per_db}) means the
 * server is busy, not broken, so it is retried for up to {@code runningTxnLimitWaitMs} of the client's
 * {@link Ticker} time, apart from the {@code maxRetries} budget of other failures. Waits start at
 * {@code retryBackoffInitialMs} and double up to 1 s (a slot is taken by whoever asks first after it frees).
 *
 * <p>Reported as retries under {@code retries.RUNNING_TXN_LIMIT} and as waited time under
 * {@link MetricNames#RUNNING_TXN_LIMIT_WAIT_MS}; the first refusal is logged at WARN, the slot found after a wait at
 * INFO. Confined to the calling thread.
 */
final class RunningTransactionSlotWait {
    private static final Logger LOG = LoggerFactory.getLogger(RunningTransactionSlotWait.class);
    private static final long MAX_STEP_MS = 1_000;

    private final TransactionClientConfig config;
    private final Ticker ticker;
    private final LoadMetrics metrics;
    private final String operation;
    private long firstRefusalMs = -1;
    private long nextWaitMs;

    /**
     * @param operation what is waiting, for messages, e.g. "begin of label L (db D, multi-table)"
     */
    RunningTransactionSlotWait(TransactionClientConfig config, Ticker ticker, LoadMetrics metrics,
                               String operation) {
        this.config = config;
        this.ticker = ticker;
        this.metrics = metrics;
        this.operation = operation;
        this.nextWaitMs = Math.min(MAX_STEP_MS, config.retryBackoffInitialMs());
    }

    /**
     * Accounts for one refusal: waits the next step and returns when the begin may be sent again.
     *
     * @param refusal the server's reply, described, for the log and the final error
     * @param serverStatus the server's {@code Status}
     * @throws TransactionException when {@code runningTxnLimitWaitMs} has passed since the first refusal (naming the
     *                              wait, the reply and what to change), or when interrupted (the flag is restored)
     */
    void waitOrFail(String refusal, String serverStatus) throws TransactionException {
        long nowMs = ticker.nowMs();
        if (firstRefusalMs < 0) {
            firstRefusalMs = nowMs;
            LOG.warn("{}: the server's running-transaction limit is reached ({}); waiting up to {} ms for a slot",
                    operation, refusal, config.runningTxnLimitWaitMs());
        }
        long remainingMs = firstRefusalMs + config.runningTxnLimitWaitMs() - nowMs;
        if (remainingMs <= 0) {
            throw new TransactionException(operation + " failed: the server's running-transaction limit refused it for "
                    + (nowMs - firstRefusalMs) + " ms (wait limit " + config.runningTxnLimitWaitMs() + " ms); last reply "
                    + refusal + ". Raise the FE's max_running_txn_num_per_db, run fewer loading jobs or subtasks on"
                    + " this database, or wait longer (sink.running-txn-limit.wait-ms)", serverStatus);
        }
        long waitMs = Math.min(nextWaitMs, remainingMs);
        metrics.counter(MetricNames.RETRIES_PREFIX + FailureClass.RUNNING_TXN_LIMIT.name()).inc();
        LOG.debug("{}: running-transaction limit, retry in {} ms", operation, waitMs);
        try {
            ticker.sleep(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionException(operation + " interrupted while waiting for a running-transaction slot",
                    serverStatus, e);
        }
        metrics.counter(MetricNames.RUNNING_TXN_LIMIT_WAIT_MS).inc(waitMs);
        nextWaitMs = Math.min(MAX_STEP_MS, nextWaitMs * 2);
    }

    /** Call when the begin succeeded: logs how long it waited, if it did. */
    void succeeded() {
        if (firstRefusalMs >= 0) {
            LOG.info("{}: got a running-transaction slot after {} ms", operation, ticker.nowMs() - firstRefusalMs);
        }
    }
}
