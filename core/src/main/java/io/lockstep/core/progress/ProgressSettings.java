package io.lockstep.core.progress;

import java.util.Objects;

/**
 * What the multi-table engine needs to commit source positions with the data (exactly-once mode): the job id and
 * the progress table (in the engine's database).
 *
 * @param jobId the job id ({@code sink.transaction.multi-table.job-id}), 1 to 64 letters, digits, {@code _}, {@code -}
 * @param table the progress table
 */
public record ProgressSettings(String jobId, ProgressTable table) {
    /** @throws IllegalArgumentException if the job id is malformed */
    public ProgressSettings {
        ProgressTable.checkedJobId(jobId);
        Objects.requireNonNull(table, "table");
    }
}
