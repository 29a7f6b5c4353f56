package io.lockstep.app.schema;

/**
 * The target's columns could not be read because of an outage: the assembler's subtask fails, and the job restarts
 * from its last checkpoint within its restart strategy, reading the columns again. Rows are never loaded unchecked
 * meanwhile (docs/reliability.md).
 */
public final class TargetColumnsUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param cause the reader's failure, naming the table */
    public TargetColumnsUnavailableException(ColumnReadException cause) {
        super(cause.getMessage() + "; its rows are never loaded unchecked: the job restarts from its last checkpoint "
                + "to read them again, within its restart strategy", cause);
    }
}
