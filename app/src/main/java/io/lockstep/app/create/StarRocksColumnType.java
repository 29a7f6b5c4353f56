package io.lockstep.app.create;

import java.util.Locale;
import java.util.Set;

/**
 * The StarRocks column type table creation gives a source column: a type that holds every value of the source
 * column exactly as the load path delivers it (app/event/DebeziumValues for Debezium, the value as sent otherwise),
 * or a refusal. docs/table-creation.md#type-mapping has the table; StarRocks types as its docs "Data types" name
 * them.
 *
 * <p>The native type ({@link SourceColumn#sourceType()} with {@link SourceColumn#length()} and
 * {@link SourceColumn#scale()}) decides when it is known; else the Kafka Connect schema
 * ({@link SourceColumn#connectType()}, {@link SourceColumn#semanticType()}, {@link SourceColumn#parameters()}),
 * see {@link ConnectColumnType}. A native type this class does not know (a PostgreSQL user-defined type such as an
 * enum, whose name is the type's own) falls back to the Connect schema when there is one.
 *
 * <p>Rules: character lengths are characters in the source but bytes in StarRocks, so {@code VARCHAR(n)} becomes
 * {@code VARCHAR(4n)} (UTF-8 takes up to 4 bytes a character) capped at 1048576; unbounded text becomes STRING
 * (65533 bytes; a longer value is refused at load by the value check, app/schema/ValueRules). Unsigned integers take
 * the next wider type. TIME becomes {@code VARCHAR(32)} (StarRocks has no TIME type; the load path sends
 * {@code HH:mm:ss[.ffffff]}); every timestamp becomes DATETIME (microseconds), a time-zoned one in UTC. Refused (see
 * {@link UnmappableColumnException}): decimals without a precision or wider than 38 digits, binary, bit strings
 * longer than one bit, geometries, PostgreSQL intervals, arrays of other than plain numbers, booleans, text or
 * uuids. Stateless and thread-safe.
 */
public final class StarRocksColumnType {

    /** StarRocks' longest VARCHAR in bytes (StarRocks docs "VARCHAR", since 2.1). */
    static final int VARCHAR_MAX_BYTES = 1_048_576;
    /** The type of TIME values: {@code HH:mm:ss.ffffff}, or MySQL's {@code -838:59:59.000000}, fit in 32 bytes. */
    static final String TIME_TEXT = "VARCHAR(32)";
    /** StarRocks' largest DECIMAL precision (StarRocks docs "DECIMAL": DECIMAL128 up to 38). */
    static final int DECIMAL_MAX_PRECISION = 38;

    private StarRocksColumnType() {
    }

    /**
     * @param table the source table (for messages)
     * @param column the source column
     * @return the StarRocks type, e.g. {@code BIGINT}, {@code VARCHAR(256)}, {@code DECIMAL(12,2)}, {@code DATETIME}
     * @throws UnmappableColumnException when no StarRocks type holds every value exactly, or nothing describes the
     *     column's type
     */
    public static String of(SourceTable table, SourceColumn column) {
        if (column.sourceType() != null) {
            String mapped = nativeType(table, column);
            if (mapped != null) {
                return mapped;
            }
        }
        if (column.connectType() != null) {
            return ConnectColumnType.of(table, column);
        }
        String type = column.sourceType() == null ? "no type" : column.sourceType();
        throw new UnmappableColumnException(table, column, type, "is a type table creation does not know",
                "convert it in the source");
    }

    /** @return {@code VARCHAR(4n)} capped at the longest VARCHAR, for {@code n} characters (at least one byte) */
    static String varcharForCharacters(long characters) {
        return "VARCHAR(" + Math.max(1, Math.min(characters * 4, VARCHAR_MAX_BYTES)) + ")";
    }

