package io.lockstep.app.route;

/** A row of a source table that no table map entry routes (with {@link UnknownTableMode#FAIL}). */
public class UnknownTableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message names the source table and the mapped tables */
    public UnknownTableException(String message) {
        super(message);
    }
}
