package io.lockstep.flink.row;

/**
 * Not a row: a mark a transaction assembler sends down a source partition's stream between two source
 * transactions, for the sink to act on in order with that partition's rows (for example to commit what it buffered
 * and fail the job, or to apply a schema change before the rows that follow). Subclasses are Flink POJOs (public
 * no-arg constructor, getters and setters) so that they cross the network channel with their fields
 * ({@link SinkInputSerializer}).
 */
public abstract non-sealed class ControlMark implements SinkInput {

    private int sourcePartition = -1;

    /** A mark without a source partition (-1); Flink POJO subclasses need it. */
    protected ControlMark() {
    }

    /** @param sourcePartition the source partition the mark belongs to (&gt;= 0) */
    protected ControlMark(int sourcePartition) {
        this.sourcePartition = sourcePartition;
    }

    @Override
    public int getSourcePartition() {
        return sourcePartition;
    }

    /** @param sourcePartition the source partition the mark belongs to, or -1 */
    public void setSourcePartition(int sourcePartition) {
        this.sourcePartition = sourcePartition;
    }
}
