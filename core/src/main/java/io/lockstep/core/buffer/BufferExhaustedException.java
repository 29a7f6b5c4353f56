package io.lockstep.core.buffer;

/**
 * Buffered bytes could not be reserved: the request can never fit (larger than the hard limit), the wait for
 * room passed its deadline, or the budget was closed because the engine failed. The message gives the bytes
 * requested, the bytes in use and the limits.
 */
public class BufferExhaustedException extends RuntimeException {
    public BufferExhaustedException(String message) {
        super(message);
    }

    public BufferExhaustedException(String message, Throwable cause) {
        super(message, cause);
    }
}
