package io.lockstep.flink.table;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Writes a Flink SQL row ({@link RowData} of a {@link RowType}) as one JSON object whose keys are the column names, the
 * form StarRocks and Doris stream load read in JSON simple mode (StarRocks docs "Load data in JSON format"; Doris docs
 * "JSON format"): one row of {@link io.lockstep.core.format.JsonLoadFormat}, which frames the rows into load bodies
 * and declares them with its headers (the table sink's default, {@code TableSinkOptions}). Per type:
 * <ul>
 *   <li>BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE: JSON numbers and booleans (a NaN or infinite float
 *       is refused: no StarRocks column holds it);</li>
 *   <li>DECIMAL(p, s): a JSON number written in plain notation with exactly {@code s} decimals;</li>
 *   <li>CHAR, VARCHAR (STRING): JSON strings;</li>
 *   <li>DATE: {@code "yyyy-MM-dd"}; TIME(p): {@code "HH:mm:ss[.f]"} (for a VARCHAR column);</li>
 *   <li>TIMESTAMP(p): {@code "yyyy-MM-dd HH:mm:ss"} plus {@code p} fractional digits (p &lt;= 6 are kept exactly,
 *       DATETIME holds microseconds); TIMESTAMP_LTZ(p): the same in the session time zone;</li>
 *   <li>ARRAY: a JSON array; MAP (and MULTISET, counts as values): a JSON object whose keys are the keys' JSON text
 *       (strings as they are); ROW: a JSON object by field name. They load into StarRocks ARRAY / MAP / STRUCT
 *       columns or JSON columns;</li>
 *   <li>BINARY, VARBINARY (BYTES): a Base64 string (RFC 4648): load it into a VARCHAR column, or into VARBINARY
 *       through {@code sink.properties.columns} with {@code from_base64};</li>
 *   <li>NULL values: JSON null.</li>
 * </ul>
 * Other types (INTERVAL, RAW, structured types) are refused when the encoder is made, naming the column.
 *
 * <p>Immutable after construction and serializable (shipped with the job); {@link #encode} may run on any thread,
 * each call with its own buffer.
 */
public final class RowDataJsonEncoder implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss").toFormatter();

    private final RowType rowType;
    private final String zoneId;

    /**
     * @param rowType the physical row type of the table (column names and types)
     * @param zoneId  the session time zone, for TIMESTAMP_LTZ values
     * @throws IllegalArgumentException naming the column whose type no StarRocks column can hold
     */
    public RowDataJsonEncoder(RowType rowType, ZoneId zoneId) {
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.zoneId = zoneId.getId();
        for (RowType.RowField field : rowType.getFields()) {
            check(field.getType(), field.getName());
        }
    }

    private static void check(LogicalType type, String column) {
        switch (type.getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, DATE,
                    TIME_WITHOUT_TIME_ZONE, TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE, BINARY,
                    VARBINARY, NULL -> {
            }
            case ARRAY -> check(((ArrayType) type).getElementType(), column + "[]");
            case MULTISET -> check(((MultisetType) type).getElementType(), column + "{}");
            case MAP -> {
                check(((MapType) type).getKeyType(), column + "{key}");
                check(((MapType) type).getValueType(), column + "{value}");
            }
            case ROW -> {
                for (RowType.RowField field : ((RowType) type).getFields()) {
                    check(field.getType(), column + "." + field.getName());
                }
            }
            default -> throw new IllegalArgumentException("column '" + column + "' has type " + type
                    + ", which no StarRocks or Doris column holds; cast it in the query (e.g. to STRING)");
        }
    }

    /**
     * The row as JSON bytes (UTF-8), with one extra field {@code extraName: extraValue} at the end when
     * {@code extraName} is not null (the delete flag of PRIMARY KEY / UNIQUE KEY tables).
     *
     * @throws IllegalArgumentException naming the column of a value JSON cannot carry (NaN, infinity)
     */
    public byte[] encode(RowData row, @Nullable String extraName, int extraValue) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            writeFields(json, row, rowType);
            if (extraName != null) {
                json.writeNumberField(extraName, extraValue);
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private void writeFields(JsonGenerator json, RowData row, RowType type) throws IOException {
        List<RowType.RowField> fields = type.getFields();
        for (int i = 0; i < fields.size(); i++) {
            json.writeFieldName(fields.get(i).getName());
            writeValue(json, row, i, fields.get(i).getType(), fields.get(i).getName());
        }
    }

    /** Writes field {@code pos} of {@code container} (a RowData or ArrayData). */
    private void writeValue(JsonGenerator json, Object container, int pos, LogicalType type, String column)
            throws IOException {
        boolean isNull = container instanceof RowData r ? r.isNullAt(pos) : ((ArrayData) container).isNullAt(pos);
        if (isNull) {
            json.writeNull();
            return;
        }
        RowData r = container instanceof RowData row ? row : null;
        ArrayData a = r == null ? (ArrayData) container : null;
        switch (type.getTypeRoot()) {
            case BOOLEAN -> json.writeBoolean(r != null ? r.getBoolean(pos) : a.getBoolean(pos));
            case TINYINT -> json.writeNumber(r != null ? r.getByte(pos) : a.getByte(pos));
            case SMALLINT -> json.writeNumber(r != null ? r.getShort(pos) : a.getShort(pos));
            case INTEGER -> json.writeNumber(r != null ? r.getInt(pos) : a.getInt(pos));
            case BIGINT -> json.writeNumber(r != null ? r.getLong(pos) : a.getLong(pos));
            case FLOAT -> writeFloating(json, r != null ? r.getFloat(pos) : a.getFloat(pos), column);
            case DOUBLE -> writeFloating(json, r != null ? r.getDouble(pos) : a.getDouble(pos), column);
            case DECIMAL -> {
                DecimalType d = (DecimalType) type;
                json.writeNumber((r != null ? r.getDecimal(pos, d.getPrecision(), d.getScale())
                        : a.getDecimal(pos, d.getPrecision(), d.getScale())).toBigDecimal().toPlainString());
            }
            case CHAR, VARCHAR -> json.writeString((r != null ? r.getString(pos) : a.getString(pos)).toString());
            case DATE -> json.writeString(LocalDate.ofEpochDay(r != null ? r.getInt(pos) : a.getInt(pos)).toString());
            case TIME_WITHOUT_TIME_ZONE -> json.writeString(LocalTime.ofNanoOfDay(
                    (r != null ? r.getInt(pos) : a.getInt(pos)) * 1_000_000L).toString());
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                int precision = ((TimestampType) type).getPrecision();
                TimestampData ts = r != null ? r.getTimestamp(pos, precision) : a.getTimestamp(pos, precision);
                json.writeString(dateTime(ts.toLocalDateTime(), precision));
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                int precision = ((LocalZonedTimestampType) type).getPrecision();
                TimestampData ts = r != null ? r.getTimestamp(pos, precision) : a.getTimestamp(pos, precision);
                json.writeString(dateTime(ts.toInstant().atZone(ZoneId.of(zoneId)).toLocalDateTime(), precision));
            }
            case BINARY, VARBINARY -> json.writeString(Base64.getEncoder().encodeToString(
                    r != null ? r.getBinary(pos) : a.getBinary(pos)));
            case ARRAY -> {
                LogicalType element = ((ArrayType) type).getElementType();
                ArrayData array = r != null ? r.getArray(pos) : a.getArray(pos);
                json.writeStartArray();
                for (int i = 0; i < array.size(); i++) {
                    writeValue(json, array, i, element, column);
                }
                json.writeEndArray();
            }
            case MAP, MULTISET -> {
                MapData map = r != null ? r.getMap(pos) : a.getMap(pos);
                LogicalType keyType = type instanceof MapType m ? m.getKeyType() : ((MultisetType) type).getElementType();
                LogicalType valueType = type instanceof MapType m ? m.getValueType()
                        : new IntType(false);
                json.writeStartObject();
                ArrayData keys = map.keyArray();
                ArrayData values = map.valueArray();
                for (int i = 0; i < map.size(); i++) {
                    json.writeFieldName(keyText(keys, i, keyType, column));
                    writeValue(json, values, i, valueType, column);
                }
                json.writeEndObject();
            }
            case ROW -> {
                RowType nested = (RowType) type;
                json.writeStartObject();
                writeFields(json, r != null ? r.getRow(pos, nested.getFieldCount())
                        : a.getRow(pos, nested.getFieldCount()), nested);
                json.writeEndObject();
            }
            case NULL -> json.writeNull();
            default -> throw new IllegalStateException("type " + type + " of column '" + column + "' was accepted");
        }
    }

    /** A map key as text: strings as they are, anything else as its JSON text. */
    private String keyText(ArrayData keys, int i, LogicalType keyType, String column) throws IOException {
        if (keys.isNullAt(i)) {
            throw new IllegalArgumentException("column '" + column + "' holds a map with a null key; JSON object keys "
                    + "cannot be null");
        }
        switch (keyType.getTypeRoot()) {
            case CHAR, VARCHAR:
                return keys.getString(i).toString();
            default:
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (JsonGenerator json = JSON.createGenerator(out)) {
                    writeValue(json, keys, i, keyType, column);
                }
                String text = out.toString(StandardCharsets.UTF_8);
                return text.startsWith("\"") ? text.substring(1, text.length() - 1) : text;
        }
    }

    private static void writeFloating(JsonGenerator json, double value, String column) throws IOException {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("column '" + column + "' holds " + value + ", which JSON and "
                    + "StarRocks FLOAT/DOUBLE columns cannot carry");
        }
        json.writeNumber(value);
    }

    private static void writeFloating(JsonGenerator json, float value, String column) throws IOException {
        if (Float.isNaN(value) || Float.isInfinite(value)) {
            throw new IllegalArgumentException("column '" + column + "' holds " + value + ", which JSON and "
                    + "StarRocks FLOAT/DOUBLE columns cannot carry");
        }
        json.writeNumber(value);
    }

    /** {@code yyyy-MM-dd HH:mm:ss} plus exactly {@code precision} fractional digits (at most 9). */
    static String dateTime(LocalDateTime value, int precision) {
        String base = DATE_TIME.format(value);
        if (precision <= 0) {
            return base;
        }
        String nanos = String.format("%09d", value.get(ChronoField.NANO_OF_SECOND));
        return base + "." + nanos.substring(0, Math.min(precision, 9));
    }
}
