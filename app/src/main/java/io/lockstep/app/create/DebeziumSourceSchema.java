package io.lockstep.app.create;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a source table's shape from the Kafka Connect schema a Debezium data change event carries when the JSON
 * converter runs with {@code schemas.enable=true}: {@code {"schema": {"type":"struct", "fields": [{"field":"before",
 * ...}, {"field":"after", "type":"struct", "fields": [...]}, {"field":"source", ...}, ...]}, "payload": {...}}}
 * (Kafka's {@code org.apache.kafka.connect.json.JsonConverter#asJsonSchema}; Debezium's event layout:
 * debezium.io/documentation/reference/stable/connectors/postgresql.html#postgresql-change-events-value).
 *
 * <p>Each field of the {@code after} struct (else of {@code before}, for a delete) becomes a {@link SourceColumn}:
 * <ul>
 *   <li>{@code field} is the name, {@code type} the {@link SourceColumn#connectType() connect type}, {@code name}
 *       (e.g. {@code io.debezium.time.MicroTimestamp}) the {@link SourceColumn#semanticType() semantic type}, and
 *       {@code optional} whether the column is {@link SourceColumn#nullable() nullable};
 *   <li>{@code parameters} are kept as they are (e.g. {@code allowed} of {@code io.debezium.data.Enum},
 *       {@code scale} and {@code connect.decimal.precision} of {@code org.apache.kafka.connect.data.Decimal});
 *   <li>with the connector's {@code column.propagate.source.type} (or {@code datatype.propagate.source.type}) the
 *       parameters {@code __debezium.source.column.type}, {@code __debezium.source.column.length} and
 *       {@code __debezium.source.column.scale} give the native type, lower-cased ({@code varchar}, {@code int4},
 *       {@code int unsigned}), its length and its scale (Debezium's {@code PropagateSourceTypeToSchemaParameter}).
 *       Debezium reports the JDBC column size there, which is not what {@link SourceColumn#length()} means, so it is
 *       brought to the meaning {@link JdbcSourceCatalog} gives the same column (pinned against the PostgreSQL catalog
 *       by e2e's {@code JdbcSourceCatalogPostgresIT}). PostgreSQL connector ({@code source} schema
 *       {@code io.debezium.connector.postgresql.Source}): a length is kept only for {@code varchar}, {@code bpchar},
 *       {@code bit}, {@code varbit} (not the unbounded {@code 2147483647}) and {@code numeric} (not {@code 0}, a
 *       {@code numeric} without precision); of {@code time}, {@code timetz}, {@code timestamp}, {@code timestamptz}
 *       and {@code interval} the fractional-second digits, which Debezium reports as scale, become the length; every
 *       other type has neither length nor scale (Debezium's {@code 10} of {@code int4} is a display size). A
 *       user-defined type with {@code io.debezium.data.Enum} becomes {@code enum} (its name kept as parameter
 *       {@code udt_name}, the longest label as length); any other type that is not built in (a domain, which
 *       Debezium names instead of its base type, or an extension's type such as {@code citext}) has no source type
 *       (its name kept as {@code udt_name}): its Connect schema, derived from the base type, describes it. MySQL
 *       connector: text and blob kinds have no length; an
 *       {@code enum} or {@code set} has its longest label (all labels joined by commas for a set) as length;
 *       only decimal and floating-point types keep a scale; {@code zerofill} is dropped from the type name;
 *   <li>an {@code array} field's element schema is described by the parameters {@code items.type} and, when the
 *       element has a semantic type, {@code items.name}; a {@code map} field's value by {@code values.type}.
 * </ul>
 */
public final class DebeziumSourceSchema {

    /** Parameter names Debezium uses with {@code column.propagate.source.type}. */
    static final String SOURCE_TYPE = "__debezium.source.column.type";
    static final String SOURCE_LENGTH = "__debezium.source.column.length";
    static final String SOURCE_SCALE = "__debezium.source.column.scale";
    private static final String CONNECTOR_PREFIX = "io.debezium.connector.";
    private static final String ENUM = "io.debezium.data.Enum";
    /** PostgreSQL's built-in types (www.postgresql.org/docs/current/datatype.html), as {@code udt_name} spells them. */
    private static final Set<String> POSTGRES_BUILT_IN_TYPES = Set.of("bool", "bytea", "char", "name", "int2", "int4",
            "int8", "text", "oid", "json", "jsonb", "xml", "point", "line", "lseg", "path", "box", "polygon", "circle",
            "float4", "float8", "money", "macaddr", "macaddr8", "inet", "cidr", "bpchar", "varchar", "date", "time",
            "timetz", "timestamp", "timestamptz", "interval", "bit", "varbit", "numeric", "uuid", "tsvector", "tsquery",
            "pg_lsn", "int4range", "int8range", "numrange", "tsrange", "tstzrange", "daterange", "xid", "xid8");
    private static final Set<String> POSTGRES_LENGTH_TYPES = Set.of("varchar", "bpchar", "bit", "varbit");
    private static final Set<String> POSTGRES_TEMPORAL_TYPES =
            Set.of("time", "timetz", "timestamp", "timestamptz", "interval");
    /** Parameters this reader adds for an array's element and a map's value schema. */
    public static final String ITEMS_TYPE = "items.type";
    public static final String ITEMS_NAME = "items.name";
    public static final String VALUES_TYPE = "values.type";

    private DebeziumSourceSchema() {
    }

    /**
     * @param envelopeSchema the event's top-level {@code "schema"} (the JSON converter's envelope), or {@code null}
     * @param database the source database (MySQL) or schema (PostgreSQL) the event names
     * @param table the source table the event names
     * @param keyColumns the primary key's columns in key order (the fields of the Kafka record key, see
     *     {@link #keyColumns(JsonNode)}); empty for a table without a key
     * @return the table's shape, or {@code null} when the event carries no schema ({@code schemas.enable=false}:
     *     {@code envelopeSchema} is {@code null} or JSON null)
     * @throws IllegalArgumentException when the schema is there but describes neither an {@code after} nor a
     *     {@code before} struct with fields, or a field lacks its name or type; the message names {@code db.table}
     */
    public static SourceTable read(JsonNode envelopeSchema, String database, String table, List<String> keyColumns) {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(keyColumns, "keyColumns");
        if (envelopeSchema == null || envelopeSchema.isNull() || envelopeSchema.isMissingNode()) {
            return null;
        }
        String where = database + "." + table;
        JsonNode row = fieldSchema(envelopeSchema, "after");
        if (row == null) {
            row = fieldSchema(envelopeSchema, "before");
        }
        if (row == null) {
            throw new IllegalArgumentException("the event schema of " + where
                    + " describes no 'after' or 'before' struct with fields: not a Debezium data change event");
        }
        String connector = connector(envelopeSchema);
        List<SourceColumn> columns = new ArrayList<>();
        for (JsonNode field : row.get("fields")) {
            columns.add(column(field, connector, where));
        }
        for (String key : keyColumns) {
            if (columns.stream().noneMatch(c -> c.name().equals(key))) {
                throw new IllegalArgumentException("the key column '" + key + "' of " + where
                        + " is not a field of the event schema");
            }
        }
        return new SourceTable(database, table, columns, keyColumns);
    }

    /**
     * The primary key's columns of a table, from the Kafka record key: Debezium's key struct holds the key columns in
     * key order (debezium.io/documentation/reference/stable/connectors/postgresql.html#postgresql-change-event-keys),
     * and the JSON converter writes a struct's fields in schema order.
     *
     * @param key the parsed record key: with {@code key.converter.schemas.enable=true} the envelope
     *     {@code {"schema":..., "payload":...}} (the schema's field names are taken) or its {@code "schema"} alone,
     *     without it the key object itself (its field names are taken); or {@code null}
     * @return the key columns in key order; empty when the record has no key (a table without a primary key)
     */
    public static List<String> keyColumns(JsonNode key) {
        List<String> names = new ArrayList<>();
        if (key == null || !key.isObject()) {
            return names;
        }
        JsonNode schema = key.has("schema") && key.has("payload") && key.size() == 2 ? key.get("schema") : key;
        if ("struct".equals(schema.path("type").asText()) && schema.path("fields").isArray()) {
            for (JsonNode field : schema.get("fields")) {
                JsonNode name = field.get("field");
                if (name != null && name.isTextual()) {
                    names.add(name.asText());
                }
            }
            return names;
        }
        schema.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** @return the struct schema of the envelope's field {@code name}, or {@code null} */
    private static JsonNode fieldSchema(JsonNode envelopeSchema, String name) {
        JsonNode fields = envelopeSchema.get("fields");
        if (fields == null || !fields.isArray()) {
            return null;
        }
        for (JsonNode field : fields) {
            if (name.equals(field.path("field").asText()) && "struct".equals(field.path("type").asText())
                    && field.path("fields").isArray()) {
                return field;
            }
        }
        return null;
    }

    /**
     * @return the connector's short name from the {@code source} block's schema name
     *     ({@code io.debezium.connector.postgresql.Source}: {@code postgresql}), or {@code ""}
     */
    private static String connector(JsonNode envelopeSchema) {
        for (JsonNode field : envelopeSchema.get("fields")) {
            String name = field.path("name").asText("");
            if ("source".equals(field.path("field").asText()) && name.startsWith(CONNECTOR_PREFIX)) {
                int end = name.indexOf('.', CONNECTOR_PREFIX.length());
                return end < 0 ? "" : name.substring(CONNECTOR_PREFIX.length(), end);
            }
        }
        return "";
    }

    private static SourceColumn column(JsonNode field, String connector, String where) {
        String name = field.path("field").asText(null);
        String type = field.path("type").asText(null);
        if (name == null || type == null || !field.path("field").isTextual() || !field.path("type").isTextual()) {
            throw new IllegalArgumentException("a field of the event schema of " + where + " lacks its 'field' name or"
                    + " its 'type': " + field.path("field"));
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        JsonNode given = field.get("parameters");
        if (given != null && given.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = given.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                parameters.put(p.getKey(), p.getValue().asText());
            }
        }
        if ("array".equals(type)) {
            putElement(parameters, ITEMS_TYPE, ITEMS_NAME, field.get("items"));
        } else if ("map".equals(type)) {
            putElement(parameters, VALUES_TYPE, null, field.get("values"));
        }
        String semanticType = field.path("name").isTextual() ? field.get("name").asText() : null;
        String sourceType = parameters.get(SOURCE_TYPE);
        Integer length = integer(parameters.get(SOURCE_LENGTH), name, SOURCE_LENGTH, where);
        Integer scale = integer(parameters.get(SOURCE_SCALE), name, SOURCE_SCALE, where);
        if (sourceType != null) {
            sourceType = sourceType.toLowerCase(Locale.ROOT);
            NativeType propagated = switch (connector) {
                case "postgresql" -> postgres(sourceType, length, scale, semanticType, parameters);
                case "mysql", "mariadb" -> mysql(sourceType, length, scale, parameters);
                default -> null;
            };
            if (propagated != null) {
                sourceType = propagated.type();
                length = propagated.length();
                scale = propagated.scale();
            }
        }
        return new SourceColumn(name, sourceType, length, scale, field.path("optional").asBoolean(false), type,
                semanticType, parameters);
    }

    /** A native type as {@link SourceColumn} means it: name, length, scale. */
    private record NativeType(String type, Integer length, Integer scale) {
    }

    /** @return the type, length and scale the PostgreSQL catalog gives the column */
    private static NativeType postgres(String sourceType, Integer length, Integer scale, String semanticType,
            Map<String, String> parameters) {
        String type = sourceType;
        Integer newLength = null;
        Integer newScale = null;
        if (ENUM.equals(semanticType)) {
            parameters.put("udt_name", sourceType);
            type = "enum";
            newLength = longestLabel(parameters.get("allowed"));
        } else if (!POSTGRES_BUILT_IN_TYPES.contains(
                sourceType.startsWith("_") ? sourceType.substring(1) : sourceType)) {
            // a domain (Debezium names the domain, not its base type) or an extension's type: the Connect schema,
            // which Debezium derives from the base type, is all that is known
            parameters.put("udt_name", sourceType);
            return new NativeType(null, null, null);
        } else if (POSTGRES_LENGTH_TYPES.contains(sourceType)) {
            newLength = length == null || length == Integer.MAX_VALUE ? null : length;
        } else if ("numeric".equals(sourceType) && length != null && length > 0) {
            newLength = length;
            newScale = scale;
        } else if (POSTGRES_TEMPORAL_TYPES.contains(sourceType)) {
            newLength = scale;
        }
        return new NativeType(type, newLength, newScale);
    }

    /** @return the type, length and scale the MySQL catalog gives the column */
    private static NativeType mysql(String sourceType, Integer length, Integer scale, Map<String, String> parameters) {
        String type = sourceType.replace(" zerofill", "");
        Integer newLength = length;
        if (type.endsWith("text") || type.endsWith("blob")) {
            newLength = null;
        } else if ("enum".equals(type)) {
            newLength = longestLabel(parameters.get("allowed"));
        } else if ("set".equals(type) && parameters.get("allowed") != null) {
            newLength = parameters.get("allowed").codePointCount(0, parameters.get("allowed").length());
        }
        boolean scaled = type.startsWith("decimal") || type.startsWith("numeric") || type.startsWith("float")
                || type.startsWith("double") || type.startsWith("real");
        return new NativeType(type, newLength, scaled ? scale : null);
    }

    private static Integer longestLabel(String allowed) {
        if (allowed == null) {
            return null;
        }
        int longest = 0;
        for (String label : allowed.split(",", -1)) {
            longest = Math.max(longest, label.codePointCount(0, label.length()));
        }
        return longest;
    }

    private static void putElement(Map<String, String> parameters, String typeKey, String nameKey, JsonNode element) {
        if (element == null || !element.isObject()) {
            return;
        }
        if (element.path("type").isTextual()) {
            parameters.put(typeKey, element.get("type").asText());
        }
        if (nameKey != null && element.path("name").isTextual()) {
            parameters.put(nameKey, element.get("name").asText());
        }
    }

    /**
     * Debezium writes lengths as decimal text; a length beyond {@code int} (PostgreSQL reports no such lengths, MySQL's
     * LONGTEXT is 4294967295 bytes) is kept as {@link Integer#MAX_VALUE}, which every mapping reads as unbounded.
     */
    private static Integer integer(String text, String column, String parameter, String where) {
        if (text == null) {
            return null;
        }
        try {
            long value = Long.parseLong(text.trim());
            return (int) Math.min(value, Integer.MAX_VALUE);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the event schema of " + where + " gives column '" + column + "' the "
                    + parameter + " '" + text + "', not a number");
        }
    }
}
