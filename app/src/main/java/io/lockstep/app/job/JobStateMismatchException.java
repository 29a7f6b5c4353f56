package io.lockstep.app.job;

import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A job was asked to restore a checkpoint or savepoint that another job wrote (another job id, topic or input,
 * format, target or database: {@link JobIdentity}). Restoring it would read the other job's topic from its offsets
 * under this job's id and load its rows a second time when the other job resumes, so the job fails once, without
 * restarts: the annotation makes Flink's {@code ExecutionFailureHandler} treat it as unrecoverable
 * ({@code ThrowableClassifier} walks the cause chain for it; apache/flink
 * {@code flink-runtime/src/main/java/org/apache/flink/runtime/throwable/ThrowableClassifier.java}), and
 * {@link JobFailures#describe} prints its message as the one failure line. Immutable.
 */
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class JobStateMismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param restored whose state was restored, as {@link JobIdentity#describe} says it (or as far as known)
     * @param current the job that restores it
     * @param where the checkpoint or savepoint, or a description such as "the restored checkpoint"
     */
    public JobStateMismatchException(String restored, JobIdentity current, String where) {
        super(message(restored, current, where));
    }

    /**
     * @return the one line: {@code <where> belongs to <restored>, not to this <current>: ...} with the ways out
     *     (its own state directory, or {@code --adopt-state} to take the state over on purpose)
     */
    public static String message(String restored, JobIdentity current, String where) {
        return where + " belongs to " + restored + ", not to this " + current.describe()
                + ": refusing to restore another job's state (give this job its own --state-dir or savepoint, "
                + "or pass --adopt-state to take it over on purpose)";
    }
}
