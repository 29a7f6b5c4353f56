package io.lockstep.core.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
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
     * The one JSON mapper of the HTTP clients (replies, the SQL API's requests and rows, Doris' schema): never
     * configured after construction, so thread-safe (Jackson's {@code ObjectMapper} contract), and shared, so a client
     * (one per sink subtask) neither builds its own nor warms its own deserializer caches.
     */
    static final ObjectMapper JSON = new ObjectMapper();

    private final int httpStatus;
    private final URI uri;
    private final Map<String, JsonNode> fields;
    private final String bodyPreview;

    private ServerReply(int httpStatus, URI uri, Map<String, JsonNode> fields, String bodyPreview) {
        this.httpStatus = httpStatus;
        this.uri = uri;
        this.fields = fields;
        this.bodyPreview = bodyPreview;
    }

    /** Decodes a raw reply; never throws: a body that is not a JSON object gives {@code isJson() == false}. */
    static ServerReply decode(StarRocksHttp.HttpReply raw) {
        Map<String, JsonNode> fields = null;
        if (raw.body().length > 0) {
            try {
                JsonNode root = JSON.readTree(raw.body());
                if (root != null && root.isObject()) {
                    fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                    for (Map.Entry<String, JsonNode> field : root.properties()) {
                        fields.putIfAbsent(field.getKey(), field.getValue());
                    }
                }
            } catch (IOException e) {
                fields = null;
            }
        }
        return new ServerReply(raw.statusCode(), raw.uri(), fields, raw.preview(PREVIEW_CHARS));
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
        if (fields == null) {
            return null;
        }
        JsonNode node = fields.get(key);
        return node == null || node.isNull() ? null : node.asText();
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
