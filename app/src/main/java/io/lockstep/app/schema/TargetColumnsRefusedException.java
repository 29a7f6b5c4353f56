package io.lockstep.app.schema;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * The target refused the credentials or the privilege to read a table's columns. Never restarted: the annotation
 * makes Flink fail the job at once, whatever the restart strategy (docs/reliability.md).
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class TargetColumnsRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param cause the reader's failure, naming the table and the refusal */
    public TargetColumnsRefusedException(ColumnReadException cause) {
        super(cause.getMessage(), cause);
    }
}
