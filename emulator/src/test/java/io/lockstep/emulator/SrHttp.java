package io.lockstep.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * A test client speaking to the emulator over real HTTP ({@link RedirectFollowingHttp}). Redirects are followed
 * by hand, the way the StarRocks SDK does it: same method, same headers (Authorization included), same body.
 */
final class SrHttp extends RedirectFollowingHttp<SrHttp> {

    /** One final answer, with the statuses of every hop (e.g. [307, 200]). */
    record Resp(int status, Map<String, String> headers, String body, List<Integer> hops, List<String> locations) {
        JsonNode json() {
            return RedirectFollowingHttp.json(body);
        }

        String srStatus() {
            JsonNode s = json().get("Status");
            return s == null ? null : s.asText();
        }

        String message() {
            JsonNode s = json().get("Message");
            return s == null ? null : s.asText();
        }

        List<String> keys() {
            return RedirectFollowingHttp.keys(body);
        }
    }

    SrHttp(String baseUrl) {
        super(baseUrl);
    }

    /** A transaction op (POST; load uses PUT) with the given headers, following redirects. */
    Resp txn(String op, Map<String, String> headers, String body) {
        return send("load".equals(op) ? "PUT" : "POST", "/api/transaction/" + op, headers, body, true);
    }

    Resp txn(String op, Map<String, String> headers) {
        return txn(op, headers, null);
    }

    /** Sends one request, following 307s by hand when {@code follow}. */
    Resp send(String method, String pathAndQuery, Map<String, String> headers, String body, boolean follow) {
        Exchange e = exchange(method, pathAndQuery, headers, body, follow);
        return new Resp(e.status(), e.headers(), e.body(), e.hops(), e.locations());
    }
}