    /**
     * @return the type of a native type, or {@code null} when the native type is not one of PostgreSQL's or
     *     MySQL's/MariaDB's built-in types
     */
    private static String nativeType(SourceTable table, SourceColumn column) {
        String text = column.sourceType().toLowerCase(Locale.ROOT).replaceAll("\\(.*\\)", " ")
                .replace("zerofill", " ").strip().replaceAll("\\s+", " ");
        boolean unsigned = text.endsWith(" unsigned");
        String base = unsigned ? text.substring(0, text.length() - " unsigned".length()) : text;
        Integer length = column.length();
        if (base.startsWith("_") || base.endsWith("[]")) {
            return ArrayColumnType.ofNative(table, column, base.startsWith("_") ? base.substring(1)
                    : base.substring(0, base.length() - 2));
        }
        switch (base) {
            case "bool", "boolean":
                return "BOOLEAN";
            case "tinyint", "int1":
                if ("boolean".equals(column.connectType())) {
                    return "BOOLEAN"; // tinyint(1) through a converter that makes it a boolean
                }
                return unsigned ? "SMALLINT" : "TINYINT";
            case "smallint", "int2", "smallserial", "serial2", "year":
                return unsigned ? "INT" : "SMALLINT";
            case "mediumint", "int3":
                return "INT";
            case "int", "integer", "int4", "serial", "serial4":
                return unsigned ? "BIGINT" : "INT";
            case "bigint", "int8", "bigserial", "serial8", "oid":
                if (unsigned) {
                    refuseLongUnsigned(table, column);
                    return "LARGEINT";
                }
                return "BIGINT";
            case "float", "float4":
                return "FLOAT";
            case "double", "double precision", "float8", "real":
                return "DOUBLE";
            case "decimal", "numeric", "dec", "fixed":
                return decimal(table, column, base);
            case "money":
                return "DECIMAL(19,2)";
            case "char", "character", "nchar", "bpchar", "varchar", "character varying", "nvarchar",
                    "national char", "national varchar":
                return length == null ? "STRING" : varcharForCharacters(length);
            case "tinytext":
                return "VARCHAR(255)";
            case "text", "mediumtext", "longtext", "citext", "xml", "long varchar", "long":
                return "STRING";
            case "name":
                return "VARCHAR(64)";
            case "inet", "cidr", "macaddr", "macaddr8":
                return "VARCHAR(64)";
            case "uuid":
                return "VARCHAR(36)";
            case "json", "jsonb":
                return "JSON";
            case "enum", "set":
                return EnumColumnType.of(column, base.equals("set"));
            case "date":
                return "DATE";
            case "time", "timetz", "time without time zone", "time with time zone":
                return TIME_TEXT;
            case "datetime", "timestamp", "timestamptz", "timestamp without time zone",
                    "timestamp with time zone":
                return "DATETIME";
            case "bit", "varbit", "bit varying":
                if ("bit".equals(base) && (length == null || length == 1)) {
                    return "BOOLEAN";
                }
                throw new UnmappableColumnException(table, column, column.sourceType(),
                        "is a bit string the load path cannot carry (Debezium sends io.debezium.data.Bits bytes)",
                        "convert it in the source (e.g. a generated text column)");
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob", "bytea", "long varbinary":
                throw new UnmappableColumnException(table, column, column.sourceType(),
                        "is binary, which loads as Debezium's base64 (or hex) text, not as the bytes",
                        "exclude it (column.exclude.list), or keep that text in a STRING");
            case "geometry", "geography", "point", "linestring", "polygon", "multipoint", "multilinestring",
                    "multipolygon", "geometrycollection", "geomcollection", "line", "lseg", "box", "path", "circle":
                throw new UnmappableColumnException(table, column, column.sourceType(),
                        "is a geometry, which StarRocks has no type for", "exclude it (column.exclude.list)");
            case "interval":
                throw new UnmappableColumnException(table, column, column.sourceType(),
                        "is an interval, which Debezium's default interval.handling.mode=numeric approximates"
                        + " (a month as 30.4375 days)",
                        "set interval.handling.mode=string and keep the text in a VARCHAR(64)");
            default:
                return null;
        }
    }

    private static void refuseLongUnsigned(SourceTable table, SourceColumn column) {
        if ("int64".equals(column.connectType())) {
            throw new UnmappableColumnException(table, column, column.sourceType(),
                    "arrives as a signed int64, which Debezium's bigint.unsigned.handling.mode=long wraps above"
                    + " 2^63-1", "set bigint.unsigned.handling.mode=precise on the connector");
        }
    }

    /** Connect types of floating-point values: Connect's names, and the JsonConverter's "float" and "double". */
    private static final Set<String> FLOATING_CONNECT_TYPES = Set.of("float64", "float32", "double", "float");

    private static String decimal(SourceTable table, SourceColumn column, String base) {
        if (column.connectType() != null && FLOATING_CONNECT_TYPES.contains(column.connectType())) {
            throw new UnmappableColumnException(table, column, column.sourceType(),
                    "arrives as a floating-point number (Debezium's decimal.handling.mode=double), which rounds"
                    + " digits", "set decimal.handling.mode=precise or string on the connector");
        }
        Integer precision = column.length();
        int scale = column.scale() == null ? 0 : column.scale();
        if (precision == null) {
            throw new UnmappableColumnException(table, column, column.sourceType(),
                    "has no precision, so its values may have any number of digits",
                    "give it a precision in the source (" + base
                    + "(p,s)), or choose the DECIMAL(p,s) its values fit");
        }
        return decimal(table, column, column.sourceType(), precision, scale);
    }

    /** @return {@code DECIMAL(p,s)}, refusing what StarRocks' DECIMAL cannot hold */
    static String decimal(SourceTable table, SourceColumn column, String type, int precision, int scale) {
        if (precision > DECIMAL_MAX_PRECISION) {
            throw new UnmappableColumnException(table, column, type + "(" + precision + "," + scale + ")",
                    "has more than the 38 digits a StarRocks DECIMAL holds",
                    "narrow it in the source if its values fit");
        }
        if (scale < 0 || scale > precision || precision < 1) {
            throw new UnmappableColumnException(table, column, type + "(" + precision + "," + scale + ")",
                    "has a scale outside 0.." + precision + ", which a StarRocks DECIMAL cannot have",
                    "change it in the source");
        }
        return "DECIMAL(" + precision + "," + scale + ")";
    }
}
