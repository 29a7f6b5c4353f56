package io.lockstep.core.progress;

/**
 * One row of the progress table as read back (see {@link ProgressTable} for the columns).
 *
 * @param jobId           {@code job_id}
 * @param source          {@code source}: a source name, or {@link ProgressTable#RUN_SOURCE_PREFIX} + run id for the
 *                        registration row of a run
 * @param sourcePartition {@code source_partition}: the source partition, or the run's subtask index
 * @param position        {@code position}: the highest committed source position; for a run row the last committed
 *                        shared-transaction cycle of the run, or {@link ProgressTable#RUN_CLOSED} once a later run
 *                        settled it
 * @param runId           {@code run_id}: the run that wrote the row
 * @param label           {@code label}: the shared label of the transaction that wrote the row
 * @param committedAt     {@code committed_at} as the server printed it ({@code yyyy-MM-dd HH:mm:ss}), or null
 * @param commitPosition  {@code commit_position}: on a {@link #isCommitRow() commit row} the commit position text of
 *                        the last source transaction it covers (position = that transaction's end); null on every
 *                        other row and on a legacy table without the column
 */
public record ProgressRow(String jobId, String source, int sourcePartition, long position, String runId,
                          String label, String committedAt, String commitPosition) {

    /** A row without a commit position (a source partition's or a run's row). */
    public ProgressRow(String jobId, String source, int sourcePartition, long position, String runId, String label,
                       String committedAt) {
        this(jobId, source, sourcePartition, position, runId, label, committedAt, null);
    }

    /** True for the registration row of a run (source {@code #run:<runId>}). */
    public boolean isRunRow() {
        return source.startsWith(ProgressTable.RUN_SOURCE_PREFIX);
    }

    /** True for a commit position row (source {@code #commit:<commitSource>}). */
    public boolean isCommitRow() {
        return source.startsWith(ProgressTable.COMMIT_SOURCE_PREFIX);
    }

    /**
     * True for a source partition's position row: its source is a source name, not one of the {@code #}-prefixed
     * rows of Lockstep's own (run and commit rows, and any such kind a later release adds).
     */
    public boolean isSourcePositionRow() {
        return !source.startsWith(ProgressTable.RESERVED_SOURCE_PREFIX);
    }
}
