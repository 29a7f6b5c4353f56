package io.lockstep.emulator.http;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The FE's generic REST vocabulary ({@code RestBaseResult}, docs/protocol.md#labels-and-label-state): lowercase keys
 * {@code status} ("OK"/"FAILED"), {@code code} ("0"/"1"), {@code msg}, {@code message}. Used by get_load_state,
 * _cancel, 401 replies and generic REST errors.
 */
public final class RestResult {
    private RestResult() {
    }

    /** Success body, after any subclass fields already put into {@code fields}. */
    public static Reply ok(ObjectNode fields) {
        fields.put("status", "OK");
        fields.put("code", "0");
        fields.put("msg", "Success");
        fields.put("message", "OK");
        return Reply.json(JsonText.write(fields));
    }

    /** {@code {"status":"OK","code":"0","msg":"Success","message":"OK"}}. */
    public static Reply ok() {
        return ok(JsonText.object());
    }

    /** Failure body with HTTP 200. */
    public static Reply failed(String message) {
        return failed(200, message);
    }

    /** Failure body with the given HTTP status. */
    public static Reply failed(int httpStatus, String message) {
        ObjectNode json = JsonText.object();
        json.put("status", "FAILED");
        json.put("code", "1");
        json.put("msg", message);
        json.put("message", message);
        return Reply.json(httpStatus, JsonText.write(json));
    }

    /** 401 with {@code WWW-Authenticate: Basic realm=""} (StarRocks FE {@code RestBaseAction}). */
    public static Reply unauthorized(String message) {
        return failed(401, message).withHeader("WWW-Authenticate", "Basic realm=\"\"");
    }
}
