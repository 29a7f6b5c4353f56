package io.lockstep.core.label;

/**
 * How an exactly-once sink names its transactions, so that a restore can re-derive every label an earlier run may
 * have opened (lingering-transaction abort, run-id claim).
 *
 * <ul>
 *   <li>{@link #ONE_PER_CHECKPOINT} (StarRocks transaction stream load: many loads per transaction): one label per
 *       table and checkpoint, {@link LabelGenerator#exactlyOnceLabel}.</li>
 *   <li>{@link #ONE_PER_FLUSH} (Apache Doris stream load 2PC: one load per transaction): one label per table,
 *       checkpoint and flush within the epoch, {@link LabelGenerator#exactlyOnceFlushLabel}, flushes numbered from 1
 *       and consecutive within an epoch.</li>
 * </ul>
 */
public enum ExactlyOnceLabelScheme {
    ONE_PER_CHECKPOINT,
    ONE_PER_FLUSH;

    /**
     * The label of flush {@code flush} (from 1) of {@code table} in the epoch of {@code checkpointId};
     * {@link #ONE_PER_CHECKPOINT} has one flush per epoch and ignores {@code flush}.
     */
    public String label(LabelGenerator labels, String table, long checkpointId, int flush) {
        return this == ONE_PER_CHECKPOINT ? labels.exactlyOnceLabel(table, checkpointId)
                : labels.exactlyOnceFlushLabel(table, checkpointId, flush);
    }

    /** Whether an epoch may hold several labels per table. */
    public boolean flushesPerCheckpoint() {
        return this == ONE_PER_FLUSH;
    }
}
