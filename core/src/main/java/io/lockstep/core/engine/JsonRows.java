package io.lockstep.core.engine;

/** Checks on rows handed to an engine. */
final class JsonRows {
    private JsonRows() {
    }

    /** True if the row, without surrounding whitespace, starts with '{' and ends with '}' (no allocation). */
    static boolean isObject(byte[] row) {
        int first = 0;
        int last = row.length - 1;
        while (first <= last && Character.isWhitespace(row[first])) {
            first++;
        }
        while (last >= first && Character.isWhitespace(row[last])) {
            last--;
        }
        return first <= last && row[first] == '{' && row[last] == '}';
    }

    /**
     * Cheap shape check: the row, without surrounding whitespace, starts with '{' and ends with '}'.
     *
     * @param where names the row's target in the message, e.g. "db.orders (partition 3)"
     * @throws IllegalArgumentException naming {@code where} and the row's length (never its content)
     */
    static void checkObject(byte[] row, String where) {
        if (!isObject(row)) {
            throw new IllegalArgumentException("row for " + where + " (" + row.length + " bytes) is not a JSON object "
                    + "({...}); a malformed row would fail the whole load on the server");
        }
    }
}
