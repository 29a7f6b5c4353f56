package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waiting for a label to leave PREPARE (a load or prepare still running on the server): its state re-polled by
 * {@link LabelStatePoller} with the client's backoff ({@code retryBackoffInitialMs}, doubling up to
 * {@code retryBackoffMaxMs}) for at most {@code labelStateTimeoutMs} on the client's {@link Ticker}. Shared by both
 * dialects' settle paths.
 */
final class LabelStatePolling {
    private static final Logger LOG = LoggerFactory.getLogger(LabelStatePolling.class);

    /** One label-state query of a dialect. */
    @FunctionalInterface
    interface Query {
        /**
         * @throws TransactionException when the state cannot be learned
         */
        LabelState labelState(String database, String label) throws TransactionException;
    }

    private LabelStatePolling() {
    }

    /**
     * The label's state once it is not PREPARE, or PREPARE when {@code labelStateTimeoutMs} has passed. The start of
     * the wait is logged at WARN.
     *
     * @param why what led to the wait, for the log, e.g. "prepare of label L after I/O error ..."
     *
     * @throws TransactionException from the query, or when interrupted (the interrupt flag is set again)
     */
    static LabelState whilePrepare(LoadEndpoint endpoint, TransactionRef txn, String why, Query query)
            throws TransactionException {
        TransactionClientConfig config = endpoint.config();
        LabelStatePoller poller = new LabelStatePoller(endpoint.ticker(), config.retryBackoffInitialMs(),
                config.retryBackoffMaxMs());
        try {
            return poller.poll(() -> query.labelState(txn.database(), txn.label()),
                    state -> state != LabelState.PREPARE, config.labelStateTimeoutMs(), (first, remainingMs) -> {
                        if (first) {
                            LOG.warn("{}: label {} is still PREPARE, the prepare may still be running on the server;"
                                    + " polling its state for up to {} ms", why, txn.label(), remainingMs);
                        }
                    }).last();
        } catch (InterruptedException e) {
            // the client's operations carry only TransactionException: the flag is restored for the caller
            Thread.currentThread().interrupt();
            throw new TransactionException("interrupted while polling the state of " + txn, null, e);
        }
    }
}
