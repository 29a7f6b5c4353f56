package io.lockstep.emulator.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.ColumnType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts one source value (CSV text or a JSON node) to the Java value of its column's type, as described in
 * {@link RowChange}. A value that does not fit the type (not a number, out of the type's range, more integer
 * digits than a DECIMAL's precision allows, a string longer than CHAR/VARCHAR/STRING's length in UTF-8 bytes, an
 * invalid date, text that is not JSON) is a conversion failure: the StarRocks docs "Strict mode" name data type
 * mismatches, out-of-range values and field length overflows as the failures strict mode filters.
 *
 * <p>Strict mode filters a row with such a value; without it the value becomes NULL and the row loads, unless the
 * column is NOT NULL (StarRocks docs "Strict mode"). Filtered in every mode, as the BE's table sink validates rows
 * (StarRocks {@code be/src/exec/tablet_sink.cpp}, {@code OlapTableSink::_validate_data}): NULL in a NOT NULL column
 * ({@code LoadPlan}). Each filtered row's reason goes to the load's error log, served at its {@code ErrorURL}.
 *
 * <p>Readings follow the StarRocks BE: integers may carry a fractional part, which is dropped ("1.9" → 1);
 * surrounding spaces are ignored for numbers, booleans and dates; DECIMAL values are rounded half-up to the
 * column's scale. Stateless and thread-safe.
 */
