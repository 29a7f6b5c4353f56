package io.lockstep.app.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether one JSON value fits a target column, by the rule table of docs/dead-letter.md ("Bad values"): the value
 * is read as StarRocks' stream load reads a JSON field (a string's text, a number's digits) and must convert to the
 * column's type without change: a number (integers, floating point, DECIMAL), within the type's range (TINYINT ..
 * LARGEINT, FLOAT, DOUBLE, DECIMAL(p,s)'s p-s integer digits), a CHAR/VARCHAR value within the column's length in
 * UTF-8 bytes, a valid date ({@code yyyy-MM-dd}, {@code yyyyMMdd} or a datetime) or datetime
 * ({@code yyyy-MM-dd[ HH:mm[:ss[.ffffff]]]}, {@code T} also separating), {@code true}/{@code false}/{@code 1}/{@code 0}
 * for BOOLEAN, and no NULL in a NOT NULL column. These are the failures StarRocks' strict mode filters (StarRocks docs
 * "Strict mode": data type conversion failures, out-of-range values, field length overflow; the BE's
 * {@code OlapTableSink} validation: NULL in a NOT NULL column, string length in bytes).
 *
 * <p>Stricter than the server in two cases, because the server would change the value without a word: a fractional
 * part for an integer column ({@code 1.9} → 1) and more decimal places than a DECIMAL's scale (rounded). Types this
 * class does not know (JSON, ARRAY, MAP, STRUCT, TEXT, types the reader did not learn) are not checked here; the
 * server's strict mode still is. Stateless and thread-safe.
 */
public final class ValueRules {

