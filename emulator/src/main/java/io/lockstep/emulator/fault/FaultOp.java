package io.lockstep.emulator.fault;

import java.util.Locale;

/**
 * The server operations a fault can target. StarRocks mode uses all but {@link #ABORT}; Doris mode uses
 * {@link #STREAM_LOAD} ({@code _stream_load}), {@link #COMMIT} and {@link #ABORT} ({@code _stream_load_2pc} with
 * {@code txn_operation: commit|abort}) and {@link #GET_LOAD_STATE}.
 */
public enum FaultOp {
    BEGIN, LOAD, PREPARE, COMMIT, ROLLBACK, STREAM_LOAD, GET_LOAD_STATE, CANCEL, ABORT;

    /** Parses an op name case-insensitively ({@code begin}, {@code stream_load}, ...). */
    public static FaultOp parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }
}
