package io.lockstep.flink.sink;

import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.restart.LostPreparedTransactionException;
import io.lockstep.core.progress.AnotherWriterException;
import io.lockstep.core.progress.ProgressTableException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A sink failure that no restart can heal, raised where the sink's engine failure surfaces (a row, a flush at a
 * checkpoint or the end of input, the failure watch, the opening of the subtask), so Flink fails the job at once
 * instead of replaying the same input against the same target through the whole restart strategy:
 * <ul>
 *   <li>the target refused the credentials or a privilege, or reported a data error (unknown database or table,
 *       filtered rows, a malformed load): a {@link TransactionException} of class {@link FailureClass#ACCESS_DENIED}
 *       or {@link FailureClass#DATA_ERROR}. Other refusals ({@link FailureClass#OTHER}, e.g. a transaction the server
 *       expired or forgot) end the client's call but may heal when the job restarts and begins anew;</li>
 *   <li>a transaction held in a completed checkpoint that the server ended before its commit
 *       ({@link LostPreparedTransactionException}: ABORTED, e.g. by its prepared timeout, or forgotten): every restore
 *       from that checkpoint finds it in the same state;</li>
 *   <li>the exactly-once progress table is missing or unusable ({@link ProgressTableException}). An
 *       {@link AnotherWriterException} is not among them: when several subtasks of one job fail over together, one
 *       can see a sibling's new run register while it opens, and the next attempt heals it; a real second job fails
 *       again at every restart until the restart strategy gives up;</li>
 *   <li>anything whose class already carries the annotation below (e.g. a bad-input exception of the source side).</li>
 * </ul>
 *
 * <p>How Flink honours it: the scheduler's {@code ExecutionFailureHandler.isUnrecoverableError} asks
 * {@code ThrowableClassifier.findThrowableOfThrowableType(cause, NonRecoverableError)}, which walks the task
 * failure's cause chain ({@code getCause()}) for a class annotated
 * {@code @ThrowableAnnotation(ThrowableType.NonRecoverableError)} and then fails the job whatever the restart
 * strategy; the same in Flink 1.20 and 2.x (apache/flink
 * {@code flink-runtime/src/main/java/org/apache/flink/runtime/executiongraph/failover/ExecutionFailureHandler.java},
 * {@code flink-runtime/src/main/java/org/apache/flink/runtime/throwable/ThrowableClassifier.java}).
 *
 * <p>The failure it wraps stays its cause, so what the job reports keeps naming the operation, table, label and
 * source coordinates; its own message is the telling cause's {@code SimpleClassName: message}. Immutable.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class NonRecoverableSinkFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private NonRecoverableSinkFailure(Throwable telling, Throwable cause) {
        super(telling.getClass().getSimpleName() + ": " + telling.getMessage(), cause);
    }

    /**
     * The failure to raise for {@code failure}: a {@link NonRecoverableSinkFailure} around it when it can never
     * heal and nothing in its cause chain is marked non-recoverable yet; otherwise {@code failure} itself.
     */
    public static RuntimeException classify(RuntimeException failure) {
        Throwable telling = neverHealingCause(failure);
        return telling == null || markedNonRecoverable(failure) ? failure
                : new NonRecoverableSinkFailure(telling, failure);
    }

    /** As {@link #classify(RuntimeException)}, for checked failures. */
    public static Exception classify(Exception failure) {
        if (failure instanceof RuntimeException runtime) {
            return classify(runtime);
        }
        Throwable telling = neverHealingCause(failure);
        return telling == null || markedNonRecoverable(failure) ? failure
                : new NonRecoverableSinkFailure(telling, failure);
    }

    /**
     * Whether no restart can heal {@code failure}: its cause chain holds an access-denied or data-error
     * {@link TransactionException}, a {@link ProgressTableException}, a {@link LostPreparedTransactionException}, or a
     * throwable marked non-recoverable.
     */
    public static boolean canNeverHeal(Throwable failure) {
        return neverHealingCause(failure) != null || markedNonRecoverable(failure);
    }

    /** The outermost cause that cannot heal, or null. */
    private static Throwable neverHealingCause(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof TransactionException te && (te.failureClass() == FailureClass.ACCESS_DENIED
                    || te.failureClass() == FailureClass.DATA_ERROR)) {
                return t;
            }
            if (t instanceof ProgressTableException || t instanceof LostPreparedTransactionException) {
                return t;
            }
        }
        return null;
    }

    /** Whether Flink already finds a non-recoverable throwable in the chain (as its classifier walks it). */
    private static boolean markedNonRecoverable(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            ThrowableAnnotation annotation = t.getClass().getAnnotation(ThrowableAnnotation.class);
            if (annotation != null && annotation.value() == ThrowableType.NonRecoverableError) {
                return true;
            }
        }
        return false;
    }
}
