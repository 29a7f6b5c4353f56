package io.lockstep.core.restart;

import java.util.List;
import java.util.Objects;

/**
 * The labels one earlier run of one sink subtask may have opened after a checkpoint: for every table in
 * {@link #tables()}, {@code {labelPrefix}-{table}-{subtaskIndex}-{runId}-{n}} for {@code n > afterCheckpointId} (labels
 * are derived, not stored, as apache/flink-connector-kafka's {@code TransactionAbortStrategyImpl.PROBING} derives
 * transactional ids).
 *
 * <p>A subtask's checkpoint state records its prefix, index, run id, checkpoint id and the tables it has written;
 * on restore each such record becomes one scope. After rescaling a subtask may own the records, and therefore the
 * scopes, of several earlier subtasks.
 *
 * @param labelPrefix       the prefix the earlier run used (it may differ from today's option value)
 * @param subtaskIndex      the earlier run's subtask index
 * @param runId             the earlier run's identity
 * @param afterCheckpointId the checkpoint the state was taken at; labels at or below it are never probed
 * @param tables            the tables the earlier run had written (its labels name them)
 */
public record LingeringScope(String labelPrefix, int subtaskIndex, String runId, long afterCheckpointId,
                             List<TableId> tables) {
    public LingeringScope {
        Objects.requireNonNull(labelPrefix, "labelPrefix");
        Objects.requireNonNull(runId, "runId");
        tables = List.copyOf(tables);
        if (afterCheckpointId < 0) {
            throw new IllegalArgumentException("afterCheckpointId must be >= 0, was " + afterCheckpointId);
        }
    }
}
