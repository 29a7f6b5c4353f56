package io.lockstep.app.rebuild;

/**
 * The rebuild's counters ({@link CrossTopicRebuild}, one {@code ValueState}): the END queue's head and next sequence
 * numbers, since when the current head waits, the last rebuilt position handed out and the bytes held. A Flink POJO;
 * owned by the rebuild's task thread.
 */
public class RebuildProgress {

    private long headSeq;
    private long nextSeq;
    private long waitingSeq = -1;
    private long waitingSinceMs = -1;
    private long lastRebuiltPosition = -1;
    private long heldBytes;

    /** Flink POJO constructor. */
    public RebuildProgress() {
    }

    /** @return the sequence number of the END at the queue's head (== {@link #getNextSeq()}: empty) */
    public long getHeadSeq() {
        return headSeq;
    }

    public void setHeadSeq(long headSeq) {
        this.headSeq = headSeq;
    }

    /** @return the sequence number the next queued END gets */
    public long getNextSeq() {
        return nextSeq;
    }

    public void setNextSeq(long nextSeq) {
        this.nextSeq = nextSeq;
    }

    /** @return the sequence number of the head END whose wait is timed, or -1 */
    public long getWaitingSeq() {
        return waitingSeq;
    }

    public void setWaitingSeq(long waitingSeq) {
        this.waitingSeq = waitingSeq;
    }

    /** @return processing time (ms) since which {@link #getWaitingSeq()} waits at the head, or -1 */
    public long getWaitingSinceMs() {
        return waitingSinceMs;
    }

    public void setWaitingSinceMs(long waitingSinceMs) {
        this.waitingSinceMs = waitingSinceMs;
    }

    /** @return the rebuilt position of the last released unit (-1: none yet) */
    public long getLastRebuiltPosition() {
        return lastRebuiltPosition;
    }

    public void setLastRebuiltPosition(long lastRebuiltPosition) {
        this.lastRebuiltPosition = lastRebuiltPosition;
    }

    /** @return UTF-8 bytes of row text held in buffered data events and held standalone rows */
    public long getHeldBytes() {
        return heldBytes;
    }

    public void setHeldBytes(long heldBytes) {
        this.heldBytes = heldBytes;
    }
}
