package io.lockstep.emulator.load;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A CSV column separator or row delimiter as given in a load header.
 *
 * <p>docs/protocol.md#data-formats-and-filtered-rows and the StarRocks docs "STREAM LOAD": a delimiter may be several
 * bytes long (at most 50) and invisible bytes are written in hex with a {@code \x} prefix, e.g. {@code \x01} or
 * {@code \x0D0A}. The escapes {@code \t}, {@code \n} and {@code \r} are also read, as curl users write them.
 *
 * @param header the header value as sent
 * @param bytes  the delimiter bytes (never empty)
 */
record Delimiter(String header, byte[] bytes) {
    /** Longest delimiter StarRocks accepts, in bytes. */
    static final int MAX_BYTES = 50;

    static final Delimiter TAB = new Delimiter("\t", new byte[] {'\t'});
    static final Delimiter NEWLINE = new Delimiter("\n", new byte[] {'\n'});

    /**
     * @param name   header name, for errors
     * @param header header value
     * @throws LoadFormatException INVALID_ARGUMENT for bad hex or a delimiter longer than 50 bytes
     */
    static Delimiter parse(String name, String header) throws LoadFormatException {
        byte[] bytes;
        if (header.length() > 2 && (header.startsWith("\\x") || header.startsWith("\\X"))) {
            String hex = header.substring(2);
            try {
                if (hex.length() % 2 != 0) {
                    throw new IllegalArgumentException("odd number of hex digits");
                }
                bytes = HexFormat.of().parseHex(hex);
            } catch (IllegalArgumentException e) {
                throw new LoadFormatException("INVALID_ARGUMENT",
                        "invalid " + name + " '" + header + "': after \\x give pairs of hex digits");
            }
        } else {
            bytes = unescape(header);
        }
        if (bytes.length == 0) {
            throw new LoadFormatException("INVALID_ARGUMENT", name + " is empty");
        }
        if (bytes.length > MAX_BYTES) {
            throw new LoadFormatException("INVALID_ARGUMENT",
                    name + " is " + bytes.length + " bytes long; at most " + MAX_BYTES + " bytes are allowed");
        }
        return new Delimiter(header, bytes);
    }

    private static byte[] unescape(String header) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            if (c == '\\' && i + 1 < header.length()) {
                char next = header.charAt(i + 1);
                int replaced = switch (next) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case '\\' -> '\\';
                    default -> -1;
                };
                if (replaced >= 0) {
                    out.write(replaced);
                    i++;
                    continue;
                }
            }
            byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
            out.write(encoded, 0, encoded.length);
        }
        return out.toByteArray();
    }

    /** How StarRocks names a delimiter in error rows: the byte values, comma-separated (e.g. {@code 9}). */
    String describe() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < bytes.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(bytes[i] & 0xff);
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Delimiter d && Arrays.equals(bytes, d.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "Delimiter[" + describe() + "]";
    }
}
