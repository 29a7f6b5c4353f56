package io.lockstep.core.restart;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.ExactlyOnceLabelScheme;
import io.lockstep.core.label.LabelGenerator;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolls back the transactions an earlier run of an exactly-once sink subtask left open after the checkpoint it is
 * restored from (docs/exactly-once.md#restore; the official connector's lingering-transaction abort:
 * docs/protocol.md#what-the-official-starrocks-connector-does).
 *
 * <p>Labels are derived, not listed (as apache/flink-connector-kafka's {@code TransactionAbortStrategyImpl.PROBING}):
 * for each {@link LingeringScope} and table, the labels {@code {prefix}-{table}-{subtask}-{runId}-{n}} are probed for
 * {@code n = afterCheckpointId + 1, + 2, ...} with {@code get_load_state} (docs/protocol.md#labels-and-label-state);
 * with {@link ExactlyOnceLabelScheme#ONE_PER_FLUSH} (Doris, one load per transaction) each {@code n} is walked as
 * {@code ...-{n}_1, ...-{n}_2, ...} up to its first unknown flush label, and {@code n} counts as unknown when
 * {@code ...-{n}_1} is. Nothing here ever creates a transaction to find one:
 * <ul>
 *   <li>PREPARE or PREPARED: rolled back; if the rollback fails and the label is still PREPARE/PREPARED, it is
 *       cancelled ({@code POST /api/{db}/{table}/_cancel}) and checked once more;</li>
 *   <li>COMMITTED or VISIBLE: logged at INFO and left alone: the job was restored from a checkpoint older than
 * data it already committed. Unlike the official connector
 * (docs/protocol.md#what-the-official-starrocks-connector-does), this never fails recovery;</li>
 *   <li>ABORTED: already ended, probing goes on;</li>
 *   <li>UNKNOWN (never used, or forgotten after {@code label_keep_max_second}): with
 *       {@code stopAtFirstUnknown}, probing of that table stops here (the first never-used label).</li>
 * </ul>
 * Labels in {@code heldLabels} (restored state, committed by the caller) are skipped without a query. At most
 * {@code maxProbesPerTable} labels are probed per table and scope. Nothing here throws on a server failure: a
 * label that cannot be ended is reported in {@link LingeringAbortReport#leftOpen()} and logged at WARN; its
 * server-side timeout ends it, and its data never becomes visible because nobody commits it.
 *
 * <p>Limit, shared with the official connector: a table may have no label at a checkpoint where it received no
 * rows, so with {@code stopAtFirstUnknown} a label after such a gap is not reached. The sink names each label after
 * the checkpoint following the last prepare, so while rows flow the labels of a table are consecutive; a fixed
 * window ({@code stopAtFirstUnknown == false}, option {@code sink.exactly-once.check-num-lingering-txn}) steps over
 * gaps.
 *
 * <p>Not thread-safe: one instance per recovery, called from the thread that restores the subtask.
 */
public final class LingeringTransactionAborter {
    private static final Logger LOG = LoggerFactory.getLogger(LingeringTransactionAborter.class);
    /** The probe bound used when probing stops at the first unknown label. */
    public static final int DEFAULT_MAX_PROBES_PER_TABLE = 1000;

    /** Most flushes probed within one epoch under {@link ExactlyOnceLabelScheme#ONE_PER_FLUSH}. */
    public static final int MAX_FLUSHES_PER_CHECKPOINT = 10_000;

    private final TransactionClient client;
    private final int maxProbesPerTable;
    private final boolean stopAtFirstUnknown;
    private final ExactlyOnceLabelScheme scheme;

    /**
     * @param client             the transaction client (label state, rollback, cancel)
     * @param maxProbesPerTable  most labels probed per table and scope, &gt;= 0 (0 probes nothing)
     * @param stopAtFirstUnknown whether an UNKNOWN label ends probing of that table
     * @throws IllegalArgumentException if {@code maxProbesPerTable < 0}
     */
    public LingeringTransactionAborter(TransactionClient client, int maxProbesPerTable, boolean stopAtFirstUnknown) {
        this(client, maxProbesPerTable, stopAtFirstUnknown, ExactlyOnceLabelScheme.ONE_PER_CHECKPOINT);
    }

    /**
     * An aborter for labels of {@code scheme}. With {@link ExactlyOnceLabelScheme#ONE_PER_FLUSH} (Doris) each
     * probed checkpoint {@code n} is walked flush by flush ({@code n_1, n_2, ...}) until the first unknown flush
     * label; the checkpoint counts as unknown when its first flush label is, and {@code maxProbesPerTable} counts
     * checkpoints.
     */
    public LingeringTransactionAborter(TransactionClient client, int maxProbesPerTable, boolean stopAtFirstUnknown,
                                       ExactlyOnceLabelScheme scheme) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.client = Objects.requireNonNull(client, "client");
        if (maxProbesPerTable < 0) {
            throw new IllegalArgumentException("maxProbesPerTable must be >= 0, was " + maxProbesPerTable);
        }
        this.maxProbesPerTable = maxProbesPerTable;
        this.stopAtFirstUnknown = stopAtFirstUnknown;
    }

    /**
     * The aborter for option {@code sink.exactly-once.check-num-lingering-txn}: {@code -1} probes until the first
     * unknown label (at most {@link #DEFAULT_MAX_PROBES_PER_TABLE}); {@code n >= 0} probes exactly the next
     * {@code n} labels of each table, stepping over unknown ones (0 probes nothing).
     *
     * @throws IllegalArgumentException for a value below -1
     */
    public static LingeringTransactionAborter forCheckNum(TransactionClient client, int checkNumLingeringTxn) {
        return forCheckNum(client, checkNumLingeringTxn, ExactlyOnceLabelScheme.ONE_PER_CHECKPOINT);
    }

    /**
     * {@link #forCheckNum(TransactionClient, int)} for labels of {@code scheme}.
     *
     * @throws IllegalArgumentException for a value below -1
     */
    public static LingeringTransactionAborter forCheckNum(TransactionClient client, int checkNumLingeringTxn,
                                                          ExactlyOnceLabelScheme scheme) {
        if (checkNumLingeringTxn == -1) {
            return new LingeringTransactionAborter(client, DEFAULT_MAX_PROBES_PER_TABLE, true, scheme);
        }
        if (checkNumLingeringTxn < 0) {
            throw new IllegalArgumentException("sink.exactly-once.check-num-lingering-txn must be -1 or >= 0, was "
                    + checkNumLingeringTxn);
        }
        return new LingeringTransactionAborter(client, checkNumLingeringTxn, false, scheme);
    }

    /** The label scheme probed. */
    public ExactlyOnceLabelScheme scheme() {
        return scheme;
    }

    /**
     * Probes every scope and ends the lingering transactions found.
     *
     * @param scopes     what earlier runs may have left open (from the restored state)
     * @param heldLabels labels kept in the restored state: never probed, never touched
     * @return what was done; never throws for a server failure
     */
    public LingeringAbortReport abortLingering(List<LingeringScope> scopes, Set<String> heldLabels) {
        Probe probe = new Probe();
        for (LingeringScope scope : scopes) {
            LabelGenerator labels = new LabelGenerator(scope.labelPrefix(), scope.subtaskIndex(), scope.runId());
            for (TableId table : scope.tables()) {
                probeTable(probe, labels, scope.afterCheckpointId(), table, heldLabels);
            }
        }
        LingeringAbortReport report = new LingeringAbortReport(probe.rolledBack, probe.cancelled, probe.committed,
                probe.leftOpen, probe.queries);
        if (report.ended() > 0 || !report.leftOpen().isEmpty()) {
            LOG.info("lingering transactions: rolled back {}, cancelled {}, left open {} ({} label queries)",
                    report.rolledBack(), report.cancelled(), report.leftOpen(), report.probes());
        }
        return report;
    }

    private void probeTable(Probe probe, LabelGenerator labels, long afterCheckpointId, TableId table,
                            Set<String> heldLabels) {
        for (int i = 1; i <= maxProbesPerTable; i++) {
            long checkpointId = afterCheckpointId + i;
            int lastFlush = scheme.flushesPerCheckpoint() ? MAX_FLUSHES_PER_CHECKPOINT : 1;
            for (int flush = 1; flush <= lastFlush; flush++) {
                String label = scheme.label(labels, table.table(), checkpointId, flush);
                if (heldLabels.contains(label)) {
                    continue;
                }
                LabelState state;
                try {
                    state = probe.state(table.database(), label);
                } catch (TransactionException e) {
                    LOG.warn("cannot read the state of label {} in database {}; stopped probing table {} for "
                            + "lingering transactions (the server timeout ends them): {}", label, table.database(),
                            table, e.getMessage());
                    probe.leftOpen.add(label);
                    return;
                }
                if (state == LabelState.UNKNOWN) {
                    if (flush == 1 && stopAtFirstUnknown) {
                        return; // the first never-used label of this table
                    }
                    break; // the end of this checkpoint's flushes
                }
                settle(probe, table, label, state, afterCheckpointId);
            }
        }
    }

    private void settle(Probe probe, TableId table, String label, LabelState state, long afterCheckpointId) {
        switch (state) {
            case ABORTED:
                break;
            case COMMITTED:
            case VISIBLE:
                LOG.info("label {} (table {}) is {} although it is newer than the restored checkpoint {}: the job "
                        + "was restored from an older checkpoint; the committed data stays and the label is "
                        + "left alone", label, table, state, afterCheckpointId);
                probe.committed.add(label);
                break;
            default:
                end(probe, TransactionRef.singleTable(table.database(), table.table(), label), state);
        }
    }

    /** Rolls back an open label; on failure, cancels it if it is still open. */
    private void end(Probe probe, TransactionRef txn, LabelState found) {
        try {
            client.rollback(txn);
            LOG.info("rolled back lingering {} (was {})", txn, found);
            probe.rolledBack.add(txn.label());
            return;
        } catch (TransactionException e) {
            LOG.warn("rollback of lingering {} failed, checking its state: {}", txn, e.getMessage());
        }
        try {
            LabelState state = probe.state(txn.database(), txn.label());
            if (state == LabelState.ABORTED) {
                probe.rolledBack.add(txn.label());
                return;
            }
            if (state.isCommitted()) {
                LOG.info("lingering {} turned out {}; left alone", txn, state);
                probe.committed.add(txn.label());
                return;
            }
            if (state == LabelState.PREPARE || state == LabelState.PREPARED) {
                client.cancel(txn.database(), txn.table(), txn.label());
                state = probe.state(txn.database(), txn.label());
                if (state == LabelState.ABORTED) {
                    LOG.info("cancelled lingering {}", txn);
                    probe.cancelled.add(txn.label());
                    return;
                }
            }
            LOG.warn("lingering {} is still {} after rollback and cancel; the server timeout ends it", txn, state);
        } catch (TransactionException e) {
            LOG.warn("cannot end lingering {}; the server timeout ends it: {}", txn, e.getMessage());
        }
        probe.leftOpen.add(txn.label());
    }

    /** Results and the query counter of one {@link #abortLingering} call. */
    private final class Probe {
        final List<String> rolledBack = new ArrayList<>();
        final List<String> cancelled = new ArrayList<>();
        final List<String> committed = new ArrayList<>();
        final List<String> leftOpen = new ArrayList<>();
        int queries;

        LabelState state(String database, String label) throws TransactionException {
            queries++;
            return client.labelState(database, label);
        }
    }
}
