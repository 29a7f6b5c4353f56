package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /} on the FE and BE ports, where StarRocks' and Doris' FE (and BE) serve their web UI: a small HTML page
 * with HTTP 200 in both modes, without credentials (Doris FE
 * {@code fe/fe-core/src/main/java/org/apache/doris/httpv2/config/WebConfigurer.java}: {@code /} is outside the
 * authentication interceptor and the UI's {@code index.html} is served there), and still 404 for an unknown path.
 */
class WebUiPageTest {

    @Test
    void bothListenersAnswerTheRootInStarRocksMode() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().build().start()) {
            assertPage(sr.feUrl(), "StarRocks FE");
            assertPage(sr.beUrl(), "StarRocks BE");
        }
    }

    @Test
    void bothListenersAnswerTheRootInDorisMode() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().build().start()) {
            assertPage(doris.feUrl(), "Doris FE");
            assertPage(doris.beUrl(), "Doris BE");
        }
    }

    private static void assertPage(String baseUrl, String title) throws Exception {
        try (SrHttp http = new SrHttp(baseUrl).as("nobody", "wrong")) {
            SrHttp.Resp r = http.send("GET", "/", Map.of(), null, false);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.headers().get("content-type")).startsWith("text/html");
            assertThat(r.body()).startsWith("<!DOCTYPE html>").contains("<title>Lockstep emulator: " + title);
            SrHttp.Resp other = http.send("GET", "/nothing-here", Map.of(), null, false);
            assertThat(other.status()).isEqualTo(404);
        }
    }
}
