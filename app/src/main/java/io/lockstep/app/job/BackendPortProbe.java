package io.lockstep.app.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.core.server.Target;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Tells whether an address given as {@code --load-url} is a BE's HTTP port rather than the FE's, after the FE's
 * label-state path answered 404 there: a BE serves {@code GET /api/health} with the fixed reply
 * {@code {"status": "OK", "msg": "To Be Added"}} (StarRocks {@code be/src/http/action/health_action.cpp}; Apache Doris
 * the same, {@code be/src/http/action/health_action.cpp}), while an FE's {@code /api/health} counts the backends
 * ({@code total_backend_num}, {@code online_backend_num}; StarRocks {@code fe/fe-core/src/main/java/com/starrocks/http/rest/HealthAction.java}).
 * Default ports: StarRocks FE {@code http_port} 8030 and BE {@code be_http_port} 8040; Doris FE {@code http_port} 8030
 * and BE {@code webserver_port} 8040. Asks once, without credentials (the BE's health path needs none). Stateless.
 */
final class BackendPortProbe {
    /** The BE's fixed health message. */
    static final String BE_HEALTH_MESSAGE = "To Be Added";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    private BackendPortProbe() {
    }

    /**
     * @param loadUrl one {@code --load-url} address, {@code host:port} or {@code http(s)://host:port}
     * @param target the server family, for the wording
     * @return the line naming {@code loadUrl} as a BE port and the FE port to use, or empty when its
     *     {@code /api/health} does not answer as a BE's (or cannot be asked)
     */
    static Optional<String> backendHint(String loadUrl, Target target) {
        String base = loadUrl.contains("://") ? loadUrl : "http://" + loadUrl;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
            HttpResponse<String> reply = client.send(HttpRequest.newBuilder(URI.create(base + "/api/health"))
                    .timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
            JsonNode health = JSON.readTree(reply.body());
            if (reply.statusCode() != 200 || health == null
                    || !BE_HEALTH_MESSAGE.equals(health.path("msg").asText(null))) {
                return Optional.empty();
            }
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        // the BE's HTTP port by the name each server's documentation gives it
        String port = switch (target) {
            case STARROCKS -> "HTTP port";
            case DORIS -> "webserver port";
        };
        String setting = switch (target) {
            case STARROCKS -> "http port";
            case DORIS -> "webserver_port";
        };
        return Optional.of("target " + loadUrl + " looks like a " + target.displayName() + " BE's " + port
                + " (its /api/health answers as a BE's does; the BE " + setting + " is 8040 by default), not the FE's: "
                + "--load-url takes the FE's HTTP port (http_port, 8030 by default)");
    }
}
