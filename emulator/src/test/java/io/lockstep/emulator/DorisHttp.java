package io.lockstep.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;

/**
 * A test client speaking Doris' Stream Load protocol to the emulator over real HTTP (Apache HttpClient 5 classic).
 * Redirects are followed by hand as curl {@code --location-trusted} does: same method, headers (Authorization
 * included) and body; the userinfo of the {@code Location} is checked and stripped (HttpClient 5 refuses it).
 */
final class DorisHttp implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One final answer, with every hop's status (e.g. [307, 200]) and the Locations followed. */
    record Resp(int status, Map<String, String> headers, String body, List<Integer> hops, List<String> locations) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
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
            List<String> keys = new ArrayList<>();
            json().fieldNames().forEachRemaining(keys::add);
            return keys;
        }
    }

    private final CloseableHttpClient client = HttpClients.custom().disableRedirectHandling()
            .disableAutomaticRetries().build();
    private final String baseUrl;
    private String authorization = basic("root", "");

    DorisHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    DorisHttp as(String user, String password) {
        this.authorization = basic(user, password);
        return this;
    }

    DorisHttp withoutAuth() {
        this.authorization = null;
        return this;
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

    /** Sends one request, following 307s by hand when {@code follow}. */
    Resp send(String method, String pathAndQuery, Map<String, String> headers, String body, boolean follow) {
        String url = baseUrl + pathAndQuery;
        List<Integer> hops = new ArrayList<>();
        List<String> locations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Resp r = once(method, url, headers, body);
            hops.add(r.status());
            if (r.status() != 307 || !follow) {
                return new Resp(r.status(), r.headers(), r.body(), hops, locations);
            }
            String location = r.headers().get("location");
            locations.add(location);
            url = withoutUserInfo(location);
        }
        throw new AssertionError("too many redirects: " + hops);
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

    private Resp once(String method, String url, Map<String, String> headers, String body) {
        ClassicRequestBuilder b = ClassicRequestBuilder.create(method).setUri(url);
        if (authorization != null) {
            b.setHeader("Authorization", authorization);
        }
        headers.forEach(b::setHeader);
        if (body != null) {
            b.setEntity(new ByteArrayEntity(body.getBytes(StandardCharsets.UTF_8), null));
        }
        ClassicHttpRequest request = b.build();
        try {
            return client.execute(request, response -> {
                Map<String, String> h = new LinkedHashMap<>();
                for (Header header : response.getHeaders()) {
                    h.put(header.getName().toLowerCase(), header.getValue());
                }
                String text = response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity(),
                        StandardCharsets.UTF_8);
                return new Resp(response.getCode(), h, text, List.of(), List.of());
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
