package io.lockstep.emulator.mysql;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a {@link SqlResult.Rows} as the binary-protocol result set that answers COM_STMT_EXECUTE
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_binary_resultset.html): the column count, column
 * definitions and EOF exactly as {@link TextResultSet} makes them, then one binary row per row (a 0x00 header, a
 * NULL bitmap with an offset of 2, each non-NULL value in the binary form of the type its column definition
 * declares: TINY 1 byte, SHORT/YEAR 2, LONG/INT24 4, LONGLONG 8, FLOAT/DOUBLE IEEE 754, DATE/DATETIME/TIMESTAMP
 * length-prefixed fields, everything else a length-encoded string), and the closing EOF. The declared type is read
 * back from each column definition, so the binary values always match what the text encoder announces.
 */
final class BinaryResultSet {
    private static final int TYPE_TIMESTAMP = 7;
    private static final int TYPE_INT24 = 9;
    private static final int TYPE_TIME = 11;
    private static final int TYPE_YEAR = 13;

    private BinaryResultSet() {
    }

    /**
     * The packets of the result set, in order.
     *
     * @throws SqlError when a value does not fit its column's declared type (an emulator defect, reported as such)
     */
    static List<byte[]> encode(SqlResult.Rows result, int status) {
        List<byte[]> text = TextResultSet.encode(result, status);
        int columns = (int) new PacketReader(text.get(0)).lenenc("column count");
        int[] types = new int[columns];
        for (int i = 0; i < columns; i++) {
            types[i] = declaredType(text.get(1 + i));
        }
        List<byte[]> packets = new ArrayList<>(text.subList(0, columns + 2));
        for (List<Object> row : result.rows()) {
            packets.add(row(row, types));
        }
        packets.add(text.get(text.size() - 1));
        return packets;
    }

    private static int declaredType(byte[] definition) {
        PacketReader r = new PacketReader(definition);
        for (String field : List.of("catalog", "schema", "table", "org_table", "name", "org_name")) {
            r.bytes((int) r.lenenc(field + " length"), field);
        }
        r.lenenc("fixed length fields");
        r.int2("character set");
        r.int4("column length");
        return r.int1("column type");
    }

    private static byte[] row(List<Object> row, int[] types) {
        int columns = types.length;
        byte[] nulls = new byte[(columns + 7 + 2) / 8];
        PacketWriter values = new PacketWriter();
        for (int i = 0; i < columns; i++) {
            Object value = i < row.size() ? row.get(i) : null;
            if (value == null) {
                int bit = i + 2;
                nulls[bit / 8] |= (byte) (1 << (bit % 8));
            } else {
                value(values, types[i], value);
            }
        }
        return new PacketWriter().int1(0).bytes(nulls).bytes(values.payload()).payload();
    }

    private static void value(PacketWriter w, int type, Object value) {
        switch (type) {
            case ResultColumnType.TYPE_TINY -> w.int1((int) integer(value));
            case ResultColumnType.TYPE_SHORT, TYPE_YEAR -> w.int2((int) integer(value));
            case ResultColumnType.TYPE_LONG, TYPE_INT24 -> w.int4(integer(value));
            case ResultColumnType.TYPE_LONGLONG -> w.int8(integer(value));
            case ResultColumnType.TYPE_FLOAT -> w.int4(Float.floatToIntBits((float) real(value)) & 0xFFFFFFFFL);
            case ResultColumnType.TYPE_DOUBLE -> w.int8(Double.doubleToLongBits(real(value)));
            case ResultColumnType.TYPE_DATE -> dateTime(w, dateTimeOf(value), false);
            case ResultColumnType.TYPE_DATETIME, TYPE_TIMESTAMP -> dateTime(w, dateTimeOf(value), true);
            case TYPE_TIME -> time(w, value instanceof LocalTime t ? t : LocalTime.parse(TextResultSet.text(value)));
            default -> w.lenencString(TextResultSet.text(value));
        }
    }

    private static long integer(Object value) {
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (value instanceof BigDecimal d) {
            return d.longValueExact();
        }
        if (value instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(TextResultSet.text(value).strip());
    }

    private static double real(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.parseDouble(TextResultSet.text(value).strip());
    }

    private static LocalDateTime dateTimeOf(Object value) {
        if (value instanceof LocalDateTime t) {
            return t;
        }
        if (value instanceof LocalDate d) {
            return d.atStartOfDay();
        }
        String text = TextResultSet.text(value).strip();
        return text.length() <= 10 ? LocalDate.parse(text).atStartOfDay()
                : LocalDateTime.parse(text.replace(' ', 'T'));
    }

    /** DATE and DATETIME: length 0, 4, 7 or 11, then year, month, day, hour, minute, second, microseconds. */
    private static void dateTime(PacketWriter w, LocalDateTime t, boolean withTime) {
        int micros = t.getNano() / 1000;
        boolean time = withTime && (t.getHour() != 0 || t.getMinute() != 0 || t.getSecond() != 0 || micros != 0);
        w.int1(!time ? 4 : micros == 0 ? 7 : 11).int2(t.getYear()).int1(t.getMonthValue()).int1(t.getDayOfMonth());
        if (time) {
            w.int1(t.getHour()).int1(t.getMinute()).int1(t.getSecond());
            if (micros != 0) {
                w.int4(micros);
            }
        }
    }

    private static void time(PacketWriter w, LocalTime t) {
        int micros = t.getNano() / 1000;
        w.int1(micros == 0 ? 8 : 12).int1(0).int4(0).int1(t.getHour()).int1(t.getMinute()).int1(t.getSecond());
        if (micros != 0) {
            w.int4(micros);
        }
    }
}
