package io.lockstep.emulator.be;

/** A later load of a channel carried different load parameters than its first (docs/protocol.md#load-headers). */
public final class LoadParametersMismatch extends Exception {
    /** The BE's message, verbatim. */
    public static final String MESSAGE = "load request not equal last.";

    public LoadParametersMismatch() {
        super(MESSAGE);
    }
}
