package io.lockstep.app.route;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A row of a source table that no table map entry routes (with {@link UnknownTableMode#FAIL}).
 *
 * <p>Never restarted: a restart would read the same input again (the annotation makes Flink fail the job
 * at once, whatever the restart strategy).
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public class UnknownTableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message names the source table and the mapped tables */
    public UnknownTableException(String message) {
        super(message);
    }
}
