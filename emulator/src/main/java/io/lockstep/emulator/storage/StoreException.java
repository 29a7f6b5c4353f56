package io.lockstep.emulator.storage;

/** A storage operation failed; the message names the table or query. */
public class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
