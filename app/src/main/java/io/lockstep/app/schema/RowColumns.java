package io.lockstep.app.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The columns of one sink row (a JSON object, as the decoders write it) against a target table's columns. The
 * load's own keys are never columns of the table: {@code __op} (StarRocks' delete marker) and
 * {@code __DORIS_DELETE_SIGN__}.
 */
public final class RowColumns {

    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> LOAD_KEYS = Set.of("__op", "__doris_delete_sign__");

    private RowColumns() {
    }

    /**
     * Reads only the top-level keys (values are skipped, not parsed into a tree).
     *
     * @param row a JSON object
     * @param known the target's columns, lower case
     * @return the row's keys the target lacks, in row order; empty for most rows
     * @throws IllegalArgumentException if {@code row} is not a JSON object
     */
    public static List<String> unknown(String row, Set<String> known) {
        List<String> unknown = new ArrayList<>(0);
        try (JsonParser parser = JSON.createParser(row)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("a row must be a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                String lower = name.toLowerCase(Locale.ROOT);
                if (!known.contains(lower) && !LOAD_KEYS.contains(lower)) {
                    unknown.add(name);
                }
                parser.nextToken();
                parser.skipChildren();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("a row is not valid JSON: " + e.getMessage(), e);
        }
        return unknown;
    }

    /**
     * @param row a JSON object
     * @param columns keys to leave out
     * @return {@code row} without them
     */
    public static String without(String row, Collection<String> columns) {
        ObjectNode node = object(row);
        node.remove(columns);
        return node.toString();
    }

    /**
     * @param row a JSON object
     * @param column one of its keys
     * @return the key's value ({@code NullNode} for a JSON null or a missing key)
     */
    public static JsonNode value(String row, String column) {
        JsonNode value = object(row).get(column);
        return value == null ? MAPPER.nullNode() : value;
    }

    private static ObjectNode object(String row) {
        try {
            return (ObjectNode) MAPPER.readTree(row);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
