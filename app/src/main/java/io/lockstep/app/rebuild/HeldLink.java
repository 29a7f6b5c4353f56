package io.lockstep.app.rebuild;

/**
 * One held event's place in its partition's list of held offsets ({@link CoveredOffsets}): the next lower and the
 * next higher held offset of the same partition (-1: none). A Flink POJO in a {@code MapState}; owned by the
 * rebuild's task thread.
 */
public class HeldLink {

    private long lower = -1;
    private long higher = -1;

    /** Flink POJO constructor. */
    public HeldLink() {
    }

    HeldLink(long lower, long higher) {
        this.lower = lower;
        this.higher = higher;
    }

    /** @return the next lower held offset of the partition, or -1 */
    public long getLower() {
        return lower;
    }

    public void setLower(long lower) {
        this.lower = lower;
    }

    /** @return the next higher held offset of the partition, or -1 */
    public long getHigher() {
        return higher;
    }

    public void setHigher(long higher) {
        this.higher = higher;
    }
}
