package io.lockstep.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * A test client speaking to the emulator over real HTTP (Apache HttpClient 5 classic). Redirects are followed
 * by hand, the way the StarRocks SDK does it: same method, same headers (Authorization included), same body.
 */
final class SrHttp implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One final answer, with the statuses of every hop (e.g. [307, 200]). */
    record Resp(int status, Map<String, String> headers, String body, List<Integer> hops, List<String> locations) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
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
            List<String> keys = new ArrayList<>();
            json().fieldNames().forEachRemaining(keys::add);
            return keys;
        }
    }

    private final CloseableHttpClient client = HttpClients.custom().disableRedirectHandling()
            .disableAutomaticRetries().build();
    private final String baseUrl;
    private String authorization = basic("root", "");

    SrHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    SrHttp as(String user, String password) {
        this.authorization = basic(user, password);
        return this;
    }

    SrHttp withoutAuth() {
        this.authorization = null;
        return this;
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
        String url = baseUrl + pathAndQuery;
        List<Integer> hops = new ArrayList<>();
        List<String> locations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Resp r = once(method, url, headers, body);
            hops.add(r.status());
            if (r.status() != 307 || !follow) {
                return new Resp(r.status(), r.headers(), r.body(), hops, locations);
            }
            url = r.headers().get("location");
            locations.add(url);
        }
        throw new AssertionError("too many redirects: " + hops);
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
