package io.lockstep.core.restart;

import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.engine.PreparedTransaction;

import java.util.Objects;

/**
 * A transaction prepared at a checkpoint and kept in the sink's checkpoint state until it is committed (exactly-once,
 * 2PC with Flink: docs/exactly-once.md).
 *
 * @param database     target database
 * @param table        target table
 * @param label        the label, {@code {prefix}-{table}-{subtask}-{runId}-{n}} (see
 *                     {@link io.lockstep.core.label.LabelGenerator#exactlyOnceLabel})
 * @param checkpointId the checkpoint whose barrier prepared it: it may be committed once that checkpoint (or a
 *                     later one) completes
 * @param runId        the run identity the label was made under, so a restore can re-derive this run's labels
 */
public record CheckpointedTransaction(String database, String table, String label, long checkpointId,
                                      String runId) {
    public CheckpointedTransaction {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(runId, "runId");
        if (checkpointId < 0) {
            throw new IllegalArgumentException("checkpoint id must be >= 0, was " + checkpointId + " for label "
                    + label);
        }
    }

    /** The state entry for a transaction the engine prepared at {@code checkpointId} under {@code runId}. */
    public static CheckpointedTransaction of(PreparedTransaction prepared, long checkpointId, String runId) {
        return new CheckpointedTransaction(prepared.database(), prepared.table(), prepared.label(), checkpointId,
                runId);
    }

    /** The engine's view of it, for {@code requestCommit}. */
    public PreparedTransaction prepared() {
        return new PreparedTransaction(database, table, label);
    }

    /** The server-side transaction it names. */
    public TransactionRef ref() {
        return TransactionRef.singleTable(database, table, label);
    }

    @Override
    public String toString() {
        return "label " + label + " (table " + database + "." + table + ", checkpoint " + checkpointId + ")";
    }
}
