package io.lockstep.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;

/**
 * Reads a counter of the running jobs of a Flink cluster through its REST API, summed over every operator and subtask
 * that registers it: {@code GET /jobs/overview}, {@code GET /jobs/:jobid} (the vertices),
 * {@code GET /jobs/:jobid/vertices/:vertexid/subtasks/metrics} (the metric ids, {@code <operator>.<name>}) and
 * {@code ...?get=<ids>&agg=sum} (Flink docs, "REST API"). Not thread-safe: one owner.
 */
final class RestJobMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long UPDATE_INTERVAL_MS = 500;

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** @param webInterfaceUrl the cluster's REST address, e.g. {@code ClusterClient#getWebInterfaceURL()} */
    RestJobMetrics(String webInterfaceUrl) {
        this.baseUrl = webInterfaceUrl.endsWith("/") ? webInterfaceUrl.substring(0, webInterfaceUrl.length() - 1)
                : webInterfaceUrl;
    }

    /**
     * @return the cluster configuration this reader needs: the REST server's metric store refreshed every 500 ms
     *     ({@code metrics.fetcher.update-interval}; Flink's default, 10 s, would answer with values that old)
     */
    static Configuration configuration() {
        Configuration configuration = new Configuration();
        configuration.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(UPDATE_INTERVAL_MS));
        return configuration;
    }

    /**
     * Reads counters once every one is registered, from a metric store refreshed after this call (the REST server
     * answers from its store and refreshes it in the background, at most every {@code UPDATE_INTERVAL_MS}).
     *
     * @param names the counters' names
     * @return per name, its {@link #sum}: -1 for a counter no running job registered within 10 s
     */
    Map<String, Long> await(String... names) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            Map<String, Long> values = new LinkedHashMap<>();
            for (String name : names) {
                values.put(name, sum(name));
            }
            if (!values.containsValue(-1L) || System.nanoTime() > deadline) {
                // the requests above made the server refresh its store in the background; read it once refreshed
                Thread.sleep(2 * UPDATE_INTERVAL_MS);
                for (String name : names) {
                    values.put(name, sum(name));
                }
                return values;
            }
            Thread.sleep(UPDATE_INTERVAL_MS);
        }
    }

    /**
     * @param name the counter's name as the operator registers it (without the operator prefix)
     * @return its sum over the running jobs' operators and subtasks, or -1 when no running operator registers it
     * @throws IOException when the REST API does not answer
     */
    long sum(String name) throws IOException, InterruptedException {
        long total = 0;
        boolean found = false;
        for (JsonNode job : get("/jobs/overview").path("jobs")) {
            if (!job.path("state").asText().equals("RUNNING")) {
                continue;
            }
            String jobPath = "/jobs/" + job.path("jid").asText();
            for (JsonNode vertex : get(jobPath).path("vertices")) {
                String metricsPath = jobPath + "/vertices/" + vertex.path("id").asText() + "/subtasks/metrics";
                List<String> ids = new ArrayList<>();
                for (JsonNode metric : get(metricsPath)) {
                    String id = metric.path("id").asText();
                    if (id.equals(name) || id.endsWith("." + name)) {
                        ids.add(id);
                    }
                }
                if (ids.isEmpty()) {
                    continue;
                }
                String query = "?agg=sum&get=" + URLEncoder.encode(String.join(",", ids), StandardCharsets.UTF_8);
                for (JsonNode value : get(metricsPath + query)) {
                    total += value.path("sum").asLong();
                    found = true;
                }
            }
        }
        return found ? total : -1;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
