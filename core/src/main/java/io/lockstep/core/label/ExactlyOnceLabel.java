package io.lockstep.core.label;

/**
 * The parts of an exactly-once label, as read back by {@link LabelGenerator#parseExactlyOnce(String)}.
 *
 * @param prefix       the label prefix
 * @param table        the table as written into the label (sanitized, possibly shortened with a hash)
 * @param subtaskIndex the sink subtask that made the label
 * @param runId        the run identity
 * @param checkpointId the checkpoint the label belongs to
 */
public record ExactlyOnceLabel(String prefix, String table, int subtaskIndex, String runId, long checkpointId) {
}
