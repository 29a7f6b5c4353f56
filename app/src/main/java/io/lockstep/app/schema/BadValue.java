package io.lockstep.app.schema;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A value of a sink row that does not fit its target column ({@link ValueRules}). Immutable.
 *
 * @param column the column, as the row names it
 * @param value the value's text, cut to {@link #MAX_VALUE_CHARS} characters (for the dead letter; never logged on
 *     its own)
 * @param reason why it does not fit, e.g. {@code is not an integer (column type bigint(20))}
 */
public record BadValue(String column, String value, String reason) {

    /** Longest value text kept; longer text ends with {@code ...(N chars)}. */
    public static final int MAX_VALUE_CHARS = 64;

    /** Reads numbers as written (the stream load reads a JSON number's digits, not a double's). */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final Set<String> LOAD_KEYS = Set.of("__op", "__doris_delete_sign__");

    /**
     * @param row a sink row, a JSON object
     * @param columns the target table's columns by lower-case name ({@link TargetColumns#of})
     * @return the row's first value that does not fit its column, or {@code null}; keys the table lacks are the
     *     column check's concern, not this one. A delete row ({@code "__op": 1}) may carry NULL in NOT NULL columns
     *     (a PostgreSQL before-image with the default replica identity holds only the key): only its non-NULL values
     *     are checked
     * @throws IllegalArgumentException if {@code row} is not a JSON object
     */
    public static BadValue firstIn(String row, Map<String, TargetColumn> columns) {
        JsonNode node;
        try {
            node = MAPPER.readTree(row);
        } catch (IOException e) {
            throw new IllegalArgumentException("a row is not valid JSON: " + e.getMessage(), e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a row must be a JSON object");
        }
        JsonNode op = node.get("__op");
        boolean delete = op != null && "1".equals(op.asText());
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            TargetColumn column = columns.get(TargetColumn.named(field.getKey()).name());
            if (column == null || LOAD_KEYS.contains(column.name()) || (delete && field.getValue().isNull())) {
                continue;
            }
            String reason = ValueRules.violation(column, field.getValue());
            if (reason != null) {
                return new BadValue(field.getKey(), cut(field.getValue()), reason);
            }
        }
        return null;
    }

    /** Whether any of {@code columns} has a rule to check (a known type, or NOT NULL). */
    public static boolean anyChecked(Map<String, TargetColumn> columns) {
        for (TargetColumn column : columns.values()) {
            if (column.type() != null || !column.nullable()) {
                return true;
            }
        }
        return false;
    }

    private static String cut(JsonNode value) {
        String text = value.isTextual() ? value.textValue() : value.toString();
        return text.length() <= MAX_VALUE_CHARS ? text
                : text.substring(0, MAX_VALUE_CHARS) + "...(" + text.length() + " chars)";
    }
}
