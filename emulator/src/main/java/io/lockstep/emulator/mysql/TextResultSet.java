package io.lockstep.emulator.mysql;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a {@link SqlResult.Rows} as a text-protocol result set: the column count, one column definition per
 * column, an EOF packet, one row packet per row (each value a length-encoded string, NULL as 0xFB), and a closing EOF
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset.html; the
 * query port does not offer {@code CLIENT_DEPRECATE_EOF}, so both EOF packets are sent).
 *
 * <p>Column definitions come from {@link SqlResult.Rows#types()} through {@link ResultColumnType} (StarRocks' type of
 * the column, so an empty result still reports its real types); a column without a declared type takes it from its
 * first non-null value (all NULL: VARCHAR).
 */
final class TextResultSet {
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter DATETIME_MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private TextResultSet() {
    }

    /** The packets of the result set, in order (the EOF packets carry {@code status}). */
    static List<byte[]> encode(SqlResult.Rows result, int status) {
        List<byte[]> packets = new ArrayList<>();
        int columns = result.columns().size();
        packets.add(new PacketWriter().lenenc(columns).payload());
        for (int i = 0; i < columns; i++) {
            String declared = result.types().get(i);
            packets.add(columnDefinition(result.columns().get(i), declared != null
                    ? ResultColumnType.of(declared) : ResultColumnType.ofValue(firstValue(result, i))));
        }
        packets.add(eof(status));
        for (List<Object> row : result.rows()) {
            PacketWriter w = new PacketWriter();
            for (int i = 0; i < columns; i++) {
                Object value = i < row.size() ? row.get(i) : null;
                if (value == null) {
                    w.int1(0xFB);
                } else {
                    w.lenencString(text(value));
                }
            }
            packets.add(w.payload());
        }
        packets.add(eof(status));
        return packets;
    }

    static byte[] eof(int status) {
        return new PacketWriter().int1(0xFE).int2(0).int2(status).payload();
    }

    private static Object firstValue(SqlResult.Rows result, int column) {
        for (List<Object> row : result.rows()) {
            if (column < row.size() && row.get(column) != null) {
                return row.get(column);
            }
        }
        return null;
    }

    private static byte[] columnDefinition(String name, ResultColumnType type) {
        return new PacketWriter()
                .lenencString("def").lenencString("").lenencString("").lenencString("")
                .lenencString(name).lenencString(name)
                .lenenc(0x0C)
                .int2(type.charset())
                .int4(type.length())
                .int1(type.mysqlType())
                .int2(type.flags())
                .int1(type.decimals())
                .int2(0)
                .payload();
    }

    /** The text form of a value, as MySQL's text protocol writes it. */
    static String text(Object value) {
        if (value instanceof Boolean b) {
            return b ? "1" : "0";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof LocalDateTime t) {
            return (t.getNano() == 0 ? DATETIME : DATETIME_MICROS).format(t);
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
        return value.toString();
    }
}
