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
 */
public record ProgressRow(String jobId, String source, int sourcePartition, long position, String runId,
                          String label, String committedAt) {

    /** True for the registration row of a run (source {@code #run:<runId>}). */
    public boolean isRunRow() {
        return source.startsWith(ProgressTable.RUN_SOURCE_PREFIX);
    }
}
