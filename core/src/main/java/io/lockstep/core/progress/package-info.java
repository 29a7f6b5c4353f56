/**
 * Exactly-once across tables without {@code prepare} (docs/exactly-once.md#multi-table-exactly-once-progress-table): source positions
 * committed in the same shared transaction as the data, the progress table that holds them, and the read of the committed positions through the StarRocks HTTP SQL API.
 * The settle step that ends what earlier runs of a job left open or in flight lives with the other restart settling
 * in {@code io.lockstep.core.restart}.
 *
 * <p>Flow of one sink subtask: {@link io.lockstep.core.restart.ProgressOpening} (check the table, settle earlier
 * runs, register this run, read the committed positions) → {@link io.lockstep.core.progress.PositionGate} (task
 * thread: drop source transactions at or below the committed positions, check that positions grow) → the
 * multi-table engine loads one progress row per (job id, source, source partition) with every commit, and one
 * {@code #commit:} row per (commit source, source partition) whose transaction ends carried a {@link
 * io.lockstep.core.progress.CommitPosition} (docs/exactly-once.md#commit-position-rows).
 */
package io.lockstep.core.progress;
