package io.lockstep.app.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The StarRocks column type that {@code --schema-changes apply} gives a new column (docs/schema-changes.md has the
 * table). Source types are MySQL's (Debezium's {@code typeName} with {@code length}/{@code scale}, Maxwell's column
 * definitions) and PostgreSQL's; StarRocks types as its docs "Data types" name them (VARCHAR lengths are bytes, so a
 * character length is multiplied by 4 for UTF-8; STRING is VARCHAR(65533)). Anything unknown becomes STRING, which
 * accepts every JSON scalar. A column seen only in a row (no DDL) gets a type from its JSON value.
 */
public final class ColumnTypes {

    private static final Pattern TYPE = Pattern.compile(
            "\\s*([a-z0-9_ ]+?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?\\s*(unsigned)?(?:\\s+zerofill)?\\s*");
    private static final int VARCHAR_MAX_BYTES = 1_048_576;

    private ColumnTypes() {
    }

    /**
     * @param sourceType a source column type, e.g. {@code int unsigned}, {@code varchar(64)}, {@code decimal(12,2)},
     *     {@code timestamptz}; case does not matter
     * @return the StarRocks type, e.g. {@code BIGINT}, {@code VARCHAR(256)}, {@code DECIMAL(12,2)}, {@code DATETIME}
     */
    public static String starRocksType(String sourceType) {
        Matcher m = TYPE.matcher(sourceType.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return "STRING";
        }
        String base = m.group(1).strip();
        Integer length = m.group(2) == null ? null : Integer.valueOf(m.group(2));
        Integer scale = m.group(3) == null ? null : Integer.valueOf(m.group(3));
        boolean unsigned = m.group(4) != null || base.endsWith(" unsigned");
        base = base.replace(" unsigned", "");
        switch (base) {
            case "bool", "boolean":
                return "BOOLEAN";
            case "tinyint", "int1":
                return unsigned ? "SMALLINT" : "TINYINT";
            case "smallint", "int2", "smallserial", "year":
                return unsigned ? "INT" : "SMALLINT";
            case "mediumint", "int", "integer", "int4", "serial", "int3":
                return unsigned ? "BIGINT" : "INT";
            case "bigint", "int8", "bigserial":
                return unsigned ? "LARGEINT" : "BIGINT";
            case "float", "float4":
                return "FLOAT";
            case "double", "double precision", "float8", "real":
                return "DOUBLE";
            case "decimal", "numeric", "dec", "fixed":
                int precision = length == null ? 10 : length;
                int s = scale == null ? 0 : scale;
                return precision <= 38 ? "DECIMAL(" + precision + "," + s + ")" : "STRING";
            case "char", "character", "nchar", "bpchar", "varchar", "character varying", "nvarchar":
                return length == null ? "STRING" : "VARCHAR(" + Math.min((long) length * 4, VARCHAR_MAX_BYTES) + ")";
            case "date":
                return "DATE";
            case "datetime", "timestamp", "timestamptz", "timestamp without time zone",
                    "timestamp with time zone":
                return "DATETIME";
            case "json", "jsonb":
                return "JSON";
            default:
                return "STRING"; // text types, enum, set, time, binary (base64 text), uuid, bit, geometry, ...
        }
    }

    /**
     * @param value a column's value in a row (never {@code null}; a JSON null is {@code NullNode})
     * @return BOOLEAN, BIGINT (integral numbers), DOUBLE (other numbers), JSON (objects and arrays), else STRING
     *     (text, and null: nothing better is known)
     */
    public static String inferred(JsonNode value) {
        if (value.isBoolean()) {
            return "BOOLEAN";
        }
        if (value.isIntegralNumber()) {
            return "BIGINT";
        }
        if (value.isNumber()) {
            return "DOUBLE";
        }
        if (value.isContainerNode()) {
            return "JSON";
        }
        return "STRING";
    }
}
