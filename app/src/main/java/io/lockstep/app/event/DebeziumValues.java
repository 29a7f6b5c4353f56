package io.lockstep.app.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Turns the column values of one Debezium row image ({@code before} or {@code after}) into the JSON values
 * StarRocks' JSON stream load reads for the matching column type.
 *
 * <p>With the Kafka Connect JSON converter's {@code schemas.enable=true} each column's Connect schema names its
 * semantic type, and the values are converted (Debezium documents the encodings in its connectors' "data type
 * mappings" sections, e.g. https://debezium.io/documentation/reference/stable/connectors/postgresql.html#postgresql-data-types):
 * <table>
 *   <caption>Conversions</caption>
 *   <tr><th>Connect schema name (type)</th><th>value in the event</th><th>loaded as</th></tr>
 *   <tr><td>{@code org.apache.kafka.connect.data.Decimal} (bytes)</td><td>base64 of the two's-complement unscaled
 *       value, scale in the schema (converter {@code decimal.format=BASE64}); or a JSON number
 *       ({@code decimal.format=NUMERIC})</td><td>an exact JSON number</td></tr>
 *   <tr><td>{@code io.debezium.data.VariableScaleDecimal} (struct)</td><td>{@code {"scale":s,"value":base64}}</td>
 *       <td>an exact JSON number</td></tr>
 *   <tr><td>{@code io.debezium.time.Date}, {@code org.apache.kafka.connect.data.Date} (int32)</td>
 *       <td>days since 1970-01-01</td><td>{@code "yyyy-MM-dd"}</td></tr>
 *   <tr><td>{@code io.debezium.time.Timestamp}, {@code ...MicroTimestamp}, {@code ...NanoTimestamp},
 *       {@code org.apache.kafka.connect.data.Timestamp} (int64)</td><td>milli/micro/nanoseconds since the epoch
 *       of the wall-clock time</td><td>{@code "yyyy-MM-dd HH:mm:ss[.ffffff]"}</td></tr>
 *   <tr><td>{@code io.debezium.time.ZonedTimestamp} (string)</td><td>ISO-8601 with an offset</td>
 *       <td>the same instant in UTC, {@code "yyyy-MM-dd HH:mm:ss[.ffffff]"}</td></tr>
 *   <tr><td>{@code io.debezium.time.Time}, {@code ...MicroTime}, {@code ...NanoTime},
 *       {@code org.apache.kafka.connect.data.Time}, {@code io.debezium.time.ZonedTime}</td>
 *       <td>milli/micro/nanoseconds since midnight; ISO time with offset</td><td>{@code "HH:mm:ss[.ffffff]"}
 *       (StarRocks has no TIME type: load it into a VARCHAR)</td></tr>
 *   <tr><td>{@code io.debezium.data.Json} (string)</td><td>the document as text</td>
 *       <td>the JSON document itself (for a JSON column)</td></tr>
 *   <tr><td>bytes without a name (BYTEA, BLOB, VARBINARY)</td><td>base64</td><td>the base64 text, unchanged
 *       (for a VARCHAR column; {@code binary.handling.mode=hex} gives hex text)</td></tr>
 *   <tr><td>other strings, numbers, booleans (and names such as {@code io.debezium.data.Uuid},
 *       {@code io.debezium.data.Enum}, {@code io.debezium.time.IsoTimestamp})</td><td>as is</td><td>as is</td></tr>
 *   <tr><td>an array of numbers, booleans or text (also {@code io.debezium.data.Uuid}/{@code Enum} elements)</td>
 *       <td>a JSON array</td><td>as is (for a JSON column)</td></tr>
 * </table>
 * Any other structured or binary encoding ({@code io.debezium.data.Bits}, geometries, arrays of encoded elements
 * such as dates or decimals, maps) fails with
 * an error naming the table, the column, the encoding and the connector option that avoids it.
 *
 * <p>Without schemas ({@code schemas.enable=false}) the encodings cannot be told apart from plain values, so
 * values pass unchanged: the connector must then be configured to emit load-ready values
 * ({@code decimal.handling.mode=string}, {@code time.precision.mode=isostring}); see docs/sources.md.
 *
 * <p>In both modes a value equal to Debezium's unavailable-value placeholder ({@code __debezium_unavailable_value},
 * option {@code unavailable.value.placeholder}; PostgreSQL sends it for a TOASTed column an update left unchanged
 * when the table's replica identity is not FULL) is refused: loading it would overwrite the stored value. Stateless
 * and thread-safe.
 */
final class DebeziumValues {

    /** Debezium's default {@code unavailable.value.placeholder}. */
    static final String UNAVAILABLE_VALUE = "__debezium_unavailable_value";

    private static final String UNAVAILABLE_VALUE_BASE64 =
            Base64.getEncoder().encodeToString(UNAVAILABLE_VALUE.getBytes(StandardCharsets.UTF_8));

    private static final Set<String> PLAIN_ITEM_TYPES = Set.of("int8", "int16", "int32", "int64",
            "float32", "float64", "boolean", "string");
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private DebeziumValues() {
    }

    /**
     * Converts the image in place.
     *
     * @param image the {@code before} or {@code after} object of a data event
     * @param imageSchema the Connect schema of that field (a {@code struct} with {@code fields}), or {@code null}
     *     when the message has no schema
     * @param table the source table ({@code schema.table} or {@code db.table}) for error messages
     * @param position the source position for error messages
     * @param upsert true for an image that is loaded as an upsert (the placeholder is refused); false for a
     *     delete's {@code before} image, where only the key columns matter
     * @return the same image
     * @throws BadSourceEventException when a value holds the unavailable-value placeholder or an encoding that
     *     cannot be loaded; the message names the table, the column and the fix, never the value
     */
    static ObjectNode toLoadValues(ObjectNode image, JsonNode imageSchema, String table, String position,
            boolean upsert) {
        Map<String, JsonNode> columnSchemas = imageSchema == null ? Map.of() : columnSchemas(imageSchema);
        for (Iterator<Map.Entry<String, JsonNode>> it = image.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> column = it.next();
            JsonNode value = column.getValue();
            if (value == null || value.isNull()) {
                continue;
            }
            JsonNode schema = columnSchemas.get(column.getKey());
            if (upsert) {
                checkAvailable(value, schema, table, column.getKey(), position);
            } else if (isPlaceholder(value, schema)) {
                continue;
            }
            if (schema != null) {
                column.setValue(convert(value, schema, table, column.getKey(), position));
            }
        }
        return image;
    }

    private static Map<String, JsonNode> columnSchemas(JsonNode imageSchema) {
        JsonNode fields = imageSchema.get("fields");
        Map<String, JsonNode> byName = new HashMap<>();
        if (fields != null && fields.isArray()) {
            for (JsonNode field : fields) {
                JsonNode name = field.get("field");
                if (name != null && name.isTextual()) {
                    byName.put(name.textValue(), field);
                }
            }
        }
        return byName;
    }

    private static void checkAvailable(JsonNode value, JsonNode schema, String table, String column,
            String position) {
        if (isPlaceholder(value, schema)) {
            throw new BadSourceEventException(position, "column '" + column + "' of table " + table
                    + " holds Debezium's placeholder " + UNAVAILABLE_VALUE + " (a TOASTed value the update left"
                    + " unchanged, which PostgreSQL does not send); loading it would overwrite the stored value:"
                    + " run ALTER TABLE " + table + " REPLICA IDENTITY FULL");
        }
    }

    private static boolean isPlaceholder(JsonNode value, JsonNode schema) {
        boolean placeholder = value.isTextual() && (UNAVAILABLE_VALUE.equals(value.textValue())
                || (UNAVAILABLE_VALUE_BASE64.equals(value.textValue()) && (schema == null || isBytes(schema))));
        if (value.isArray()) {
            for (JsonNode element : value) {
                placeholder |= element.isTextual() && UNAVAILABLE_VALUE.equals(element.textValue());
            }
        }
        return placeholder;
    }

    private static boolean isBytes(JsonNode schema) {
        return "bytes".equals(text(schema, "type")) && text(schema, "name") == null;
    }

    private static JsonNode convert(JsonNode value, JsonNode schema, String table, String column, String position) {
        String name = text(schema, "name");
        String type = text(schema, "type");
        try {
            if (name == null) {
                if ("array".equals(type) && hasPlainItems(schema)) {
                    return value;
                }
                if ("struct".equals(type) || "array".equals(type) || "map".equals(type)) {
                    throw unsupported(table, column, type, position);
                }
                return value;
            }
            switch (name) {
                case "org.apache.kafka.connect.data.Decimal":
                    return decimal(value, schema, table, column, position);
                case "io.debezium.data.VariableScaleDecimal":
                    return variableScaleDecimal(value, table, column, position);
                case "io.debezium.time.Date":
                case "org.apache.kafka.connect.data.Date":
                    return text(LocalDate.ofEpochDay(value.asLong()).toString());
                case "io.debezium.time.Timestamp":
                case "org.apache.kafka.connect.data.Timestamp":
                    return dateTime(value.asLong(), 1_000_000L, table, column, position);
                case "io.debezium.time.MicroTimestamp":
                    return dateTime(value.asLong(), 1_000L, table, column, position);
                case "io.debezium.time.NanoTimestamp":
                    return dateTime(value.asLong(), 1L, table, column, position);
                case "io.debezium.time.ZonedTimestamp":
                    return zonedDateTime(value, table, column, position);
                case "io.debezium.time.Time":
                case "org.apache.kafka.connect.data.Time":
                    return time(value.asLong() * 1_000_000L, table, column, position);
                case "io.debezium.time.MicroTime":
                    return time(value.asLong() * 1_000L, table, column, position);
                case "io.debezium.time.NanoTime":
                    return time(value.asLong(), table, column, position);
                case "io.debezium.time.ZonedTime":
                    return text(timeText(OffsetTime.parse(value.textValue())
                            .withOffsetSameInstant(ZoneOffset.UTC).toLocalTime()));
                case "io.debezium.data.Json":
                    return CdcJson.parseValue(value.textValue(), position, "column '" + column + "' of table "
                            + table + " (io.debezium.data.Json)");
                default:
                    if ("struct".equals(type) || "array".equals(type) || "map".equals(type) || "bytes".equals(type)) {
                        throw unsupported(table, column, name + " (" + type + ")", position);
                    }
                    return value;
            }
        } catch (DateTimeParseException | IllegalArgumentException | ArithmeticException e) {
            throw new BadSourceEventException(position, "column '" + column + "' of table " + table
                    + ": a value does not read as " + name + " (" + type + ")");
        }
    }

    /**
     * An array whose elements load as they are (numbers, booleans, text, uuids, enum labels: no encoding to undo)
     * loads as the JSON array it is, for a JSON column; one of encoded elements (dates, decimals, bytes) does not.
     */
    private static boolean hasPlainItems(JsonNode arraySchema) {
        JsonNode items = arraySchema.get("items");
        if (items == null) {
            return false;
        }
        String itemsName = text(items, "name");
        return PLAIN_ITEM_TYPES.contains(String.valueOf(text(items, "type")))
                && (itemsName == null || "io.debezium.data.Uuid".equals(itemsName)
                || "io.debezium.data.Enum".equals(itemsName));
    }

    private static BadSourceEventException unsupported(String table, String column, String encoding,
            String position) {
        return new BadSourceEventException(position, "column '" + column + "' of table " + table
                + " has the Debezium encoding " + encoding + ", which StarRocks cannot load; exclude the column"
                + " (column.exclude.list) or convert it in the source (e.g. binary.handling.mode=hex for bits,"
                + " a generated text column, or a custom converter)");
    }

    private static JsonNode decimal(JsonNode value, JsonNode schema, String table, String column, String position) {
        if (value.isNumber()) {
            return JsonNodeFactory.instance.numberNode(value.decimalValue());
        }
        JsonNode parameters = schema.get("parameters");
        String scale = parameters == null ? null : text(parameters, "scale");
        if (scale == null || !value.isTextual()) {
            throw new BadSourceEventException(position, "column '" + column + "' of table " + table
                    + " is an org.apache.kafka.connect.data.Decimal without a scale parameter or base64 text;"
                    + " set decimal.handling.mode=string on the connector");
        }
        return JsonNodeFactory.instance.numberNode(
                new BigDecimal(new BigInteger(Base64.getDecoder().decode(value.textValue())), Integer.parseInt(scale)));
    }

    private static JsonNode variableScaleDecimal(JsonNode value, String table, String column, String position) {
        JsonNode scale = value.get("scale");
        JsonNode unscaled = value.get("value");
        if (scale == null || !scale.canConvertToInt() || unscaled == null || !unscaled.isTextual()) {
            throw new BadSourceEventException(position, "column '" + column + "' of table " + table
                    + " is an io.debezium.data.VariableScaleDecimal without 'scale' and base64 'value';"
                    + " set decimal.handling.mode=string on the connector");
        }
        return JsonNodeFactory.instance.numberNode(
                new BigDecimal(new BigInteger(Base64.getDecoder().decode(unscaled.textValue())), scale.intValue()));
    }

    /** @param nanosPerUnit 1_000_000 for milliseconds, 1_000 for microseconds, 1 for nanoseconds */
    private static JsonNode dateTime(long epochUnits, long nanosPerUnit, String table, String column,
            String position) {
        long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
        long seconds = Math.floorDiv(epochUnits, unitsPerSecond);
        long nanos = Math.floorMod(epochUnits, unitsPerSecond) * nanosPerUnit;
        return text(dateTimeText(LocalDateTime.ofEpochSecond(seconds, (int) nanos, ZoneOffset.UTC), table, column,
                position));
    }

    private static JsonNode zonedDateTime(JsonNode value, String table, String column, String position) {
        Instant instant = OffsetDateTime.parse(value.textValue()).toInstant();
        return text(dateTimeText(LocalDateTime.ofInstant(instant, ZoneOffset.UTC), table, column, position));
    }

    /** StarRocks DATETIME holds microseconds: finer values are refused rather than cut. */
    private static String dateTimeText(LocalDateTime at, String table, String column, String position) {
        if (at.getNano() % 1_000 != 0) {
            throw new BadSourceEventException(position, "column '" + column + "' of table " + table
                    + " has nanoseconds, which a StarRocks DATETIME cannot hold; set time.precision.mode=adaptive"
                    + " or load it into a VARCHAR");
        }
        return DATE_TIME.format(at) + fraction(at.getNano());
    }

    /**
     * A time of day; MySQL's TIME also holds durations ({@code -838:59:59} to {@code 838:59:59}) and PostgreSQL's
     * {@code 24:00:00}, which no time of day is: refused rather than taken modulo a day.
     */
    private static JsonNode time(long nanosOfDay, String table, String column, String position) {
        if (nanosOfDay < 0 || nanosOfDay >= 86_400_000_000_000L) {
            throw new BadSourceEventException(position, "column '" + column + "' of table " + table
                    + " has a TIME outside 00:00:00..23:59:59.999999 (a duration or 24:00:00), which loading as a"
                    + " time of day would change; convert it in the source (e.g. a generated text column)");
        }
        return text(timeText(LocalTime.ofNanoOfDay(nanosOfDay)));
    }

    private static String timeText(LocalTime time) {
        return TIME.format(time) + fraction(time.getNano());
    }

    /** {@code ""} for whole seconds, else {@code ".ffffff"} (microseconds, as StarRocks prints them). */
    private static String fraction(int nanos) {
        if (nanos == 0) {
            return "";
        }
        String micros = Integer.toString(nanos / 1_000 + 1_000_000);
        return "." + micros.substring(1);
    }

    private static JsonNode text(String value) {
        return JsonNodeFactory.instance.textNode(value);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }
}
