package io.lockstep.core.progress;

/**
 * Which columns an existing progress table has ({@link ProgressTable#checkColumns}).
 */
public enum ProgressTableShape {
    /** All eight columns, {@code commit_position} last: the sink writes the {@code #commit:} rows. */
    WITH_COMMIT_POSITIONS,
    /**
     * The seven columns of a table created before {@code commit_position} existed: the sink writes no
     * {@code #commit:} rows (source commit positions are then not committed; deduplication is by source position
     * only) until {@link ProgressTable#addCommitPositionColumnSql()} upgrades it.
     */
    LEGACY;

    /** True when the table has the {@code commit_position} column. */
    public boolean hasCommitPositions() {
        return this == WITH_COMMIT_POSITIONS;
    }
}
