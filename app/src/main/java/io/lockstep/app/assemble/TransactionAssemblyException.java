package io.lockstep.app.assemble;

/**
 * A source transaction that cannot be loaded atomically: its END counts do not match what was received,
 * it exceeds a size or time bound, it touches two target databases, or a new transaction started before
 * it ended. The message names the transaction id, the source partition and the position it started at.
 */
public class TransactionAssemblyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message names the transaction and what is wrong */
    public TransactionAssemblyException(String message) {
        super(message);
    }
}
