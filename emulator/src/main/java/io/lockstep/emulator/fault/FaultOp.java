package io.lockstep.emulator.fault;

import java.util.Locale;

/** The server operations a fault can target. */
public enum FaultOp {
    BEGIN, LOAD, PREPARE, COMMIT, ROLLBACK, STREAM_LOAD, GET_LOAD_STATE, CANCEL;

    /** Parses an op name case-insensitively ({@code begin}, {@code stream_load}, ...). */
    public static FaultOp parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }
}
