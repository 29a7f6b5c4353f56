package io.lockstep.emulator.http;

import java.util.Locale;

/**
 * A parsed request path (docs/protocol.md#starrocks-transaction-stream-load).
 *
 * @param kind  which endpoint
 * @param op    transaction op as sent (for {@link Kind#TRANSACTION}), admin action (for {@link Kind#FAULT}) or
 *              catalog name (for {@link Kind#SQL})
 * @param db    database path segment, or null
 * @param table table path segment, or null
 */
public record Route(Kind kind, String op, String db, String table) {

    /** The endpoints. */
    public enum Kind {
        TRANSACTION, STREAM_LOAD, LOAD_STATE, CANCEL, HEALTH, ERROR_LOG, QUERY, SQL, FAULT,
        /** {@code /}: where the FE and BE serve their web UI. */
        ROOT,
        UNKNOWN
    }

    /** Parses a path; unknown shapes give {@link Kind#UNKNOWN}. */
    public static Route parse(String path) {
        if ("/".equals(path)) {
            return new Route(Kind.ROOT, null, null, null);
        }
        String[] p = path.split("/", -1);
        // p[0] is "" (leading slash)
        if (p.length < 3 || !"api".equals(p[1])) {
            return new Route(Kind.UNKNOWN, null, null, null);
        }
        // HTTP SQL API: /api/v1/catalogs/{catalog}/databases/{db}/sql and /api/v1/catalogs/{catalog}/sql
        if (p.length == 8 && "v1".equals(p[2]) && "catalogs".equals(p[3]) && "databases".equals(p[5])
                && "sql".equals(p[7])) {
            return new Route(Kind.SQL, p[4], p[6], null);
        }
        if (p.length == 6 && "v1".equals(p[2]) && "catalogs".equals(p[3]) && "sql".equals(p[5])) {
            return new Route(Kind.SQL, p[4], null, null);
        }
        if (p.length == 4 && "transaction".equals(p[2])) {
            return new Route(Kind.TRANSACTION, p[3], null, null);
        }
        if (p.length == 3 && "health".equals(p[2])) {
            return new Route(Kind.HEALTH, null, null, null);
        }
        if (p.length == 3 && "_load_error_log".equals(p[2])) {
            return new Route(Kind.ERROR_LOG, null, null, null);
        }
        if (p.length == 3 && "query".equals(p[2])) {
            return new Route(Kind.QUERY, null, null, null);
        }
        if (p.length == 4 && "_fault".equals(p[2])) {
            return new Route(Kind.FAULT, p[3], null, null);
        }
        if (p.length == 4 && "get_load_state".equals(p[3])) {
            return new Route(Kind.LOAD_STATE, null, p[2], null);
        }
        if (p.length == 5 && "_stream_load".equals(p[4])) {
            return new Route(Kind.STREAM_LOAD, null, p[2], p[3]);
        }
        if (p.length == 5 && "_cancel".equals(p[4])) {
            return new Route(Kind.CANCEL, null, p[2], p[3]);
        }
        return new Route(Kind.UNKNOWN, null, null, null);
    }

    /** The transaction op lower-cased ({@code begin}, {@code load}, ...). */
    public String opLower() {
        return op == null ? "" : op.toLowerCase(Locale.ROOT);
    }
}
