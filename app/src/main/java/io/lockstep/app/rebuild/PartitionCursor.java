package io.lockstep.app.rebuild;

/**
 * Keyed state of one topic partition the rebuild reads ({@link CoveredOffsets}): the highest offset consumed, the
 * held events as a doubly linked list in offset order (head = lowest held offset), and the covered offset last put on
 * a released unit. A Flink POJO in a {@code MapState}; owned by the rebuild's task thread. Offsets -1 mean none.
 */
public class PartitionCursor {

    private long highestConsumed = -1;
    private long lowestHeld = -1;
    private long highestHeld = -1;
    private long heldCount;
    private long reported = -1;

    /** Flink POJO constructor. */
    public PartitionCursor() {
    }

    /** @return the highest offset consumed from the partition, or -1 */
    public long getHighestConsumed() {
        return highestConsumed;
    }

    public void setHighestConsumed(long highestConsumed) {
        this.highestConsumed = highestConsumed;
    }

    /** @return the lowest offset still held, or -1 when none is */
    public long getLowestHeld() {
        return lowestHeld;
    }

    public void setLowestHeld(long lowestHeld) {
        this.lowestHeld = lowestHeld;
    }

    /** @return the highest offset still held (the list's tail), or -1 when none is */
    public long getHighestHeld() {
        return highestHeld;
    }

    public void setHighestHeld(long highestHeld) {
        this.highestHeld = highestHeld;
    }

    /** @return how many events of the partition are held */
    public long getHeldCount() {
        return heldCount;
    }

    public void setHeldCount(long heldCount) {
        this.heldCount = heldCount;
    }

    /** @return the covered offset last reported on a released unit, or -1 */
    public long getReported() {
        return reported;
    }

    public void setReported(long reported) {
        this.reported = reported;
    }
}
