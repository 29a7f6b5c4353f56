package io.lockstep.app.rebuild;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * The cross-topic rebuild ({@link CrossTopicRebuild}) cannot go on: a bound is reached (bytes held, the head END
 * waiting too long), an END names a table whose topic the job does not read, or a data event cannot be placed in its
 * transaction. The message names the transaction (id, END offset), the tables and topic partitions involved and what
 * to do.
 *
 * <p>Never restarted: a restart would read the same input again and stop at the same place (the annotation makes
 * Flink fail the job at once, whatever the restart strategy). Transactions released before it that the sink has not
 * committed yet are not lost: the next run starts from the committed positions and reads them again.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public class TransactionRebuildException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message names what stopped the rebuild and where */
    public TransactionRebuildException(String message) {
        super(message);
    }
}
