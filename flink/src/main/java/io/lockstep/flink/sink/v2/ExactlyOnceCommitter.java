package io.lockstep.flink.sink.v2;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.LostPreparedTransactionException;
import io.lockstep.flink.sink.FlinkLoadMetrics;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import io.lockstep.flink.sink.SinkSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the transactions {@link ExactlyOnceSinkWriter} prepared, by label, once their checkpoint completed
 * (StarRocks {@code /api/transaction/commit}; Doris {@code _stream_load_2pc} with {@code txn_operation: commit}),
 * through any live FE. Flink hands back the committables of the restored checkpoint after a failover, so a label may
 * be committed twice: the client treats COMMITTED/VISIBLE as done (docs/exactly-once.md).
 *
 * <p>Every outcome falls in one of four classes:
 * <ul>
 *   <li>committed (now or earlier): done;</li>
 *   <li>a refusal no attempt or restart can heal (the credentials or a privilege refused, a data error: see
 *       {@link NonRecoverableSinkFailure}): raised at once as a {@link NonRecoverableSinkFailure}, so Flink fails the
 *       job without going through the restart strategy, as every other part of the sink does;</li>
 *   <li>the label is ABORTED or UNKNOWN (the server's prepared timeout ended it, or it was forgotten): that
 *       checkpoint's rows for the table are lost, and neither a retry nor a restore can help: the commit raises a
 *       {@link NonRecoverableSinkFailure} around a {@link LostPreparedTransactionException} naming the label, table
 *       and the server settings to raise, so the job fails once instead of restoring again and again;</li>
 *   <li>anything else (the client's own bounded retries ran out, the label is still PREPARED, or its state cannot
 *       be read): {@code retryLater}, up to {@value #MAX_COMMIT_ATTEMPTS} attempts, then the commit throws.</li>
 * </ul>
 *
 * <p>Runs on the committer's task thread; the client is opened lazily and closed in {@link #close}.
 */
@NotThreadSafe
final class ExactlyOnceCommitter implements Committer<CheckpointedTransaction> {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceCommitter.class);
    /** Commit attempts per committable before the job fails (each attempt already retries inside the client). */
    static final int MAX_COMMIT_ATTEMPTS = 4;

    private final SinkSettings settings;
    private final MetricGroup metricGroup;
    private TransactionClient client;

    ExactlyOnceCommitter(SinkSettings settings, MetricGroup metricGroup) {
        this.settings = settings;
        this.metricGroup = metricGroup;
    }

    /** A committer on a given client (tests); the committer closes it. */
    ExactlyOnceCommitter(TransactionClient client) {
        this.settings = null;
        this.metricGroup = null;
        this.client = client;
    }

    /**
     * Commits each request's label.
     *
     * @throws IOException                naming the label and table if attempts ran out
     * @throws NonRecoverableSinkFailure around an {@link UncheckedIOException} naming the label and table if the
     *                                    target refused the commit in a way no restart can heal, or the label can no
     *                                    longer be committed (ABORTED or UNKNOWN)
     */
    @Override
    public void commit(Collection<CommitRequest<CheckpointedTransaction>> requests) throws IOException {
        for (CommitRequest<CheckpointedTransaction> request : requests) {
            CheckpointedTransaction txn = request.getCommittable();
            try {
                client().commit(txn.ref());
                LOG.debug("committed {}", txn);
            } catch (TransactionException e) {
                if (NonRecoverableSinkFailure.canNeverHeal(e)) {
                    throw NonRecoverableSinkFailure.classify(new UncheckedIOException(new IOException("commit of "
                            + txn + " was refused; no attempt or restart can heal it: " + e.getMessage(), e)));
                }
                LabelState state = stateOrNull(txn);
                if (state != null && state.isCommitted()) {
                    request.signalAlreadyCommitted();
                } else if (state != null && LostPreparedTransactionException.isLost(state)) {
                    LostPreparedTransactionException lost = LostPreparedTransactionException.committable(txn, state, e);
                    throw NonRecoverableSinkFailure.classify(new UncheckedIOException(new IOException(
                            lost.getMessage(), lost)));
                } else {
                    String seen = state == null ? "label state unreadable" : "label state " + state;
                    if (request.getNumberOfRetries() + 1 < MAX_COMMIT_ATTEMPTS) {
                        LOG.warn("commit of {} did not settle ({}), retrying: {}", txn, seen, e.getMessage());
                        request.retryLater();
                    } else {
                        throw new IOException("commit of " + txn + " did not settle after " + MAX_COMMIT_ATTEMPTS
                                + " attempts (" + seen + "): " + e.getMessage(), e);
                    }
                }
            }
        }
    }

    private LabelState stateOrNull(CheckpointedTransaction txn) {
        try {
            return client().labelState(txn.database(), txn.label());
        } catch (TransactionException e) {
            LOG.warn("cannot read the state of {}: {}", txn, e.getMessage());
            return null;
        }
    }

    private TransactionClient client() {
        if (client == null) {
            client = settings.newTransactionClient(new FlinkLoadMetrics(metricGroup));
        }
        return client;
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
