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
     * @param sameSource whether the restored state reads {@code current}'s source (topic or input): only then does
     *     the line offer {@code --adopt-state}
     */
    public JobStateMismatchException(String restored, JobIdentity current, String where, boolean sameSource) {
        super(message(restored, current, where, sameSource));
    }

    private JobStateMismatchException(String message) {
        super(message);
    }

    /**
     * A refusal of {@code --adopt-state} itself: the restored state is of another source, whose Kafka splits (or file
     * position) the source would resume under this job's id.
     *
     * @param restored whose state was restored, as {@link JobIdentity#describe} says it (or as far as known)
     * @param restoredSource the source of the restored state as described, e.g. {@code topic 'lab.b'}
     *     ({@link JobIdentity#describeSource})
     * @param current the job that restores it
     * @param where the checkpoint or savepoint, or a description such as "the restored checkpoint"
     * @return the exception carrying {@link #otherSourceMessage}
     */
    public static JobStateMismatchException otherSource(String restored, String restoredSource, JobIdentity current,
            String where) {
        return new JobStateMismatchException(otherSourceMessage(restored, restoredSource, current, where));
    }

    /**
     * @return the one line: {@code <where> belongs to <restored>, which reads <restoredSource>, not this <current>'s
     *     <source>: refusing --adopt-state ...}, saying why (Flink's Kafka source resumes the topics its state holds)
     *     and the way out (a fresh state directory)
     */
    public static String otherSourceMessage(String restored, String restoredSource, JobIdentity current,
            String where) {
        return where + " belongs to " + restored + ", which reads " + restoredSource + ", not this "
                + current.describe() + "'s " + JobIdentity.describeSource(current.source())
                + ": refusing --adopt-state, which takes over another job's state only for the same source, because "
                + "Flink's Kafka source resumes the topics and offsets kept in its state whatever --topic says (a new "
                + "topic or input needs a fresh --state-dir and no --from-savepoint; the progress table keeps the "
                + "old job's positions under its own job id)";
    }

    /**
     * @return the one line: {@code <where> belongs to <restored>, not to this <current>: ...} with the ways out: its
     *     own state directory, and, when {@code sameSource}, {@code --adopt-state} to take the state over on purpose
     *     (for another source it says {@code --adopt-state} cannot)
     */
    public static String message(String restored, JobIdentity current, String where, boolean sameSource) {
        return where + " belongs to " + restored + ", not to this " + current.describe()
                + ": refusing to restore another job's state (give this job its own --state-dir or savepoint"
                + (sameSource ? ", or pass --adopt-state to take it over on purpose)"
                        : "; --adopt-state takes over only a state of the same topic or input)");
    }
}
