package io.lockstep.core.client;

/**
 * A load whose outcome is unknown: the body may or may not have reached the server before an I/O error or a response
 * timeout. The client does not re-send it on the same label, because both possible outcomes make a retry wrong: if the
 * first attempt was applied, a retry adds the rows a second time to the same transaction; if it broke on the server,
 * the BE has already aborted the transaction (docs/protocol.md#the-emulators-state-tables, "any error aborts txn"), so
 * the retry fails anyway. The caller should roll the transaction back and load its data again under a new label.
 */
public class LoadOutcomeUnknownException extends TransactionException {
    private static final long serialVersionUID = 1L;

    public LoadOutcomeUnknownException(String message, Throwable cause) {
        super(message, null, cause);
    }
}
