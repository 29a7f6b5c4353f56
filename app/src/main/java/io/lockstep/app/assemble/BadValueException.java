package io.lockstep.app.assemble;

import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.schema.BadValue;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A row of a source transaction has a value its target column would not take unchanged ({@link BadValue},
 * docs/dead-letter.md "Bad values"). With a dead letter, the whole source transaction goes there with
 * {@link #deadLetterReason()}; without one, the job stops after the complete transactions before it, in one line:
 * {@link #getMessage()} names the position, the source and target tables and the column, never the value.
 *
 * <p>Never restarted: a restart would read the same value again.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class BadValueException extends BadSourceEventException {

    private static final long serialVersionUID = 1L;

    private final String deadLetterReason;

    /**
     * @param position the event's position ({@code topic 'T' partition P offset O})
     * @param sourceTable the source table, {@code db.table}
     * @param target the target table
     * @param bad the value and why it does not fit
     */
    public BadValueException(String position, String sourceTable, TargetTable target, BadValue bad) {
        super(position, "column '" + bad.column() + "' of target table " + target + " (source table " + sourceTable
                + "): the value " + bad.reason() + "; nothing of its source transaction was loaded (configure "
                + "--dead-letter to divert such transactions and go on)");
        this.deadLetterReason = position + ": column '" + bad.column() + "' of target table " + target
                + " (source table " + sourceTable + "): value '" + bad.value() + "' " + bad.reason();
    }

    /** @param message position and reason, as {@link #getMessage()} of another instance gives them */
    public BadValueException(String message) {
        super(message);
        this.deadLetterReason = message;
    }

    /** @return the dead letter's reason: as the message, with the value (cut to {@link BadValue#MAX_VALUE_CHARS}) */
    public String deadLetterReason() {
        return deadLetterReason;
    }
}
