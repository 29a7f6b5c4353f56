package io.lockstep.core.progress;

import java.util.Objects;

/**
 * What the multi-table engine needs to commit source positions with the data (exactly-once mode): the job id, the
 * progress table (in the engine's database) and whether that table keeps commit positions.
 *
 * @param jobId           the job id ({@code sink.transaction.multi-table.job-id}), 1 to 64 letters, digits, {@code _},
 *                        {@code -}
 * @param table           the progress table
 * @param commitPositions whether the table has the {@code commit_position} column
 *                        ({@link ProgressTableShape#hasCommitPositions()}): only then does a commit load the
 *                        {@code #commit:} rows of the transaction ends that carried a {@link CommitPosition}
 */
public record ProgressSettings(String jobId, ProgressTable table, boolean commitPositions) {
    /** @throws IllegalArgumentException if the job id is malformed */
    public ProgressSettings {
        ProgressTable.checkedJobId(jobId);
        Objects.requireNonNull(table, "table");
    }

    /** For a table of the current shape (with {@code commit_position}). */
    public ProgressSettings(String jobId, ProgressTable table) {
        this(jobId, table, true);
    }

    /** These settings for a table of {@code shape}. */
    public ProgressSettings forShape(ProgressTableShape shape) {
        return new ProgressSettings(jobId, table, shape.hasCommitPositions());
    }
}
