package io.lockstep.emulator.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The one Jackson mapper of the server: pretty-printed output, insertion-ordered objects, DECIMAL scale kept
 * (801.50 stays 801.50).
 */
public final class JsonText {
    /** Shared, thread-safe after configuration. */
    public static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES).build();

    private JsonText() {
    }

    /** A new empty JSON object; keys keep insertion order. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Pretty-printed text of a JSON value. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }
}
