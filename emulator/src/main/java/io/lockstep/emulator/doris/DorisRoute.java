package io.lockstep.emulator.doris;

/**
 * A parsed Doris request path (docs/protocol.md#doris-endpoints-redirects-and-headers).
 *
 * @param kind  which endpoint
 * @param db    database segment, or null
 * @param table table segment, or null
 * @param name  the fault action of {@code /api/_fault/{action}}, or null
 */
record DorisRoute(Kind kind, String db, String table, String name) {

    /** The endpoints. */
    enum Kind {
        /** {@code /api/{db}/{table}/_stream_load}. */
        STREAM_LOAD,
        /** {@code /api/{db}/_stream_load_2pc} and {@code /api/{db}/{table}/_stream_load_2pc}. */
        TWO_PC,
        /** {@code /api/{db}/get_load_state}. */
        LOAD_STATE,
        /** {@code /api/_http_stream}, {@code /api/{db}/{table}/_load}: Doris loads the emulator does not offer. */
        UNSUPPORTED_LOAD,
        /** {@code GET /api/{db}/{table}/_schema} (FE {@code TableSchemaAction}). */
        SCHEMA,
        /** {@code /}: the web UI's place. */
        ROOT,
        HEALTH, BACKENDS, ERROR_LOG, QUERY, FAULT, UNKNOWN
    }

    static DorisRoute parse(String path) {
        if ("/".equals(path)) {
            return of(Kind.ROOT);
        }
        String[] p = path.split("/", -1);
        if (p.length < 3 || !p[0].isEmpty() || !"api".equals(p[1])) {
            return of(Kind.UNKNOWN);
        }
        if (p.length == 3) {
            return switch (p[2]) {
                case "health" -> of(Kind.HEALTH);
                case "backends" -> of(Kind.BACKENDS);
                case "_load_error_log" -> of(Kind.ERROR_LOG);
                case "query" -> of(Kind.QUERY);
                case "_http_stream" -> of(Kind.UNSUPPORTED_LOAD);
                default -> of(Kind.UNKNOWN);
            };
        }
        if (p.length == 4 && "_fault".equals(p[2])) {
            return new DorisRoute(Kind.FAULT, null, null, p[3]);
        }
        if (p.length == 4 && !p[2].isEmpty()) {
            return switch (p[3]) {
                case "_stream_load_2pc" -> new DorisRoute(Kind.TWO_PC, p[2], null, null);
                case "get_load_state" -> new DorisRoute(Kind.LOAD_STATE, p[2], null, null);
                default -> of(Kind.UNKNOWN);
            };
        }
        if (p.length == 5 && !p[2].isEmpty() && !p[3].isEmpty()) {
            return switch (p[4]) {
                case "_stream_load" -> new DorisRoute(Kind.STREAM_LOAD, p[2], p[3], null);
                case "_stream_load_2pc" -> new DorisRoute(Kind.TWO_PC, p[2], p[3], null);
                case "_load" -> new DorisRoute(Kind.UNSUPPORTED_LOAD, p[2], p[3], null);
                case "_schema" -> new DorisRoute(Kind.SCHEMA, p[2], p[3], null);
                default -> of(Kind.UNKNOWN);
            };
        }
        return of(Kind.UNKNOWN);
    }

    private static DorisRoute of(Kind kind) {
        return new DorisRoute(kind, null, null, null);
    }
}
