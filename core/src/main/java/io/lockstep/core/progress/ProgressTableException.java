package io.lockstep.core.progress;

/**
 * The progress table is missing, unreadable or has other columns; the message shows the expected CREATE TABLE.
 * Never heals by retrying: the job fails once with it.
 */
public class ProgressTableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message names the table and what is wrong */
    public ProgressTableException(String message) {
        super(message);
    }

    /** @param message names the table and what is wrong */
    public ProgressTableException(String message, Throwable cause) {
        super(message, cause);
    }
}
