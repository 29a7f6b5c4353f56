package io.lockstep.emulator.doris;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;

/**
 * The BE's {@code _stream_load_2pc} reply (docs/protocol.md#doris-replies; BE {@code Status::to_json}): HTTP 200 and a
 * JSON object with lower-case {@code status} and {@code msg}. {@code status} is {@code Success} or the BE error code
 * name; refusals of the FE master carry {@code ANALYSIS_ERROR} and the FE's text after
 * {@code TStatus: errCode = 2, detailMessage = } (as the Flink connector's test fixtures show).
 */
final class DorisTxnOpResult {
    static final String SUCCESS = "Success";
    static final String ANALYSIS_ERROR = "ANALYSIS_ERROR";
    static final String INTERNAL_ERROR = "INTERNAL_ERROR";
    static final String NOT_AUTHORIZED = "NOT_AUTHORIZED";
    private static final String FE_PREFIX = "TStatus: errCode = 2, detailMessage = ";

    private DorisTxnOpResult() {
    }

    /** {@code {"status": status, "msg": msg}}. */
    static Reply reply(String status, String msg) {
        ObjectNode json = JsonText.object();
        json.put("status", status);
        json.put("msg", msg);
        return Reply.json(JsonText.write(json) + "\n");
    }

    /** Success with its message, e.g. {@code transaction [7] commit successfully.}. */
    static Reply success(String msg) {
        return reply(SUCCESS, msg);
    }

    /** A refusal of the FE master (ANALYSIS_ERROR, prefixed FE text). */
    static Reply feRefusal(String text) {
        return reply(ANALYSIS_ERROR, FE_PREFIX + text);
    }
}
