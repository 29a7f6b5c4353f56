/**
 * Settling what earlier runs of a multi-table sink subtask left behind (docs/reliability.md#open-transactions-left-behind):
 * a run's shared labels are {@code {prefix}-{subtask}-{runId}-m{cycle}}, so a later run that knows the run id and a
 * cycle up to which everything is finished can walk the labels after it and roll back the ones still open.
 *
 * <p>Flow: {@link io.lockstep.core.recovery.SharedLabelRun} (what is known of one earlier run) →
 * {@link io.lockstep.core.recovery.SharedLabelWalk} (walk its later labels, roll back the open ones). The
 * multi-table exactly-once mode finds the earlier runs in its progress table
 * ({@code io.lockstep.core.progress.ProgressOpening}); the at-least-once mode in Flink state
 * ({@link io.lockstep.core.recovery.MultiTableRunState}, {@link io.lockstep.core.recovery.EarlierRunSettlement}).
 */
package io.lockstep.core.recovery;
