package io.lockstep.emulator.http;

import java.util.Map;

/**
 * {@code GET /}: where a StarRocks or Doris FE (and BE) serves its web UI, the emulator answers a small HTML page
 * (HTTP 200, {@code text/html}) naming what listens there, so that a client or a person probing the address sees a
 * live server rather than a 404. No authentication: Doris' FE leaves {@code /} outside its authentication interceptor
 * and serves the UI's {@code index.html} there
 * (fe/fe-core/src/main/java/org/apache/doris/httpv2/config/WebConfigurer.java).
 */
public final class WebUiPage {
    private WebUiPage() {
    }

    /**
     * The page.
     *
     * @param product  {@code "StarRocks"} or {@code "Doris"}
     * @param listener {@code "FE"} or {@code "BE"}
     */
    public static Reply reply(String product, String listener) {
        String title = "Lockstep emulator: " + product + " " + listener;
        String body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head>\n"
                + "<body><h1>" + title + "</h1>\n<p>An emulated " + product + " " + listener
                + " for tests: it serves the load HTTP API under <code>/api/</code>; it has no web UI.</p>"
                + "</body></html>\n";
        return new Reply(200, Map.of(), body, "text/html", false);
    }
}
