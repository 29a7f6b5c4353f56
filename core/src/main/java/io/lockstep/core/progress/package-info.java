/**
 * Exactly-once across tables without {@code prepare} (docs/exactly-once.md#multi-table-exactly-once-progress-table): source positions
 * committed in the same shared transaction as the data, the progress table that holds them, the settle step that
 * ends what earlier runs of a job left open or in flight, and the read of the committed positions through the
 * StarRocks HTTP SQL API.
 *
 * <p>Flow of one sink subtask: {@link io.lockstep.core.progress.ProgressOpening} (check the table, settle earlier
 * runs, register this run, read the committed positions) → {@link io.lockstep.core.progress.PositionGate} (task
 * thread: drop source transactions at or below the committed positions, check that positions grow) → the
 * multi-table engine loads one progress row per (job id, source, source partition) with every commit.
 */
package io.lockstep.core.progress;
