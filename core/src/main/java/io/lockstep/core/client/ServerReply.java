package io.lockstep.core.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A decoded StarRocks reply. JSON keys are matched case-insensitively
 * (docs/protocol.md#what-the-official-starrocks-connector-does): the FE's {@code TransactionResult} says
 * {@code Status}/{@code Message}, the BE and classic load use the same capitalised keys, REST results and
 * {@code get_load_state} say {@code status}/{@code msg}/{@code message} (docs/protocol.md#status-values). A reply whose
 * body is not a JSON object is kept as such ({@link #isJson()} false) and described by its first bytes.
 */
final class ServerReply {
    private static final int PREVIEW_CHARS = 200;
    /**
     * Reads the replies' flat JSON objects token by token (jackson-core): a reply's fields are read as text, so no
     * tree model is needed, and a sink that only loads never loads Jackson's databind classes. Thread-safe, shared.
     */
    private static final JsonFactory JSON = new JsonFactory();

    private final int httpStatus;
    private final URI uri;
    /** Top-level fields as text, keys case-insensitive; null when the body is not a JSON object. */
    private final Map<String, String> fields;
    private final String bodyPreview;

    private ServerReply(int httpStatus, URI uri, Map<String, String> fields, String bodyPreview) {
        this.httpStatus = httpStatus;
        this.uri = uri;
        this.fields = fields;
        this.bodyPreview = bodyPreview;
    }

    /**
     * Decodes a raw reply; never throws: a body that is not a JSON object gives {@code isJson() == false}. Each
     * top-level field is kept as text, as Jackson's tree gave it ({@code JsonNode#asText}): strings as they are,
     * numbers and booleans in their canonical form, {@code null} as absent, an object or array as "". Of two keys
     * equal but for case the first wins; of two equal keys, the later value (as in a tree). Content after the object
     * is ignored, as the tree reader did.
     */
    static ServerReply decode(StarRocksHttp.HttpReply raw) {
        Map<String, String> fields = null;
        if (raw.body().length > 0) {
            try {
                fields = fields(raw.body());
            } catch (IOException e) {
                fields = null;
            }
        }
        return new ServerReply(raw.statusCode(), raw.uri(), fields, raw.preview(PREVIEW_CHARS));
    }

    /** The top-level fields of a JSON object as text, keys case-insensitive; null if {@code body} is no object. */
    private static Map<String, String> fields(byte[] body) throws IOException {
        Map<String, String> exact = new LinkedHashMap<>();
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                String name = parser.currentName();
                exact.put(name, text(parser, parser.nextToken()));
            }
            if (parser.currentToken() != JsonToken.END_OBJECT) {
                return null; // cut off inside the object
            }
        }
        Map<String, String> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, String> field : exact.entrySet()) {
            if (!fields.containsKey(field.getKey())) {
                fields.put(field.getKey(), field.getValue());
            }
        }
        return fields;
    }

    /** One value as {@code JsonNode#asText} gives it; null for JSON null; skips an object or array. */
    private static String text(JsonParser parser, JsonToken value) throws IOException {
        if (value == null) {
            throw new IOException("the reply ends inside an object");
        }
        switch (value) {
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
                return parser.getNumberValue().toString();
            case VALUE_NUMBER_FLOAT:
                return Double.toString(parser.getDoubleValue());
            case VALUE_TRUE:
                return "true";
            case VALUE_FALSE:
                return "false";
            case VALUE_NULL:
                return null;
            default: // START_OBJECT or START_ARRAY
                parser.skipChildren();
                return "";
        }
    }

    int httpStatus() {
        return httpStatus;
    }

    /** The URL that produced the reply (after redirects). */
    URI uri() {
        return uri;
    }

    boolean isJson() {
        return fields != null;
    }

    /** {@code Status}/{@code status}, or null when absent. */
    String status() {
        return text("status");
    }

    /** True for HTTP 200 with {@code Status} equal to one of {@code allowed} (case-insensitive). */
    boolean statusIn(String... allowed) {
        String status = status();
        if (httpStatus != 200 || status == null) {
            return false;
        }
        for (String candidate : allowed) {
            if (candidate.equalsIgnoreCase(status.trim())) {
                return true;
            }
        }
        return false;
    }

    /** {@code Message}/{@code message}, else {@code msg}; "" when absent. */
    String message() {
        String message = text("message");
        if (message == null || message.isEmpty()) {
            message = text("msg");
        }
        return message == null ? "" : message;
    }

    /** A field as text (case-insensitive key), or null when absent or JSON null. */
    String text(String key) {
        return fields == null ? null : fields.get(key);
    }

    /** A numeric field (number or numeric string), or {@code fallback}. */
    long number(String key, long fallback) {
        String value = text(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** One line for error messages: URL, HTTP status, then Status and Message, or the first bytes when not JSON. */
    String describe() {
        if (!isJson()) {
            return "HTTP " + httpStatus + " from " + uri + " with a non-JSON body, first bytes: '" + bodyPreview + "'";
        }
        return "HTTP " + httpStatus + " from " + uri + ": Status '" + status() + "', Message '" + message() + "'";
    }
}
