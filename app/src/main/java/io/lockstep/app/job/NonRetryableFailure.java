package io.lockstep.app.job;

import io.lockstep.app.assemble.TransactionAssemblyException;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.progress.AnotherWriterException;
import io.lockstep.core.progress.ProgressTableException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A job failure that no restart can heal, so Flink must not restart the job: the target refused the credentials
 * or a privilege (HTTP 401/403, {@code Access denied}), the target reported a data error (unknown database or
 * table, rows it filtered, a malformed load), the exactly-once progress table is missing or another job writes it
 * ({@code ProgressTableException}, {@code AnotherWriterException}), or the input itself is bad (a malformed event, an event for an
 * unmapped table, a broken transaction framing). Restarting would replay the same input against the same
 * target and fail the same way, printing the same stack trace once per attempt.
 *
 * <p>Flink's scheduler looks for a throwable annotated {@link ThrowableType#NonRecoverableError} anywhere in a
 * task failure's cause chain ({@code ExecutionFailureHandler.isUnrecoverableError} in flink-runtime) and then
 * fails the job at once, whatever the restart strategy. This class carries that annotation; the input
 * exceptions of this module ({@link BadSourceEventException}, {@link TransactionAssemblyException},
 * {@link UnknownTableException}) carry it themselves, and {@code FailFastSink} (Flink 1.20 build) wraps the sink's
 * failures that {@link #canNeverHeal} recognises.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class NonRetryableFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param cause the failure that cannot heal; its description becomes this message */
    public NonRetryableFailure(Throwable cause) {
        super(JobFailures.describe(cause), cause);
    }

    /**
     * @param failure a task's failure
     * @return {@code true} when its cause chain holds a {@link TransactionException} whose reply was classified
     *     as not retriable (access denied, a data error, an unrecognised refusal), or one of this module's
     *     bad-input exceptions
     */
    public static boolean canNeverHeal(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof TransactionException te && te.failureClass() != null && !te.failureClass().retriable()) {
                return true;
            }
            if (t instanceof BadSourceEventException || t instanceof TransactionAssemblyException
                    || t instanceof UnknownTableException || t instanceof NonRetryableFailure
                    || t instanceof ProgressTableException || t instanceof AnotherWriterException) {
                return true;
            }
        }
        return false;
    }
}
