package io.lockstep.app.assemble;

/**
 * Keyed state of one commit source (source database) on one source partition: the committed position's text
 * ({@link CommitPosition#toText()}) and the run of re-sent transactions being dropped since the stream went back
 * ({@link CommittedSourcePositions}). A Flink POJO in a {@code MapState}; owned by the assembler's task thread.
 */
public class CommittedSource {

    private String position;
    private long dropped;
    private String firstDropped;
    private String lastDropped;
    private boolean committedSeenAgain;

    /** Flink POJO constructor. */
    public CommittedSource() {
    }

    /** @return the committed position's text, or {@code null} before the first commit */
    public String getPosition() {
        return position;
    }

    public void setPosition(String position) {
        this.position = position;
    }

    /** @return transactions dropped as re-sends in the current run (0: no run) */
    public long getDropped() {
        return dropped;
    }

    public void setDropped(long dropped) {
        this.dropped = dropped;
    }

    /** @return the first dropped transaction's position ({@link CommitPosition#describe()}) in the current run */
    public String getFirstDropped() {
        return firstDropped;
    }

    public void setFirstDropped(String firstDropped) {
        this.firstDropped = firstDropped;
    }

    /** @return the last dropped transaction's position in the current run */
    public String getLastDropped() {
        return lastDropped;
    }

    public void setLastDropped(String lastDropped) {
        this.lastDropped = lastDropped;
    }

    /** @return whether the last dropped transaction was the committed one itself (the re-send reached it) */
    public boolean isCommittedSeenAgain() {
        return committedSeenAgain;
    }

    public void setCommittedSeenAgain(boolean committedSeenAgain) {
        this.committedSeenAgain = committedSeenAgain;
    }
}
