package io.lockstep.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A test client speaking Doris' Stream Load protocol to the emulator over real HTTP ({@link RedirectFollowingHttp}).
 * Redirects are followed by hand as curl {@code --location-trusted} does: same method, headers (Authorization
 * included) and body; the userinfo of the {@code Location} is checked and stripped (HttpClient 5 refuses it).
 */
final class DorisHttp extends RedirectFollowingHttp<DorisHttp> {

    /** One final answer, with every hop's status (e.g. [307, 200]) and the Locations followed. */
    record Resp(int status, Map<String, String> headers, String body, List<Integer> hops, List<String> locations) {
        JsonNode json() {
            return RedirectFollowingHttp.json(body);
        }

        /** A top-level field as text, or null. */
        String field(String name) {
            JsonNode n = json().get(name);
            return n == null ? null : n.asText();
        }

        /** The load reply's Status. */
        String loadStatus() {
            return field("Status");
        }

        /** The load reply's Message. */
        String message() {
            return field("Message");
        }

        long txnId() {
            return json().get("TxnId").asLong();
        }

        List<String> keys() {
            return RedirectFollowingHttp.keys(body);
        }
    }

    DorisHttp(String baseUrl) {
        super(baseUrl);
    }

    /** {@code PUT /api/{db}/{table}/_stream_load} with {@code Expect: 100-continue} and the given headers. */
    Resp load(String db, String table, Map<String, String> headers, String body) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Expect", "100-continue");
        all.putAll(headers);
        return send("PUT", "/api/" + db + "/" + table + "/_stream_load", all, body == null ? "" : body, true);
    }

    /** {@code PUT /api/{db}/_stream_load_2pc} with an empty body. */
    Resp twoPc(String db, Map<String, String> headers) {
        return send("PUT", "/api/" + db + "/_stream_load_2pc", headers, "", true);
    }

    /** {@code GET /api/{db}/get_load_state?label=}. */
    Resp loadState(String db, String label) {
        return send("GET", "/api/" + db + "/get_load_state?label=" + URLEncoder.encode(label, StandardCharsets.UTF_8),
                Map.of(), null, true);
    }

    /** Sends one request, following 307s by hand when {@code follow}; the Location's userinfo is stripped. */
    Resp send(String method, String pathAndQuery, Map<String, String> headers, String body, boolean follow) {
        Exchange e = exchange(method, pathAndQuery, headers, body, follow);
        return new Resp(e.status(), e.headers(), e.body(), e.hops(), e.locations());
    }

    @Override
    String followTarget(String location) {
        return withoutUserInfo(location);
    }

    private static String withoutUserInfo(String location) {
        try {
            URI u = new URI(location);
            return new URI(u.getScheme(), null, u.getHost(), u.getPort(), u.getRawPath() == null ? null : u.getPath(),
                    u.getQuery(), null).toString();
        } catch (URISyntaxException e) {
            throw new AssertionError("bad Location " + location, e);
        }
    }
}
