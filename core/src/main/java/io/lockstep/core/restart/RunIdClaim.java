package io.lockstep.core.restart;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.label.RunId;
import io.lockstep.core.time.Ticker;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the run identity of an exactly-once subtask that starts from checkpoint N (N = 0 without state), so that
 * the next start from N can find what this run left open even if it never completes a checkpoint (which would
 * record its run id in state).
 *
 * <p>The candidates are derived, not random ({@link RunId#derived}): {@code candidate(k) = hash(job id, restored run
 * ids, N, subtask, k)} for {@code k = 0, 1, ...}. Every attempt of the job that starts from N walks the same sequence;
 * another job (a new submission, e.g. from a savepoint) walks another. A run's first data label can be named for any
 * checkpoint after N (labels follow the checkpoints, and the first row may come many checkpoints late), so a claimed
 * candidate is marked at once: the label {@code {prefix}-{table}-{subtask}-{candidate}-{N}} (in the aborter's label
 * scheme; one label per flush: {@code ...-{N}_1}), which no data transaction of the candidate uses, is begun and rolled
 * back, and the server remembers it (docs/protocol.md#labels-and-label-state: labels of finished transactions are
 * remembered for {@code label_keep_max_second}).
 * A candidate is taken when its marker or one of its labels for checkpoints N + 1 to N + {@value #PROBE_CHECKPOINTS}
 * exists. A taken candidate's labels are handed to the {@link LingeringTransactionAborter} (its PREPARE/PREPARED
 * labels after N are rolled back, committed ones left alone) and the walk goes on; the first free candidate is marked
 * and becomes this run's id. A target whose begin registers nothing (Apache Doris: a transaction begins with its
 * load) gets an empty two-phase load under the marker label, aborted at once, as its marker.
 * A start without state walks the candidates of N = 0 the same way, so a stateless restart of a job with a pinned
 * job id finds the earlier run's marker and takes the next candidate.
 *
 * <p>Only for a fixed target table: with routing by {@code *} the table of an earlier run's first label is not known,
 * so {@code tables} may miss it, and a random run id is taken instead ({@code tables} empty).
 *
 * <p>Stateless; called once per restore from the thread that restores the subtask.
 */
public final class RunIdClaim {
    private static final Logger LOG = LoggerFactory.getLogger(RunIdClaim.class);
    /** Most candidates walked before giving up and taking a random run id. */
    public static final int MAX_CANDIDATES = 100;
    /** Checkpoints after N whose labels are probed besides the claim marker (runs of versions without a marker). */
    static final int PROBE_CHECKPOINTS = 3;
    private static final int MARKER_TIMEOUT_SECONDS = 60;

    private RunIdClaim() {
    }

    /**
     * Walks the candidates, rolls back what taken ones left open, and returns the first free one.
     *
     * @param aborter              ends the lingering labels of taken candidates
     * @param labelPrefix          this run's label prefix
     * @param subtaskIndex         this run's subtask index
     * @param jobId                the Flink job id
     * @param restoredRunIds       run ids held in the restored state (empty without state)
     * @param restoredCheckpointId N, 0 without state
     * @param tables               the fixed target table; empty when routing by {@code *} (a random id is taken)
     * @param heldLabels           labels held in the restored state (never touched)
     * @return the run id for this run's labels
     */
    public static String claim(TransactionClient client, LingeringTransactionAborter aborter, String labelPrefix,
                               int subtaskIndex, String jobId, List<String> restoredRunIds, long restoredCheckpointId,
                               List<TableId> tables, Set<String> heldLabels) {
        Objects.requireNonNull(client, "client");
        if (tables.isEmpty()) {
            return RunId.random(Ticker.system());
        }
        for (int k = 0; k < MAX_CANDIDATES; k++) {
            String runId = RunId.derived(jobId, restoredRunIds, restoredCheckpointId, subtaskIndex, k);
            LabelGenerator labels = new LabelGenerator(labelPrefix, subtaskIndex, runId);
            String used;
            try {
                used = usedLabel(client, aborter, labels, tables, restoredCheckpointId);
            } catch (TransactionException e) {
                LOG.warn("cannot read the label states of run id {}; taking a random run id (what earlier runs "
                        + "restored from checkpoint {} left open ends by the server timeout): {}", runId,
                        restoredCheckpointId, e.getMessage());
                return RunId.random(Ticker.system());
            }
            if (used == null) {
                return claimed(client, aborter, labels, tables, restoredCheckpointId) ? runId
                        : RunId.random(Ticker.system());
            }
            LOG.info("run id {} was used by an earlier attempt that started from checkpoint {} (label {} exists); "
                    + "ending what it left open", runId, restoredCheckpointId, used);
            aborter.abortLingering(List.of(new LingeringScope(labelPrefix, subtaskIndex, runId, restoredCheckpointId,
                    tables)), heldLabels);
        }
        LOG.warn("{} derived run ids after checkpoint {} are all used; taking a random one", MAX_CANDIDATES,
                restoredCheckpointId);
        return RunId.random(Ticker.system());
    }

