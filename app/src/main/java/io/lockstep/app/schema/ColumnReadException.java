package io.lockstep.app.schema;

import java.util.Objects;

/**
 * A target table's columns could not be read, and why, so that the column check can react without ever switching
 * itself off (docs/schema-changes.md, docs/reliability.md): an outage is retried by restarting, a missing table
 * follows {@code --unknown-table}, refused credentials fail the job once.
 */
public final class ColumnReadException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Why the columns could not be read. */
    public enum Kind {
        /** The target did not answer, or answered with a server error: may heal. */
        OUTAGE,
        /** The table (or its database) does not exist. */
        MISSING_TABLE,
        /** The credentials or the privilege were refused: never heals by itself. */
        ACCESS_DENIED
    }

    private final Kind kind;

    /**
     * @param kind why
     * @param message names the table and the target's answer (never a password)
     * @param cause the reader's failure, or {@code null}
     */
    public ColumnReadException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** @return why the columns could not be read */
    public Kind kind() {
        return kind;
    }
}
