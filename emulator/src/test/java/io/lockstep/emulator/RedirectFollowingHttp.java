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
 * The transport both dialects' test clients ({@link SrHttp}, {@link DorisHttp}) share: real HTTP through Apache
 * HttpClient 5 classic with Basic auth, and 307 redirects followed by hand with the same method, headers
 * (Authorization included) and body, at most three hops. A dialect may rewrite each {@code Location} before
 * following it ({@link #followTarget}).
 *
 * @param <C> the concrete client, returned by the auth setters
 */
abstract class RedirectFollowingHttp<C extends RedirectFollowingHttp<C>> implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One final answer, with every hop's status (e.g. [307, 200]) and the Locations followed. */
    record Exchange(int status, Map<String, String> headers, String body, List<Integer> hops,
                    List<String> locations) {
    }

    private final CloseableHttpClient client = HttpClients.custom().disableRedirectHandling()
            .disableAutomaticRetries().build();
    private final String baseUrl;
    private String authorization = basic("root", "");

    RedirectFollowingHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** The {@code Authorization} value of HTTP Basic for a user and password. */
    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Parses a reply body as JSON; fails the test naming the body when it is not. */
    static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    /** The top-level field names of a JSON reply body, in order. */
    static List<String> keys(String body) {
        List<String> keys = new ArrayList<>();
        json(body).fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @SuppressWarnings("unchecked")
    private C self() {
        return (C) this;
    }

    /** Sends later requests as this user. */
    C as(String user, String password) {
        this.authorization = basic(user, password);
        return self();
    }

    /** Sends later requests without {@code Authorization}. */
    C withoutAuth() {
        this.authorization = null;
        return self();
    }

    /** The URL to follow for a 307's {@code Location}; default: the Location itself. */
    String followTarget(String location) {
        return location;
    }

    /** Sends one request, following 307s by hand when {@code follow}. */
    Exchange exchange(String method, String pathAndQuery, Map<String, String> headers, String body, boolean follow) {
        String url = baseUrl + pathAndQuery;
        List<Integer> hops = new ArrayList<>();
        List<String> locations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Exchange r = once(method, url, headers, body);
            hops.add(r.status());
            if (r.status() != 307 || !follow) {
                return new Exchange(r.status(), r.headers(), r.body(), hops, locations);
            }
            String location = r.headers().get("location");
            locations.add(location);
            url = followTarget(location);
        }
        throw new AssertionError("too many redirects: " + hops);
    }

    private Exchange once(String method, String url, Map<String, String> headers, String body) {
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
                return new Exchange(response.getCode(), h, text, List.of(), List.of());
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
