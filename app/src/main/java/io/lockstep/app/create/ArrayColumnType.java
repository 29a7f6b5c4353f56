package io.lockstep.app.create;

import java.util.Set;

/**
 * The StarRocks type of an array column: JSON, whose values stay JSON arrays, when every element loads as it is (plain
 * numbers, booleans, text, uuids, enum labels); an array of elements the load path converts one by one (dates,
 * timestamps, decimals, JSON documents, bytes) is refused, since the array would hold the raw encodings.
 */
final class ArrayColumnType {

    /** PostgreSQL element types (udt names without the leading {@code _}) whose values Debezium sends as they are. */
    private static final Set<String> NATIVE_ELEMENTS = Set.of("int2", "int4", "int8", "float4", "float8", "bool",
            "text", "varchar", "bpchar", "char", "citext", "name", "uuid", "smallint", "integer", "int", "bigint",
            "real", "double precision", "boolean", "character varying", "character");
    /** Connect element types that load as they are (JsonConverter writes FLOAT32/FLOAT64 as "float"/"double"). */
    private static final Set<String> CONNECT_ELEMENTS = Set.of("int8", "int16", "int32", "int64", "float32",
            "float64", "float", "double", "boolean", "string");
    /** Semantic types of elements whose values are the text as it is. */
    private static final Set<String> PLAIN_NAMES = Set.of("io.debezium.data.Uuid", "io.debezium.data.Enum");
    /** The parameters create's Debezium schema reader puts the element schema in (DebeziumSourceSchema). */
    static final String ITEMS_TYPE = "items.type";
    static final String ITEMS_NAME = "items.name";

    private ArrayColumnType() {
    }

    /**
     * @param element the native element type, e.g. {@code int4} of PostgreSQL's {@code _int4}
     * @return {@code JSON}, or {@code null} when the element type is not a plain one and the Connect schema is there
     *     to decide (its element type and name)
     * @throws UnmappableColumnException for any other element type without a Connect schema
     */
    static String ofNative(SourceTable table, SourceColumn column, String element) {
        if (NATIVE_ELEMENTS.contains(element)) {
            return "JSON";
        }
        if (column.connectType() != null) {
            return null;
        }
        throw refused(table, column, column.sourceType());
    }

    /** @return {@code JSON} for an array whose Connect element type loads as it is */
    static String ofConnect(SourceTable table, SourceColumn column) {
        String itemsType = column.parameters().get(ITEMS_TYPE);
        String itemsName = column.parameters().get(ITEMS_NAME);
        if (itemsType != null && CONNECT_ELEMENTS.contains(itemsType)
                && (itemsName == null || PLAIN_NAMES.contains(itemsName))) {
            return "JSON";
        }
        String element = itemsType == null ? "unknown elements"
                : itemsType + (itemsName == null ? "" : " " + itemsName);
        throw refused(table, column, "array of " + element);
    }

    private static UnmappableColumnException refused(SourceTable table, SourceColumn column, String type) {
        return new UnmappableColumnException(table, column, type, "is an array of values the load path converts"
                + " one by one (only arrays of numbers, booleans, text and uuids load as JSON arrays)",
                "exclude it (column.exclude.list)");
    }
}
