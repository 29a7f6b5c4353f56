package io.lockstep.emulator.doris;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;

/**
 * The Doris FE's REST reply shapes (docs/protocol.md#doris-replies; FE {@code ResponseEntityBuilder},
 * {@code RestBaseResult}): the envelope {@code {"msg","code","data","count"}} with HTTP 200 even for errors (code 0 ok,
 * 1 error, 401 unauthorized, 403 bad request, 404 not found), and the legacy {@code {"status":"FAILED","msg":...}} of
 * the load actions' pre-checks.
 */
final class DorisRestResult {
    private DorisRestResult() {
    }

    /** {@code {"msg":"success","code":0,"data":data,"count":0}}. */
    static Reply ok(JsonNode data) {
        return envelope(200, "success", 0, data);
    }

    /** {@code {"msg":"success","code":0,"data":"text","count":0}}. */
    static Reply ok(String data) {
        return ok(JsonText.MAPPER.getNodeFactory().textNode(data));
    }

    /** An error envelope (HTTP 200) with {@code msg}, {@code code} and the detail in {@code data}. */
    static Reply error(String msg, int code, String detail) {
        return envelope(200, msg, code, JsonText.MAPPER.getNodeFactory().textNode(detail));
    }

    /** The envelope with another HTTP status (404 for an unknown path). */
    static Reply envelope(int httpStatus, String msg, int code, JsonNode data) {
        ObjectNode json = JsonText.object();
        json.put("msg", msg);
        json.put("code", code);
        json.set("data", data);
        json.put("count", 0);
        return Reply.json(httpStatus, JsonText.write(json));
    }

    /**
     * The FE's answer to a failed Basic authentication: HTTP 200, code 401 (docs/protocol.md#doris-replies; a choice,
     * emulator/README.md).
     */
    static Reply unauthorized(String detail) {
        return error("Unauthorized", 401, detail);
    }

    /** Legacy {@code {"status":"FAILED","msg":msg}} (HTTP 200) of the load actions' pre-checks. */
    static Reply legacyFailed(String msg) {
        ObjectNode json = JsonText.object();
        json.put("status", "FAILED");
        json.put("msg", msg);
        return Reply.json(JsonText.write(json));
    }
}
