package io.lockstep.core.progress;

/**
 * Another writer is advancing the progress rows of this job id (for example a second job started with the same
 * {@code sink.transaction.multi-table.job-id}). Never heals by retrying.
 */
public class AnotherWriterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message names the job id, the other run id and what it did */
    public AnotherWriterException(String message) {
        super(message);
    }
}
