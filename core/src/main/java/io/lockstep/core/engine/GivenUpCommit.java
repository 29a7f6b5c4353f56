package io.lockstep.core.engine;

import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import org.slf4j.Logger;

/**
 * An at-least-once transaction whose prepare or commit failed for good: it is rolled back at once, so it does not hold
 * one of the server's running-transaction slots until the server's timeout. The rollback is safe even if the commit
 * did reach the server: StarRocks refuses to roll back a COMMITTED or VISIBLE label (the client settles its reply by
 * label state and reports "cannot be rolled back"), so committed data is never undone. When the rollback is
 * impossible the label is named at WARN, so an operator can end it by hand.
 *
 * <p>Not for exactly-once transactions handed to a checkpoint: those must be committed on restore, never rolled back.
 */
final class GivenUpCommit {
    private GivenUpCommit() {
    }

    /**
     * Rolls back {@code txn} after {@code cause} ended its commit; never throws.
     *
     * @param step what was given up, e.g. "commit" or "prepare", for the log
     * @return true if the label is rolled back
     */
    static boolean rollBack(TransactionClient client, TransactionRef txn, String step, TransactionException cause,
                            LoadMetrics metrics, Logger log) {
        try {
            client.rollback(txn);
            metrics.counter(MetricNames.ROLLBACKS).inc();
            log.warn("{} of {} was given up ({}); rolled it back so it holds no running-transaction slot", step, txn,
                    cause.getMessage());
            return true;
        } catch (TransactionException | RuntimeException e) {
            log.warn("{} of {} was given up and its rollback failed too: the label stays open on the server until its"
                    + " timeout unless it is rolled back by hand ({}); rollback failure: {}", step, txn,
                    cause.getMessage(), e.getMessage());
            return false;
        }
    }
}
