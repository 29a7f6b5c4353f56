package io.lockstep.emulator.mysql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
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
 * <p>Column types are taken from the first non-null value of each column (a column of NULLs is VARCHAR): integers
 * map to TINY/SHORT/LONG/LONGLONG, BigDecimal to NEWDECIMAL, floating point to FLOAT/DOUBLE, LocalDate to DATE,
 * LocalDateTime to DATETIME, Boolean to TINY (1/0), everything else to VAR_STRING in utf8mb4.
 */
final class TextResultSet {
    static final int TYPE_TINY = 1;
    static final int TYPE_SHORT = 2;
    static final int TYPE_LONG = 3;
    static final int TYPE_FLOAT = 4;
    static final int TYPE_DOUBLE = 5;
    static final int TYPE_LONGLONG = 8;
    static final int TYPE_DATE = 10;
    static final int TYPE_DATETIME = 12;
    static final int TYPE_NEWDECIMAL = 246;
    static final int TYPE_VAR_STRING = 253;
    /** utf8mb4_general_ci. */
    static final int CHARSET_UTF8MB4 = 45;
    /** binary, the charset of numeric and temporal columns. */
    static final int CHARSET_BINARY = 63;
    private static final int FLAG_BINARY = 128;
    private static final int FLAG_NUM = 32768;
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
            packets.add(columnDefinition(result.columns().get(i), typeOf(firstValue(result, i))));
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

    static int typeOf(Object value) {
        if (value instanceof Boolean || value instanceof Byte) {
            return TYPE_TINY;
        }
        if (value instanceof Short) {
            return TYPE_SHORT;
        }
        if (value instanceof Integer) {
            return TYPE_LONG;
        }
        if (value instanceof Long) {
            return TYPE_LONGLONG;
        }
        if (value instanceof BigDecimal || value instanceof BigInteger) {
            return TYPE_NEWDECIMAL;
        }
        if (value instanceof Float) {
            return TYPE_FLOAT;
        }
        if (value instanceof Double) {
            return TYPE_DOUBLE;
        }
        if (value instanceof LocalDate) {
            return TYPE_DATE;
        }
        if (value instanceof LocalDateTime) {
            return TYPE_DATETIME;
        }
        return TYPE_VAR_STRING;
    }

    private static byte[] columnDefinition(String name, int type) {
        boolean text = type == TYPE_VAR_STRING;
        boolean numeric = type != TYPE_VAR_STRING && type != TYPE_DATE && type != TYPE_DATETIME;
        int flags = (text ? 0 : FLAG_BINARY) | (numeric ? FLAG_NUM : 0);
        int decimals = switch (type) {
            case TYPE_FLOAT, TYPE_DOUBLE -> 31;
            case TYPE_NEWDECIMAL -> 9;
            case TYPE_DATETIME -> 6;
            default -> 0;
        };
        return new PacketWriter()
                .lenencString("def").lenencString("").lenencString("").lenencString("")
                .lenencString(name).lenencString(name)
                .lenenc(0x0C)
                .int2(text ? CHARSET_UTF8MB4 : CHARSET_BINARY)
                .int4(text ? 65533L * 4 : 65)
                .int1(type)
                .int2(flags)
                .int1(decimals)
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
