package io.lockstep.core.client;

/**
 * A transaction operation failed for good: retries (if the failure was retriable) are exhausted, or the
 * failure is not retriable (data errors, access denied, aborted transaction).
 *
 * <p>The message names the operation, the label, the database (and table) and the server's status and
 * message; for data errors it carries an excerpt of the server's error log.
 */
public class TransactionException extends Exception {
    private final String serverStatus;
    private final FailureClass failureClass;

    public TransactionException(String message, String serverStatus, Throwable cause) {
        this(message, serverStatus, null, cause);
    }

    public TransactionException(String message, String serverStatus) {
        this(message, serverStatus, null, null);
    }

    /**
     * @param failureClass how the server's reply was classified; {@code null} when the failure was not a
     *     classified reply (exhausted retries, an unknown outcome, an interrupt)
     */
    public TransactionException(String message, String serverStatus, FailureClass failureClass, Throwable cause) {
        super(message, cause);
        this.serverStatus = serverStatus;
        this.failureClass = failureClass;
    }

    /**
     * The class of a final reply that is not retriable ({@link FailureClass#ACCESS_DENIED},
     * {@link FailureClass#DATA_ERROR}, {@link FailureClass#OTHER}), so callers can tell an error that can never
     * heal from one a restart may cure; {@code null} when the failure was not such a reply.
     */
    public FailureClass failureClass() {
        return failureClass;
    }

    /** The server's {@code Status} value of the final failed reply, or null for I/O failures. */
    public String serverStatus() {
        return serverStatus;
    }
}
