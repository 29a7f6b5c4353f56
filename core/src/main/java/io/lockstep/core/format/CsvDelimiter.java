package io.lockstep.core.format;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;

/**
 * A CSV column separator or row delimiter as the stream load headers {@code column_separator} and
 * {@code row_delimiter} (Doris: {@code line_delimiter}) give it: the value's UTF-8 bytes, or, after a {@code \x}
 * prefix, pairs of hex digits for invisible bytes (e.g. {@code \x01}, {@code \x0D0A}); at most 50 bytes (StarRocks docs
 * "STREAM LOAD", data_desc: column_separator, row_delimiter; Doris docs "Stream Load"; the StarRocks Flink connector's
 * {@code StarRocksDelimiterParser} reads the same two forms). Any other backslash is refused: servers and clients
 * disagree on such escapes, and a separator read differently on the two sides would split rows silently.
 *
 * @param header the header value as sent, or null for the servers' default (not sent)
 * @param bytes  the delimiter's bytes (never empty)
 */
record CsvDelimiter(String header, byte[] bytes) {
    /** Longest delimiter StarRocks accepts, bytes. */
    static final int MAX_BYTES = 50;
    /** The servers' default column separator, a tab. */
    static final CsvDelimiter TAB = new CsvDelimiter(null, new byte[] {'\t'});
    /** The servers' default row delimiter, a line feed. */
    static final CsvDelimiter NEWLINE = new CsvDelimiter(null, new byte[] {'\n'});

    /**
     * @param name         the header's name, for messages
     * @param header       the header value, or null / empty for the default
     * @param defaultValue the default
     * @throws IllegalArgumentException naming the header for bad hex, a backslash escape other than {@code \x}, or a
     *                                  delimiter that is empty or longer than 50 bytes
     */
    static CsvDelimiter parse(String name, String header, CsvDelimiter defaultValue) {
        if (header == null || header.isEmpty()) {
            return defaultValue;
        }
        byte[] bytes;
        if (header.length() > 2 && header.toLowerCase(Locale.ROOT).startsWith("\\x")) {
            try {
                bytes = HexFormat.of().parseHex(header.substring(2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Invalid " + name + " = '" + header + "': after \\x give pairs of "
                        + "hex digits, e.g. \\x01");
            }
        } else if (header.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("Invalid " + name + " = '" + header + "': a backslash is read only as "
                    + "the \\x hex prefix (e.g. \\x09 for a tab, \\x0A for a line feed); write the byte itself or "
                    + "in hex");
        } else {
            bytes = header.getBytes(StandardCharsets.UTF_8);
        }
        if (bytes.length == 0 || bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("Invalid " + name + " = '" + header + "': " + bytes.length
                    + " bytes; expected 1 to " + MAX_BYTES);
        }
        return new CsvDelimiter(header, bytes);
    }

    /** A copy of the bytes. */
    byte[] copy() {
        return bytes.clone();
    }

    /** True if both delimit with the same bytes (however written). */
    boolean sameBytes(CsvDelimiter other) {
        return java.util.Arrays.equals(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CsvDelimiter d && java.util.Arrays.equals(bytes, d.bytes);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return header != null ? header : (bytes[0] == '\t' ? "\\x09 (tab, default)" : "\\x0A (line feed, default)");
    }
}
