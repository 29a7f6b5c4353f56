package io.lockstep.app.create;

/**
 * The StarRocks type of a column known only by its Kafka Connect schema (a Debezium event with
 * {@code schemas.enable=true} and without {@code column.propagate.source.type}): the Connect type and Debezium's
 * semantic type name, as Debezium's connector docs list them ("data type mappings", e.g.
 * https://debezium.io/documentation/reference/stable/connectors/postgresql.html#postgresql-data-types), and the value
 * the load path makes of it (app/event/DebeziumValues). Lengths are unknown here, so text becomes STRING.
 */
final class ConnectColumnType {

    private ConnectColumnType() {
    }

    /**
     * @return the StarRocks type
     * @throws UnmappableColumnException for encodings the load path cannot carry or that do not hold every value
     */
    static String of(SourceTable table, SourceColumn column) {
        String name = column.semanticType();
        String type = column.connectType();
        String described = type + (name == null ? "" : " " + name);
        if (name != null) {
            switch (name) {
                case "io.debezium.time.Date", "org.apache.kafka.connect.data.Date":
                    return "DATE";
                case "io.debezium.time.Time", "io.debezium.time.MicroTime", "io.debezium.time.NanoTime",
                        "org.apache.kafka.connect.data.Time", "io.debezium.time.ZonedTime":
                    return StarRocksColumnType.TIME_TEXT;
                case "io.debezium.time.Timestamp", "io.debezium.time.MicroTimestamp",
                        "io.debezium.time.NanoTimestamp", "org.apache.kafka.connect.data.Timestamp",
                        "io.debezium.time.ZonedTimestamp":
                    return "DATETIME";
                case "io.debezium.time.Year":
                    return "SMALLINT";
                case "io.debezium.time.Interval":
                    return "VARCHAR(64)";
                case "io.debezium.time.MicroDuration":
                    throw new UnmappableColumnException(table, column, described, "is an interval in microseconds,"
                            + " which Debezium approximates (a month as 30.4375 days)", "set"
                            + " interval.handling.mode=string on the connector");
                case "org.apache.kafka.connect.data.Decimal":
                    return decimal(table, column, described);
                case "io.debezium.data.VariableScaleDecimal":
                    throw new UnmappableColumnException(table, column, described, "has no precision, so its values"
                            + " may have any number of digits", "give it a precision in the source (numeric(p,s))");
                case "io.debezium.data.Json":
                    return "JSON";
                case "io.debezium.data.Uuid":
                    return "VARCHAR(36)";
                case "io.debezium.data.Enum":
                    return EnumColumnType.of(column, false);
                case "io.debezium.data.EnumSet":
                    return EnumColumnType.of(column, true);
                case "io.debezium.data.Bits":
                    throw new UnmappableColumnException(table, column, described, "is a bit string the load path"
                            + " cannot carry", "convert it in the source (e.g. a generated text column)");
                default:
                    if (name.startsWith("io.debezium.data.geometry.")) {
                        throw new UnmappableColumnException(table, column, described,
                                "is a geometry, which StarRocks has no type for", "exclude it (column.exclude.list)");
                    }
                    break;
            }
        }
        switch (type) {
            case "int8":
                return "TINYINT";
            case "int16":
                return "SMALLINT";
            case "int32":
                return "INT";
            case "int64":
                return "BIGINT";
            case "float32", "float": // Kafka's JsonConverter names FLOAT32 "float" in the schema it writes
                return "FLOAT";
            case "float64", "double": // and FLOAT64 "double" (org.apache.kafka.connect.json.JsonSchema)
                return "DOUBLE";
            case "boolean":
                return "BOOLEAN";
            case "string":
                return "STRING";
            case "array":
                if (name == null) {
                    return ArrayColumnType.ofConnect(table, column);
                }
                break;
            case "bytes":
                if (name == null) {
                    throw new UnmappableColumnException(table, column, described, "is binary, which loads as"
                            + " Debezium's base64 (or hex) text, not as the bytes", "exclude it"
                            + " (column.exclude.list), or keep that text in a STRING");
                }
                break;
            default:
                break;
        }
        throw new UnmappableColumnException(table, column, described, "has an encoding the load path cannot carry",
                "exclude it (column.exclude.list) or convert it in the source");
    }

    private static String decimal(SourceTable table, SourceColumn column, String described) {
        String precision = column.parameters().get("connect.decimal.precision");
        String scale = column.parameters().get("scale");
        if (precision == null) {
            throw new UnmappableColumnException(table, column, described, "has no precision"
                    + " (connect.decimal.precision), so its values may have any number of digits",
                    "give it a precision in the source");
        }
        try {
            return StarRocksColumnType.decimal(table, column, "decimal", Integer.parseInt(precision),
                    scale == null ? 0 : Integer.parseInt(scale));
        } catch (NumberFormatException e) {
            throw new UnmappableColumnException(table, column, described, "has a precision or scale that is not a"
                    + " number", "check the connector");
        }
    }
}