    /**
     * A label of {@code labels} the server knows, or null: the claim marker (checkpoint N), then the labels of the
     * first {@value #PROBE_CHECKPOINTS} checkpoints after N.
     */
    private static String usedLabel(TransactionClient client, LingeringTransactionAborter aborter,
                                    LabelGenerator labels, List<TableId> tables, long restoredCheckpointId)
            throws TransactionException {
        for (TableId table : tables) {
            for (long checkpoint = restoredCheckpointId; checkpoint <= restoredCheckpointId + PROBE_CHECKPOINTS;
                 checkpoint++) {
                String label = aborter.scheme().label(labels, table.table(), checkpoint, 1);
                if (client.labelState(table.database(), label) != LabelState.UNKNOWN) {
                    return label;
                }
            }
        }
        return null;
    }

    /**
     * Writes the claim marker: the label of checkpoint N (never a data label of this run id, whose transactions are
     * named N + 1 and later) begun and rolled back, so the server remembers it as ABORTED and a later claim from N
     * sees the run id as taken, whenever this run's first data label comes. Where a transaction begins with its load
     * (Apache Doris, {@link io.lockstep.core.label.ExactlyOnceLabelScheme#flushesPerCheckpoint()}), the marker is an
     * empty two-phase load (0 rows, pre-committed) aborted at once: the probe the official Doris connector sends
     * before it aborts lingering pre-commits (docs/protocol.md#what-the-doris-connector-does). Returns false (a random
     * run id is taken instead) when it cannot be written; a marker written but not rolled back still claims the run id
     * (its server timeout ends it).
     */
    private static boolean claimed(TransactionClient client, LingeringTransactionAborter aborter,
                                   LabelGenerator labels, List<TableId> tables, long restoredCheckpointId) {
        TableId table = tables.get(0);
        TransactionRef marker = TransactionRef.singleTable(table.database(), table.table(),
                aborter.scheme().label(labels, table.table(), restoredCheckpointId, 1));
        try {
            client.begin(marker, MARKER_TIMEOUT_SECONDS);
            if (aborter.scheme().flushesPerCheckpoint()) {
                client.load(marker, table.table(), new byte[0], Map.of()); // Doris: the load begins it
            }
        } catch (TransactionException e) {
            LOG.warn("cannot write the claim marker {}; taking a random run id (what this run leaves open is found "
                    + "only through checkpointed state): {}", marker, e.getMessage());
            return false;
        }
        try {
            client.rollback(marker);
        } catch (TransactionException e) {
            // the marker exists and still claims the run id; only a running-transaction slot is held until it times out
            LOG.warn("cannot roll back the claim marker {}; the server ends it by its timeout: {}", marker,
                    e.getMessage());
        }
        return true;
    }
}
