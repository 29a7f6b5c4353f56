package io.lockstep.emulator.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP answer, independent of the HTTP server library.
 *
 * @param httpStatus      HTTP status code (200 for every handled result, 307 redirect, 401, 404)
 * @param headers         extra response headers (e.g. {@code Location}, {@code WWW-Authenticate})
 * @param body            the body text (JSON or plain text); empty for a redirect
 * @param contentType     the body's media type
 * @param closeConnection true to close the connection after answering (as StarRocks does after rejecting a
 *                        classic stream load without {@code Expect: 100-continue})
 */
public record Reply(int httpStatus, Map<String, String> headers, String body, String contentType,
                    boolean closeConnection) {

    /** A 200 JSON reply. */
    public static Reply json(String body) {
        return new Reply(200, Map.of(), body, "application/json", false);
    }

    /** A JSON reply with another HTTP status. */
    public static Reply json(int httpStatus, String body) {
        return new Reply(httpStatus, Map.of(), body, "application/json", false);
    }

    /** A 200 plain-text reply. */
    public static Reply text(String body) {
        return new Reply(200, Map.of(), body, "text/plain", false);
    }

    /**
     * A 307 with an empty body and the given {@code Location} (docs/protocol.md#redirects-failover-and-probes, FE
     * {@code RestBaseAction.redirectTo}).
     */
    public static Reply redirect(String location) {
        return new Reply(307, Map.of("Location", location), "", "text/plain", false);
    }

    /** The same reply with one more header. */
    public Reply withHeader(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new Reply(httpStatus, copy, body, contentType, closeConnection);
    }

    /** The same reply, closing the connection afterwards. */
    public Reply closing() {
        return new Reply(httpStatus, headers, body, contentType, true);
    }
}