    private static final Pattern TYPE = Pattern.compile("\\s*([a-z_0-9]+?)(?:v2|v3)?\\s*(?:\\(\\s*(\\d+)\\s*"
            + "(?:,\\s*(\\d+)\\s*)?\\))?\\s*(?:\\s+unsigned)?\\s*");
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+(\\.[0-9]*)?");
    private static final Pattern FLOATING = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})|(\\d{4})(\\d{2})(\\d{2})");
    private static final Pattern DATETIME = Pattern.compile(
            "(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,6}))?)?)?");
    private static final BigInteger LARGEINT_MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    private static final BigInteger LARGEINT_MIN = BigInteger.ONE.shiftLeft(127).negate();
    /** StarRocks' STRING is a VARCHAR(65533) (StarRocks docs "STRING"). */
    private static final int STRING_BYTES = 65_533;

    private ValueRules() {
    }

    /**
     * @param column the target column; its {@link TargetColumn#type()} as DESC prints it (StarRocks or Doris) or as
     *     {@code --schema-changes apply} adds it (e.g. {@code VARCHAR(256)}), case-insensitive
     * @param value the row's value for it; JSON null (or {@code null}) for NULL
     * @return {@code null} when the value fits; else why not, e.g. {@code is not a number (column type bigint(20))},
     *     never quoting the value
     */
    public static String violation(TargetColumn column, JsonNode value) {
        if (value == null || value.isNull()) {
            return column.nullable() ? null : "is NULL, but the column is NOT NULL";
        }
        if (column.type() == null) {
            return null;
        }
        Matcher type = TYPE.matcher(column.type().toLowerCase(Locale.ROOT));
        if (!type.matches()) {
            return null; // ARRAY<..>, MAP<..>, STRUCT<..>: left to the server
        }
        String base = type.group(1);
        Integer length = type.group(2) == null ? null : Integer.valueOf(type.group(2));
        Integer scale = type.group(3) == null ? null : Integer.valueOf(type.group(3));
        String text = text(value);
        String problem = switch (base) {
            case "boolean", "bool" -> bool(text.trim());
            case "tinyint" -> integer(text, BigInteger.valueOf(Byte.MIN_VALUE), BigInteger.valueOf(Byte.MAX_VALUE));
            case "smallint" -> integer(text, BigInteger.valueOf(Short.MIN_VALUE),
                    BigInteger.valueOf(Short.MAX_VALUE));
            case "int", "integer" -> integer(text, BigInteger.valueOf(Integer.MIN_VALUE),
                    BigInteger.valueOf(Integer.MAX_VALUE));
            case "bigint" -> integer(text, BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE));
            case "largeint" -> integer(text, LARGEINT_MIN, LARGEINT_MAX);
            case "float" -> floating(text, true);
            case "double" -> floating(text, false);
            case "decimal", "decimal32", "decimal64", "decimal128", "numeric" ->
                    decimal(text, length == null ? 10 : length, scale == null ? 0 : scale);
            case "char", "varchar" -> string(text, length == null ? 1 : length);
            case "string" -> string(text, STRING_BYTES);
            case "date" -> date(text.trim());
            case "datetime" -> dateTime(text.trim());
            default -> null; // json, jsonb, text, hll, bitmap, ...: left to the server
        };
        return problem == null ? null : problem + " (column type " + column.type() + ")";
    }

    /** The text StarRocks reads from a JSON field: a string's text, a number's digits, other JSON as JSON. */
    private static String text(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBigDecimal()) {
            return node.decimalValue().toPlainString();
        }
        return node.isValueNode() ? node.asText() : node.toString();
    }

    private static String bool(String text) {
        return text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false") || text.equals("1")
                || text.equals("0") ? null : "is not a boolean (true, false, 1 or 0)";
    }

    private static String integer(String raw, BigInteger min, BigInteger max) {
        String text = raw.trim();
        if (!INTEGER.matcher(text).matches()) {
            return "is not an integer";
        }
        int dot = text.indexOf('.');
        if (dot >= 0 && !text.substring(dot + 1).chars().allMatch(c -> c == '0')) {
            return "has a fractional part, which the server would drop";
        }
        String whole = dot < 0 ? text : text.substring(0, dot);
        BigInteger value = whole.equals("+") || whole.equals("-") ? BigInteger.ZERO : new BigInteger(whole);
        return value.compareTo(min) < 0 || value.compareTo(max) > 0 ? "is out of range" : null;
    }

    private static String floating(String raw, boolean single) {
        String text = raw.trim();
        if (!FLOATING.matcher(text).matches()) {
            return "is not a number";
        }
        double value = Double.parseDouble(text);
        return Double.isInfinite(value) || (single && Float.isInfinite((float) value)) ? "is out of range" : null;
    }

    private static String decimal(String raw, int precision, int scale) {
        BigDecimal value;
        try {
            value = new BigDecimal(raw.trim());
        } catch (NumberFormatException e) {
            return "is not a number";
        }
        if (value.precision() - value.scale() > precision - scale) {
            return "is out of range";
        }
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > scale) {
            return "has more than " + scale + " decimal places, which the server would round";
        }
        return null;
    }

    private static String string(String text, int maxBytes) {
        if (text.length() <= maxBytes / 3) {
            return null; // at most 3 UTF-8 bytes per UTF-16 char
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        return bytes > maxBytes ? "is " + bytes + " bytes long in UTF-8, over the column's " + maxBytes : null;
    }

    private static String date(String text) {
        Matcher m = DATE.matcher(text);
        try {
            if (m.matches()) {
                if (m.group(1) != null) {
                    LocalDate.of(num(m.group(1)), num(m.group(2)), num(m.group(3)));
                } else {
                    LocalDate.of(num(m.group(4)), num(m.group(5)), num(m.group(6)));
                }
                return null;
            }
        } catch (DateTimeException e) {
            return "is not a valid date";
        }
        return dateTime(text) == null ? null : "is not a valid date";
    }

    private static String dateTime(String text) {
        Matcher m = DATETIME.matcher(text);
        if (!m.matches()) {
            return "is not a valid datetime";
        }
        try {
            LocalDateTime.of(num(m.group(1)), num(m.group(2)), num(m.group(3)),
                    m.group(4) == null ? 0 : num(m.group(4)), m.group(5) == null ? 0 : num(m.group(5)),
                    m.group(6) == null ? 0 : num(m.group(6)));
            return null;
        } catch (DateTimeException e) {
            return "is not a valid datetime";
        }
    }

    private static int num(String digits) {
        return Integer.parseInt(digits);
    }
}
