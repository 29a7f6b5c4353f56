package io.lockstep.app.deadletter;

import java.io.IOException;

/**
 * Writes dead letters to their destination durably: when {@link #write} returns, the letter survives a crash of
 * this process (a file is forced to disk; a topic acknowledged the records with {@code acks=all}). Called on the
 * assembler's task thread only; one writer per assembler subtask.
 */
public interface DeadLetterWriter extends AutoCloseable {

    /**
     * @param letter the events and the reason
     * @throws IOException when the destination cannot take it (the job then fails and restarts: nothing after the
     *     letter was emitted, so nothing is lost)
     */
    void write(DeadLetter letter) throws IOException;

    /** Releases the destination's resources; never throws. */
    @Override
    void close();
}
