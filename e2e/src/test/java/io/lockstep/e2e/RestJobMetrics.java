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
import java.util.List;

/**
 * Reads a counter of the running jobs of a Flink cluster through its REST API, summed over every operator and subtask
 * that registers it: {@code GET /jobs/overview}, {@code GET /jobs/:jobid} (the vertices),
 * {@code GET /jobs/:jobid/vertices/:vertexid/subtasks/metrics} (the metric ids, {@code <operator>.<name>}) and
 * {@code ...?get=<ids>&agg=sum} (Flink docs, "REST API"). Not thread-safe: one owner.
 */
final class RestJobMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** @param webInterfaceUrl the cluster's REST address, e.g. {@code ClusterClient#getWebInterfaceURL()} */
    RestJobMetrics(String webInterfaceUrl) {
        this.baseUrl = webInterfaceUrl.endsWith("/") ? webInterfaceUrl.substring(0, webInterfaceUrl.length() - 1)
                : webInterfaceUrl;
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
