package io.lockstep.core.engine;

/**
 * The engine cannot go on or refuses a request: a load or commit failed, a flush or recycle found a partition in
 * the middle of a source transaction, a flush timed out. The message names the label, table or partitions
 * concerned; the cause, when present, is the original failure.
 */
public class LoadEngineException extends RuntimeException {
    public LoadEngineException(String message) {
        super(message);
    }

    public LoadEngineException(String message, Throwable cause) {
        super(message, cause);
    }
}
