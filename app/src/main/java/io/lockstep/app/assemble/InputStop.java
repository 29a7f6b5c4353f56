package io.lockstep.app.assemble;

import io.lockstep.flink.row.ControlMark;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.route.UnknownTableException;

/**
 * Not a row: the mark an assembler sends down its partition's stream when the input turned bad with
 * {@code --bad-input fail} (a malformed event, an event of an unmapped table, a broken transaction framing, a
 * bound exceeded) or a schema change arrived with {@code --schema-changes fail}. Everything the assembler emitted before it is whole source transactions; the job's sink
 * ({@code io.lockstep.app.job.FailFastSink}) commits them, then fails the job with {@link #toException()}. The
 * transaction the bad event belonged to is never emitted, so none of it loads.
 *
 * <p>A {@link ControlMark} (a Flink POJO), so it travels on the rows' channel in order with them; never a row.
 */
public class InputStop extends ControlMark {

    private String failureType;
    private String failure;

    /** Flink POJO constructor. */
    public InputStop() {
    }

    /**
     * @param failure the error: {@link BadSourceEventException}, {@link TransactionAssemblyException} or
     *     {@link UnknownTableException}, whose message names the position and the problem (never row content)
     * @param sourcePartition the partition whose input turned bad
     * @throws IllegalArgumentException for another exception type
     */
    public InputStop(RuntimeException failure, int sourcePartition) {
        if (!(failure instanceof BadSourceEventException || failure instanceof TransactionAssemblyException
                || failure instanceof UnknownTableException)) {
            throw new IllegalArgumentException("not an input failure: " + failure.getClass().getName());
        }
        this.failureType = failure.getClass().getSimpleName();
        this.failure = failure.getMessage();
        setSourcePartition(sourcePartition);
    }

    /** @return the error again, of its type and with its message, to fail the job with */
    public RuntimeException toException() {
        if (TransactionAssemblyException.class.getSimpleName().equals(failureType)) {
            return new TransactionAssemblyException(failure);
        }
        if (SchemaChangeException.class.getSimpleName().equals(failureType)) {
            return new SchemaChangeException(failure);
        }
        if (BadValueException.class.getSimpleName().equals(failureType)) {
            return new BadValueException(failure);
        }
        if (UnknownTableException.class.getSimpleName().equals(failureType)) {
            return new UnknownTableException(failure);
        }
        return new BadSourceEventException(failure);
    }

    /** @return the error's simple class name */
    public String getFailureType() {
        return failureType;
    }

    /** @param failureType the error's simple class name */
    public void setFailureType(String failureType) {
        this.failureType = failureType;
    }

    /** @return the error's message */
    public String getFailure() {
        return failure;
    }

    /** @param failure the error's message */
    public void setFailure(String failure) {
        this.failure = failure;
    }
}
