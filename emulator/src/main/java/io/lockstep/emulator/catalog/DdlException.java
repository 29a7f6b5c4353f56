package io.lockstep.emulator.catalog;

/** A DDL statement could not be parsed or applied; the message names the statement and what was wrong. */
public class DdlException extends Exception {
    public DdlException(String message) {
        super(message);
    }
}
