package io.lockstep.app.event;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A source message that cannot be used: malformed JSON, a missing or wrongly typed field, an unknown
 * operation, or an event that breaks the transaction framing (data outside any transaction, END
 * without BEGIN). The message starts with the position ({@code topic 'T' partition P offset O}) and
 * never contains the row content.
 *
 * <p>Never restarted: a restart would read the same input again (the annotation makes Flink fail the job
 * at once, whatever the restart strategy).
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public class BadSourceEventException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param position the source position, as from {@link SourceRecord#describePosition()}
     * @param reason what is wrong, without row content
     */
    public BadSourceEventException(String position, String reason) {
        super(position + ": " + reason);
    }

    /** @param message position and reason, as {@link #getMessage()} of another instance gives them */
    public BadSourceEventException(String message) {
        super(message);
    }
}
