package io.lockstep.app.assemble;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A source transaction that cannot be loaded atomically: its END counts do not match what was received,
 * it exceeds a size or time bound, it touches two target databases, or a new transaction started before
 * it ended. The message names the transaction id, the source partition and the position it started at.
 *
 * <p>Never restarted: a restart would read the same input again (the annotation makes Flink fail the job
 * at once, whatever the restart strategy).
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public class TransactionAssemblyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message names the transaction and what is wrong */
    public TransactionAssemblyException(String message) {
        super(message);
    }
}
