package io.lockstep.core.restart;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.LabelStatePoller;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Walks an earlier run's shared labels after the cycle up to which it is known finished, and rolls back the ones
 * left open (docs/reliability.md#open-transactions-left-behind). Labels are read with the label-state query
 * (docs/protocol.md#labels-and-label-state) and walked upward until {@value #UNKNOWN_LABELS_TO_STOP} consecutive
 * labels are unknown to the server (a begin that never reached it leaves one gap, and a run's labels end after it).
 *
 * <p>COMMITTED labels (publish pending, a commit whose reply was lost) count as committed; with
 * {@code awaitVisible} they are also waited for until VISIBLE (the exactly-once mode reads positions only after
 * that), bounded by {@code visibleTimeoutMs}. A rollback the server refuses (typically a commit of the dead run still
 * being applied) is followed by polling the label until it leaves PREPARE, at most {@code visibleTimeoutMs}: a
 * label that ends committed counts as committed, one that ends aborted or unknown is settled, one still open
 * rethrows the refusal.
 *
 * <p>Runs on the thread that opens the subtask; waits go through a {@link LabelStatePoller} on the given
 * {@link Ticker}.
 */
public final class SharedLabelWalk {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLabelWalk.class);
    /** Consecutive unknown labels that end the walk over a run's labels. */
    public static final int UNKNOWN_LABELS_TO_STOP = 2;
    /** Every state but the open ones: a label whose rollback was refused is awaited until it reaches one. */
    private static final Set<LabelState> NOT_OPEN = EnumSet.complementOf(EnumSet.of(LabelState.PREPARE,
            LabelState.PREPARED));
    /** Every state but COMMITTED: a COMMITTED label is awaited until it leaves it (VISIBLE, or a failure). */
    private static final Set<LabelState> NOT_COMMITTED = EnumSet.complementOf(EnumSet.of(LabelState.COMMITTED));

    private final TransactionClient client;
    private final LabelStatePoller poller;
    private final LoadMetrics metrics;
    private final long visibleTimeoutMs;
    private final boolean awaitVisible;

    /**
     * @param visibleTimeoutMs longest wait for a COMMITTED label to become VISIBLE, or for a label whose rollback was
     *                         refused to leave PREPARE, ms
     * @param awaitVisible     wait for COMMITTED labels to become VISIBLE
     */
    public SharedLabelWalk(TransactionClient client, Ticker ticker, LoadMetrics metrics, long visibleTimeoutMs,
                           boolean awaitVisible) {
        this.client = Objects.requireNonNull(client, "client");
        this.poller = LabelStatePoller.forSettling(ticker);
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.visibleTimeoutMs = visibleTimeoutMs;
        this.awaitVisible = awaitVisible;
    }

    /**
     * Walks {@code run}'s labels after its last committed cycle: committed ones advance it, open ones are collected
     * in {@link SharedLabelRun#open()}.
     *
     * @throws TransactionException if a label state cannot be read, or a COMMITTED label does not become VISIBLE
     */
    public void walk(SharedLabelRun run) throws TransactionException, InterruptedException {
        long cycle = run.lastCommittedCycle() + 1;
        int unknown = 0;
        while (unknown < UNKNOWN_LABELS_TO_STOP) {
            String label = run.label(cycle);
            LabelState state = client.labelState(run.database(), label);
            switch (state) {
                case UNKNOWN -> unknown++;
                case PREPARE, PREPARED -> {
                    unknown = 0;
                    run.open().add(label);
                    run.seen(cycle);
                }
                case COMMITTED, VISIBLE -> {
                    unknown = 0;
                    committed(run, label, state);
                }
                case ABORTED -> {
                    unknown = 0;
                    run.seen(cycle);
                }
            }
            cycle++;
        }
    }

    /** Reads {@code run}'s open labels again: the ones that ended (committed or aborted) leave the open list. */
    public void refresh(SharedLabelRun run) throws TransactionException, InterruptedException {
        for (Iterator<String> it = run.open().iterator(); it.hasNext(); ) {
            String label = it.next();
            LabelState state = client.labelState(run.database(), label);
            if (state.isCommitted()) {
                committed(run, label, state);
                it.remove();
            } else if (state == LabelState.ABORTED) {
                it.remove();
            }
        }
    }

    /**
     * Rolls back {@code run}'s open labels (see the class comment for a refused rollback); each one rolled back is
     * counted under {@link MetricNames#SETTLED_TRANSACTIONS} and logged at INFO with {@code owner}.
     *
     * @param owner who left it, for the log, e.g. "job j1"
     * @throws TransactionException if a label cannot be rolled back and stays open
     */
    public void rollBackOpen(SharedLabelRun run, String owner) throws TransactionException, InterruptedException {
        for (Iterator<String> it = run.open().iterator(); it.hasNext(); ) {
            String label = it.next();
            try {
                client.rollback(TransactionRef.multiTable(run.database(), label));
                metrics.counter(MetricNames.SETTLED_TRANSACTIONS).inc();
                LOG.info("{}: rolled back shared transaction {} (database {}) left open by run {}", owner, label,
                        run.database(), run.runId());
            } catch (TransactionException e) {
                LabelState state = awaitNotOpen(run.database(), label);
                if (state.isCommitted()) {
                    committed(run, label, state);
                } else if (state != LabelState.ABORTED && state != LabelState.UNKNOWN) {
                    throw e;
                }
            }
            it.remove();
        }
    }

    private void committed(SharedLabelRun run, String label, LabelState state)
            throws TransactionException, InterruptedException {
        if (awaitVisible && state == LabelState.COMMITTED) {
            awaitVisible(run.database(), label);
        }
        run.committed(LabelGenerator.sharedLabelCycle(label));
    }

    /** Polls a label whose rollback was refused until it leaves PREPARE, at most {@code visibleTimeoutMs}. */
    private LabelState awaitNotOpen(String database, String label) throws TransactionException, InterruptedException {
        return poller.awaitState(client, database, label, NOT_OPEN, visibleTimeoutMs);
    }

    /**
     * Waits until {@code label} is VISIBLE, at most {@code visibleTimeoutMs}; counted under
     * {@link MetricNames#SETTLED_TRANSACTIONS}.
     *
     * @throws TransactionException if it leaves COMMITTED for another state, or stays COMMITTED too long
     */
    public void awaitVisible(String database, String label) throws TransactionException, InterruptedException {
        LabelState state = poller.awaitState(client, database, label, NOT_COMMITTED, visibleTimeoutMs);
        if (state == LabelState.VISIBLE) {
            metrics.counter(MetricNames.SETTLED_TRANSACTIONS).inc();
            return;
        }
        if (state != LabelState.COMMITTED) {
            throw new TransactionException("label " + label + " in database " + database + " went from COMMITTED "
                    + "to " + state + " while waiting for it to become VISIBLE", null);
        }
        throw new TransactionException("label " + label + " in database " + database + " is COMMITTED but not "
                + "VISIBLE after " + visibleTimeoutMs + " ms (publish is slow); positions are read "
                + "only once it is visible, the next start settles it again", null);
    }
}
