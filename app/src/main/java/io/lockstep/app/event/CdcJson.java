package io.lockstep.app.event;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * JSON reading and writing shared by the decoders. Numbers keep their exact text (floats are read as
 * {@link java.math.BigDecimal} and written plain), so a row's values reach the sink unchanged. Error
 * messages name the field and the position, never the row content (Jackson's own messages quote input
 * tokens, so they are not passed on).
 */
final class CdcJson {

    /** Thread safe after configuration (Jackson documents ObjectMapper as such). */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    /** The column StarRocks reads the operation from: 0 upsert, 1 delete (reference, "Load to Primary Key tables"). */
    static final String OP_COLUMN = "__op";

    private CdcJson() {
    }

    /**
     * @param text JSON text
     * @param position source position for the error message
     * @param what which part of the message this is ("value", "key")
     * @return the parsed object
     * @throws BadSourceEventException when the text is not JSON or not a JSON object
     */
    static ObjectNode parseObject(String text, String position, String what) {
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + " column " + at.getColumnNr();
            throw new BadSourceEventException(position, "malformed JSON in the message " + what + where);
        }
        if (node == null || !node.isObject()) {
            throw new BadSourceEventException(position, "the message " + what + " is not a JSON object");
        }
        return (ObjectNode) node;
    }

    /**
     * @param text JSON text of any kind (object, array, scalar), e.g. a column holding a JSON document
     * @param position source position for the error message
     * @param what which value this is, for the error message
     * @return the parsed value
     * @throws BadSourceEventException when the text is not JSON
     */
    static JsonNode parseValue(String text, String position, String what) {
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new BadSourceEventException(position, "empty JSON in " + what);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new BadSourceEventException(position, "malformed JSON in " + what);
        }
    }

    /**
     * @return the Connect schema of the envelope's payload field {@code field} (e.g. {@code after}), or
     *     {@code null} when the message has no schema envelope or the schema does not describe the field
     */
    static JsonNode payloadFieldSchema(ObjectNode root, String field) {
        JsonNode schema = root.get("schema");
        if (schema == null || !root.has("payload") || root.size() != 2) {
            return null;
        }
        JsonNode fields = schema.get("fields");
        if (fields == null || !fields.isArray()) {
            return null;
        }
        for (JsonNode f : fields) {
            JsonNode name = f.get("field");
            if (name != null && field.equals(name.asText())) {
                return f;
            }
        }
        return null;
    }

    /**
     * Unwraps the Kafka Connect JSON envelope ({@code {"schema":..., "payload":...}}, converter setting
     * {@code schemas.enable=true}); a message without it is returned as is.
     *
     * @return the payload, or {@code null} when the payload is JSON {@code null}
     */
    static JsonNode unwrapEnvelope(ObjectNode root) {
        if (root.has("schema") && root.has("payload") && root.size() == 2) {
            JsonNode payload = root.get("payload");
            return payload.isNull() ? null : payload;
        }
        return root;
    }

    /** @return the field as text (strings as is, numbers in their JSON form) */
    static String requiredText(JsonNode node, String field, String position) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || !(value.isTextual() || value.isNumber())) {
            throw new BadSourceEventException(position, "missing or non-text field '" + field + "'");
        }
        return value.asText();
    }

    /** @return the field as text, or {@code null} when it is absent or JSON null */
    static String optionalText(JsonNode node, String field, String position) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!(value.isTextual() || value.isNumber())) {
            throw new BadSourceEventException(position, "field '" + field + "' is not text or a number");
        }
        return value.asText();
    }

    /** @return the field as an object */
    static ObjectNode requiredObject(JsonNode node, String field, String position) {
        JsonNode value = node.get(field);
        if (value == null || !value.isObject()) {
            throw new BadSourceEventException(position, "missing or non-object field '" + field + "'");
        }
        return (ObjectNode) value;
    }

    /** @return the field as an object, or {@code null} when absent or JSON null */
    static ObjectNode optionalObject(JsonNode node, String field, String position) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            throw new BadSourceEventException(position, "field '" + field + "' is not a JSON object");
        }
        return (ObjectNode) value;
    }

    /** @return the field as a non-negative whole number */
    static long requiredCount(JsonNode node, String field, String position) {
        JsonNode value = node.get(field);
        if (value != null && value.isTextual()) {
            try {
                value = JsonNodeFactory.instance.numberNode(Long.parseLong(value.asText()));
            } catch (NumberFormatException e) {
                value = null;
            }
        }
        if (value == null || !value.canConvertToExactIntegral() || value.asLong() < 0) {
            throw new BadSourceEventException(position, "missing or invalid count field '" + field + "'");
        }
        return value.asLong();
    }

    /** @return the field names of an object, in their order */
    static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    /** @return the upsert row: the image as JSON text */
    static String upsertRow(ObjectNode image) {
        return write(image);
    }

    /** @return the delete row: a copy of the image with {@code "__op":1} */
    static String deleteRow(ObjectNode image) {
        ObjectNode copy = image.deepCopy();
        copy.put(OP_COLUMN, 1);
        return write(copy);
    }

    private static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a parsed JSON tree back to text", e);
        }
    }
}
