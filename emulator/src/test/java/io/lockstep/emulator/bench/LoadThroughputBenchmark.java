package io.lockstep.emulator.bench;

import io.lockstep.emulator.StarRocksEmulator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Throughput of the transaction interface into the {@code none} and {@code h2} stores: 100 MB of JSON rows
 * (10 transactions × 5 loads × 2 MB, begin → load → commit, redirects followed). A benchmark, not a test:
 * run {@code main} by hand; it prints MB/s and rows/s.
 */
public final class LoadThroughputBenchmark {
    private static final int TRANSACTIONS = 10;
    private static final int LOADS_PER_TXN = 5;
    private static final int LOAD_BYTES = 2 * 1024 * 1024;

    private LoadThroughputBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        for (String storage : args.length > 0 ? args : new String[] {"none", "h2"}) {
            run(storage);
        }
    }

    private static void run(String storage) throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().storage(storage).ddl("""
                CREATE DATABASE bench;
                CREATE TABLE bench.orders (order_id BIGINT NOT NULL, status VARCHAR(32), total DECIMAL(12, 2))
                PRIMARY KEY (order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1;
                """).build().start()) {
            HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
            String auth = "Basic " + Base64.getEncoder().encodeToString("root:".getBytes(StandardCharsets.UTF_8));
            long nextId = 0;
            long rows = 0;
            long bytes = 0;
            long startNs = System.nanoTime();
            for (int t = 0; t < TRANSACTIONS; t++) {
                String label = storage + "-bench-" + t;
                send(client, sr.feUrl(), "begin", "POST", label, auth, null);
                for (int l = 0; l < LOADS_PER_TXN; l++) {
                    StringBuilder body = new StringBuilder(LOAD_BYTES + 100).append('[');
                    while (body.length() < LOAD_BYTES) {
                        if (body.length() > 1) {
                            body.append(',');
                        }
                        body.append("{\"order_id\":").append(nextId).append(",\"status\":\"new\",\"total\":")
                                .append(nextId % 10_000).append(".25}");
                        nextId++;
                        rows++;
                    }
                    byte[] data = body.append(']').toString().getBytes(StandardCharsets.UTF_8);
                    bytes += data.length;
                    send(client, sr.feUrl(), "load", "PUT", label, auth, data);
                }
                send(client, sr.feUrl(), "commit", "POST", label, auth, null);
            }
            double seconds = (System.nanoTime() - startNs) / 1e9;
            System.out.printf("storage=%s: %.1f MB in %.2f s = %.1f MB/s, %d rows = %.0f rows/s, stored rows=%d%n",
                    storage, bytes / 1e6, seconds, bytes / 1e6 / seconds, rows, rows / seconds,
                    sr.rowCount("bench", "orders"));
        }
    }

    private static void send(HttpClient client, String feUrl, String op, String method, String label, String auth,
                             byte[] body) throws Exception {
        URI uri = URI.create(feUrl + "/api/transaction/" + op);
        for (int hop = 0; hop < 2; hop++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(uri).expectContinue(body != null)
                    .header("Authorization", auth).header("label", label)
                    .header("db", "bench").header("table", "orders").header("format", "json")
                    .header("strip_outer_array", "true").header("ignore_json_size", "true")
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 307) {
                uri = URI.create(r.headers().firstValue("Location").orElseThrow());
                continue;
            }
            if (!r.body().contains("\"OK\"")) {
                throw new IllegalStateException(op + " " + label + " failed: " + r.body());
            }
            return;
        }
        throw new IllegalStateException("redirect loop on " + op);
    }
}