final class ValueConverter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+(\\.[0-9]*)?");
    private static final Pattern FLOATING = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})|(\\d{4})(\\d{2})(\\d{2})");
    private static final Pattern DATETIME = Pattern.compile(
            "(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,6}))?)?)?");
    private static final BigInteger LARGEINT_MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    private static final BigInteger LARGEINT_MIN = BigInteger.ONE.shiftLeft(127).negate();

    private ValueConverter() {
    }

    /**
     * @param column the target column
     * @param source a {@link String} (CSV field, constant) or a {@link JsonNode}; never null
     * @return the converted value
     * @throws ValueConversionException saying why the value does not fit the column
     */
    static Object convert(ColumnSchema column, Object source) throws ValueConversionException {
        ColumnType type = column.type();
        if (type.kind() == ColumnType.Kind.JSON) {
            return toJson(source);
        }
        String text = source instanceof JsonNode node ? text(node) : (String) source;
        return switch (type.kind()) {
            case BOOLEAN -> toBoolean(text.trim(), column);
            case TINYINT -> (byte) integer(text, column, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT -> (short) integer(text, column, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT -> (int) integer(text, column, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> integer(text, column, Long.MIN_VALUE, Long.MAX_VALUE);
            case LARGEINT -> largeInt(text, column);
            case FLOAT -> (float) floating(text, column, true);
            case DOUBLE -> floating(text, column, false);
            case DECIMAL -> decimal(text, column);
            case CHAR, VARCHAR, STRING -> string(text, column);
            case DATE -> date(text.trim(), column);
            case DATETIME -> dateTime(text.trim(), column);
            case JSON -> throw new IllegalStateException("handled above");
        };
    }

    /** The text of a JSON scalar; objects and arrays give their JSON text. */
    private static String text(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBigDecimal()) {
            return node.decimalValue().toPlainString();
        }
        if (node.isValueNode()) {
            return node.asText();
        }
        return node.toString();
    }

    private static Object toJson(Object source) throws ValueConversionException {
        if (source instanceof JsonNode node) {
            return node.toString();
        }
        String text = (String) source;
        try {
            return JSON.readTree(text).toString();
        } catch (Exception e) {
            throw new ValueConversionException("'" + text + "' is not valid JSON");
        }
    }

    private static Boolean toBoolean(String text, ColumnSchema column) throws ValueConversionException {
        if (text.equalsIgnoreCase("true") || text.equals("1")) {
            return Boolean.TRUE;
        }
        if (text.equalsIgnoreCase("false") || text.equals("0")) {
            return Boolean.FALSE;
        }
        throw failure(text, column);
    }

    private static long integer(String raw, ColumnSchema column, long min, long max)
            throws ValueConversionException {
        long fast = plainLong(raw);
        if (fast != NOT_PLAIN) {
            if (fast < min || fast > max) {
                throw outOfRange(raw, column);
            }
            return fast;
        }
        String text = raw.trim();
        if (!INTEGER.matcher(text).matches()) {
            throw failure(raw, column);
        }
        int dot = text.indexOf('.');
        String whole = dot < 0 ? text : text.substring(0, dot);
        if (whole.equals("+") || whole.equals("-")) {
            whole = "0";
        }
        try {
            long value = Long.parseLong(whole);
            if (value < min || value > max) {
                throw outOfRange(raw, column);
            }
            return value;
        } catch (NumberFormatException e) {
            throw outOfRange(raw, column);
        }
    }

    /** Marks text that {@link #plainLong} does not read; never a result (it has more than 18 digits). */
    private static final long NOT_PLAIN = Long.MIN_VALUE;

    /** Reads an optional '-' and 1..18 digits without allocating, else returns {@link #NOT_PLAIN}. */
    private static long plainLong(String text) {
        int length = text.length();
        int i = 0;
        boolean negative = false;
        if (length > 0 && text.charAt(0) == '-') {
            negative = true;
            i = 1;
        }
        if (length == i || length - i > 18) {
            return NOT_PLAIN;
        }
        long value = 0;
        for (; i < length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return NOT_PLAIN;
            }
            value = value * 10 + (c - '0');
        }
        return negative ? -value : value;
    }

    private static BigInteger largeInt(String raw, ColumnSchema column) throws ValueConversionException {
        String text = raw.trim();
        if (!INTEGER.matcher(text).matches()) {
            throw failure(raw, column);
        }
        int dot = text.indexOf('.');
        String whole = dot < 0 ? text : text.substring(0, dot);
        BigInteger value = whole.equals("+") || whole.equals("-") ? BigInteger.ZERO : new BigInteger(whole);
        if (value.compareTo(LARGEINT_MIN) < 0 || value.compareTo(LARGEINT_MAX) > 0) {
            throw outOfRange(raw, column);
        }
        return value;
    }

    private static double floating(String raw, ColumnSchema column, boolean single) throws ValueConversionException {
        String text = raw.trim();
        if (!FLOATING.matcher(text).matches()) {
            throw failure(raw, column);
        }
        double value = Double.parseDouble(text);
        if (Double.isInfinite(value) || (single && Float.isInfinite((float) value))) {
            throw outOfRange(raw, column);
        }
        return value;
    }

    private static BigDecimal decimal(String raw, ColumnSchema column) throws ValueConversionException {
        String text = raw.trim();
        BigDecimal parsed;
        try {
            parsed = new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw failure(raw, column);
        }
        int precision = column.type().precision();
        int scale = column.type().scale();
        // Guards before rescaling, so that an exponent like 1e999999999 costs nothing.
        if (parsed.precision() - parsed.scale() > precision - scale) {
            throw new ValueConversionException("Value '" + raw + "' is out of range of DECIMAL(" + precision + ","
                    + scale + ") for column '" + column.name() + "'");
        }
        if (parsed.scale() - parsed.precision() > scale + 1) {
            return BigDecimal.ZERO.setScale(scale);
        }
        BigDecimal value = parsed.setScale(scale, RoundingMode.HALF_UP);
        if (value.precision() - value.scale() > precision - scale) {
            throw new ValueConversionException("Value '" + raw + "' is out of range of DECIMAL(" + precision + ","
                    + scale + ") for column '" + column.name() + "'");
        }
        return value;
    }

    private static String string(String text, ColumnSchema column) throws ValueConversionException {
        int maxBytes = column.type().length();
        if (maxBytes > 0 && text.length() > maxBytes / 3) {
            int bytes = text.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxBytes) {
                throw new ValueConversionException("String (length=" + bytes + " bytes) is too long. The max length"
                        + " of '" + column.name() + "' is " + maxBytes);
            }
        }
        return text;
    }

    private static LocalDate date(String text, ColumnSchema column) throws ValueConversionException {
        Matcher m = DATE.matcher(text);
        try {
            if (m.matches()) {
                return m.group(1) != null
                        ? LocalDate.of(num(m.group(1)), num(m.group(2)), num(m.group(3)))
                        : LocalDate.of(num(m.group(4)), num(m.group(5)), num(m.group(6)));
            }
            return dateTime(text, column).toLocalDate();
        } catch (DateTimeException e) {
            throw failure(text, column);
        }
    }

    private static LocalDateTime dateTime(String text, ColumnSchema column) throws ValueConversionException {
        if (text.length() == 19 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == ' '
                && text.charAt(13) == ':' && text.charAt(16) == ':') {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 7);
            int day = digits(text, 8, 10);
            int hour = digits(text, 11, 13);
            int minute = digits(text, 14, 16);
            int second = digits(text, 17, 19);
            if ((year | month | day | hour | minute | second) >= 0) {
                try {
                    return LocalDateTime.of(year, month, day, hour, minute, second);
                } catch (DateTimeException e) {
                    throw failure(text, column);
                }
            }
        }
        Matcher m = DATETIME.matcher(text);
        if (!m.matches()) {
            throw failure(text, column);
        }
        try {
            int nanos = 0;
            if (m.group(7) != null) {
                String fraction = (m.group(7) + "000000").substring(0, 6);
                nanos = Integer.parseInt(fraction) * 1000;
            }
            return LocalDateTime.of(num(m.group(1)), num(m.group(2)), num(m.group(3)),
                    m.group(4) == null ? 0 : num(m.group(4)), m.group(5) == null ? 0 : num(m.group(5)),
                    m.group(6) == null ? 0 : num(m.group(6)), nanos);
        } catch (DateTimeException e) {
            throw failure(text, column);
        }
    }

    /** The number written by the ASCII digits in text[from, to), or -1 if any is not a digit. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int num(String digits) {
        return Integer.parseInt(digits);
    }

    private static ValueConversionException failure(String text, ColumnSchema column) {
        return new ValueConversionException("Value '" + text + "' cannot be converted to " + typeName(column)
                + " for column '" + column.name() + "'");
    }

    private static ValueConversionException outOfRange(String text, ColumnSchema column) {
        return new ValueConversionException("Value '" + text + "' is out of range of " + typeName(column)
                + " for column '" + column.name() + "'");
    }

    static String typeName(ColumnSchema column) {
        ColumnType type = column.type();
        return switch (type.kind()) {
            case DECIMAL -> "DECIMAL(" + type.precision() + "," + type.scale() + ")";
            case CHAR, VARCHAR -> type.kind() + "(" + type.length() + ")";
            default -> type.kind().name();
        };
    }
}
