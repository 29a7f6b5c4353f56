package io.lockstep.emulator.http;

import java.io.IOException;
import java.util.Map;

/**
 * One HTTP request as the FE and BE services see it, independent of the HTTP server library.
 *
 * <p>The body is read only when {@link #body()} is called, so an FE that answers with a redirect never reads
 * it (and, with {@code Expect: 100-continue}, the client never sends it to the FE).
 *
 * @param method      HTTP method, upper case
 * @param path        request path without the query
 * @param rawQuery    the query string as received (null when none); preserved on redirect
 * @param queryParams decoded query parameters (first value of each)
 * @param headers     request headers, names lower-cased, first value of each
 * @param bodySource  reads the whole body once
 * @param http11      true for HTTP/1.1 (the classic FE checks {@code Expect} only then)
 */
public record ServerRequest(String method, String path, String rawQuery, Map<String, String> queryParams,
                            Map<String, String> headers, BodySource bodySource, boolean http11) {

    /** Reads the request body in full. */
    @FunctionalInterface
    public interface BodySource {
        byte[] read() throws IOException;
    }

    /** A header value, or null; {@code name} must be lower case. */
    public String header(String name) {
        return headers.get(name);
    }

    /** A header value, trimmed, or "" when absent. */
    public String headerOrEmpty(String name) {
        String v = headers.get(name);
        return v == null ? "" : v.trim();
    }

    /** A decoded query parameter, or null. */
    public String query(String name) {
        return queryParams.get(name);
    }

    /**
     * Reads the whole body.
     *
     * @throws IOException if the client went away while sending it
     */
    public byte[] body() throws IOException {
        return bodySource.read();
    }

    /** {@code path?query}, as a redirect must preserve it. */
    public String pathAndQuery() {
        return rawQuery == null || rawQuery.isEmpty() ? path : path + "?" + rawQuery;
    }

    /** True when {@code transaction_type: multi} (case-insensitive value) is present. */
    public boolean isMultiTable() {
        String t = headers.get("transaction_type");
        return t != null && t.trim().equalsIgnoreCase("multi");
    }
}
