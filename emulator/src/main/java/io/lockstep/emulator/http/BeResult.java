package io.lockstep.emulator.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The BE's transaction reply vocabulary ({@code StreamLoadContext::to_resp_json}, docs/protocol.md#status-values). Key
 * order: {@code Status} (a TStatusCode name), then {@code ExistingJobStatus} only for LABEL_ALREADY_EXISTS or
 * {@code Label} only for TXN_IN_PROCESSING, then {@code Message}, then, only on success, the per-op fields, and finally
 * {@code ErrorURL} when an error log was written.
 */
public final class BeResult {
    // TStatusCode names the BE writes in Status (gensrc/thrift/StatusCode.thrift).
    public static final String OK = "OK";
    public static final String LABEL_ALREADY_EXISTS = "LABEL_ALREADY_EXISTS";
    public static final String TXN_NOT_EXISTS = "TXN_NOT_EXISTS";
    public static final String TXN_IN_PROCESSING = "TXN_IN_PROCESSING";
    public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";
    public static final String INTERNAL_ERROR = "INTERNAL_ERROR";
    public static final String ANALYSIS_ERROR = "ANALYSIS_ERROR";
    public static final String ABORTED = "ABORTED";
    public static final String PUBLISH_TIMEOUT = "PUBLISH_TIMEOUT";

    private final String status;
    private final String message;
    private String label = "";
    private String existingJobStatus = "";
    private final Map<String, Object> opFields = new LinkedHashMap<>();
    private String errorUrl;

    private BeResult(String status, String message) {
        this.status = status;
        this.message = message;
    }

    /** Success; per-op fields follow with {@link #field}. */
    public static BeResult ok() {
        return new BeResult(OK, "");
    }

    /** A non-OK status with its message. */
    public static BeResult error(String status, String message) {
        return new BeResult(status, message);
    }

    /** Label, written after Status for TXN_IN_PROCESSING and as the first op field on success. */
    public BeResult label(String value) {
        this.label = value == null ? "" : value;
        return this;
    }

    /** {@code ExistingJobStatus}, written only for LABEL_ALREADY_EXISTS. */
    public BeResult existingJobStatus(String value) {
        this.existingJobStatus = value == null ? "" : value;
        return this;
    }

    /** A per-op field (written only on success, after {@code Label}). */
    public BeResult field(String key, Object value) {
        opFields.put(key, value);
        return this;
    }

    /** {@code ErrorURL}, written last whenever set (success or not). */
    public BeResult errorUrl(String url) {
        this.errorUrl = url;
        return this;
    }

    public String status() {
        return status;
    }

    public String message() {
        return message;
    }

    /** HTTP 200 with the pretty-printed body in the BE's key order. */
    public Reply reply() {
        ObjectNode json = JsonText.object();
        json.put("Status", status);
        if (LABEL_ALREADY_EXISTS.equals(status)) {
            json.put("ExistingJobStatus", existingJobStatus);
        } else if (TXN_IN_PROCESSING.equals(status)) {
            json.put("Label", label);
        }
        json.put("Message", message);
        if (OK.equals(status)) {
            json.put("Label", label);
            opFields.forEach((k, v) -> json.set(k, JsonText.MAPPER.valueToTree(v)));
        }
        if (errorUrl != null) {
            json.put("ErrorURL", errorUrl);
        }
        return Reply.json(JsonText.write(json));
    }
}
