/**
 * Settling what earlier runs of a sink subtask left behind, before the new run loads anything, for every mode
 * (docs/exactly-once.md#restore, docs/reliability.md#open-transactions-left-behind). Run ids come from
 * {@link io.lockstep.core.label.RunId}, labels are built and read by {@link io.lockstep.core.label.LabelGenerator},
 * and every wait for a label state goes through {@link io.lockstep.core.client.LabelStatePoller}.
 *
 * <p>Single-table exactly-once (one transaction per table and checkpoint, 2PC):
 * {@link io.lockstep.core.restart.RestoredTransactionCommitter} commits the transactions held in the restored state
 * ({@link io.lockstep.core.restart.CheckpointedTransaction}), {@link io.lockstep.core.restart.RunIdClaim} picks this
 * run's id, and {@link io.lockstep.core.restart.LingeringTransactionAborter} rolls back what earlier runs opened after
 * the checkpoint ({@link io.lockstep.core.restart.LingeringScope}, labels derived, not listed).
 *
 * <p>Multi-table (one shared transaction per commit cycle, labels {@code {prefix}-{subtask}-{runId}-m{cycle}}): a later
 * run that knows an earlier run id and a cycle up to which everything is finished walks the labels after it and rolls
 * back the ones still open: {@link io.lockstep.core.restart.SharedLabelRun} (what is known of one earlier run) →
 * {@link io.lockstep.core.restart.SharedLabelWalk} (walk its later labels, roll back the open ones). The multi-table
 * exactly-once mode finds the earlier runs in its progress table ({@link io.lockstep.core.restart.ProgressOpening});
 * the at-least-once mode in Flink state ({@link io.lockstep.core.restart.MultiTableRunState},
 * {@link io.lockstep.core.restart.EarlierRunSettlement}).
 */
package io.lockstep.core.restart;
