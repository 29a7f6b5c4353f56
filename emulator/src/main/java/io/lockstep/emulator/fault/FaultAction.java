package io.lockstep.emulator.fault;

/**
 * What the server does with one request after the faults were consulted.
 *
 * @param kind       proceed normally, answer with a forced status, answer with an HTTP error, or drop the
 *                   connection in the middle of the body
 * @param status     for {@link Kind#FAIL_STATUS}: the {@code Status} value to answer with
 * @param message    for {@link Kind#FAIL_STATUS}: the {@code Message}
 * @param httpStatus for {@link Kind#FAIL_HTTP}: the HTTP status code (e.g. 500, 503)
 */
public record FaultAction(Kind kind, String status, String message, int httpStatus) {

    /** The kinds of action. */
    public enum Kind { PROCEED, FAIL_STATUS, FAIL_HTTP, DROP_CONNECTION }

    public static final FaultAction PROCEED = new FaultAction(Kind.PROCEED, null, null, 0);
}
