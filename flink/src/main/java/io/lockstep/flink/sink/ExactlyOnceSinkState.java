package io.lockstep.flink.sink;

import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.LingeringScope;
import io.lockstep.core.restart.TableId;

import java.util.List;
import java.util.Objects;

/**
 * What one exactly-once sink subtask keeps in its operator state at a checkpoint: the transactions prepared and not
 * yet known to be committed, and what a restore needs to re-derive the labels this run may open after the checkpoint
 * (run identity, label prefix, subtask index and the tables written). Serialized by
 * {@link ExactlyOnceSinkStateSerializer}; one element per subtask in the {@code ListState}, so after rescaling a
 * subtask may restore the elements of several earlier subtasks.
 *
 * <p><b>Run identity.</b> Every start of a subtask (fresh or restored) takes a new run id for its new labels, so they
 * never collide with labels of an earlier attempt, of an older checkpoint restored twice, or of a stateless start with
 * the same prefix (docs/architecture.md#rules-from-field-reports). The run id written here is the one the snapshotting
 * run used, so a restore can name every label that run may have left open after the checkpoint
 * ({@link #lingeringScope()}). An attempt that never completed a checkpoint is named by no state; with a fixed target
 * table its run id is derived from the job, the restored run ids and the checkpoint ({@code RunIdClaim}), so the next
 * attempt from the same checkpoint walks the same ids and ends what it left open. With routing by {@code *} run ids are
 * random and such an attempt's open transactions end by the server's timeouts; their data never becomes visible because
 * nobody commits them.
 *
 * @param labelPrefix  the label prefix of this run
 * @param subtaskIndex the subtask that wrote this state
 * @param runId        the run identity of the labels this run makes
 * @param checkpointId the checkpoint this state belongs to
 * @param tables       every table this run has written (its labels name them)
 * @param pending      prepared transactions not yet committed, checkpoint ids &lt;= {@code checkpointId}
 */
public record ExactlyOnceSinkState(String labelPrefix, int subtaskIndex, String runId, long checkpointId,
                                   List<TableId> tables, List<CheckpointedTransaction> pending) {
    public ExactlyOnceSinkState {
        Objects.requireNonNull(labelPrefix, "labelPrefix");
        Objects.requireNonNull(runId, "runId");
        tables = List.copyOf(tables);
        pending = List.copyOf(pending);
    }

    /** The labels this run may have opened after {@link #checkpointId()}, for the lingering-transaction aborter. */
    public LingeringScope lingeringScope() {
        return new LingeringScope(labelPrefix, subtaskIndex, runId, checkpointId, tables);
    }
}
