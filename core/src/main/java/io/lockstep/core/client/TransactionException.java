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

    public TransactionException(String message, String serverStatus, Throwable cause) {
        super(message, cause);
        this.serverStatus = serverStatus;
    }

    public TransactionException(String message, String serverStatus) {
        this(message, serverStatus, null);
    }

    /** The server's {@code Status} value of the final failed reply, or null for I/O failures. */
    public String serverStatus() {
        return serverStatus;
    }
}
