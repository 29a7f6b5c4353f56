package io.lockstep.emulator.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.StarRocksEmulator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class JettyHandlerBodyTest {

    @Test
    void aBodyOfKnownLengthIsReadWholeIntoOneArray() throws Exception {
        byte[] body = JettyHandler.readKnownLength(new ByteArrayInputStream("[{\"k\":1}]".getBytes()), 9);
        assertThat(new String(body)).isEqualTo("[{\"k\":1}]");
    }

    @Test
    void aBodyShorterThanItsContentLengthFailsNamingBothCounts() {
        assertThatThrownBy(() -> JettyHandler.readKnownLength(new ByteArrayInputStream(new byte[3]), 5))
                .isInstanceOf(IOException.class)
                .hasMessage("request body ended after 3 of its Content-Length 5 bytes");
    }

    @Test
    void theEmulatorCountsTheHttpRequestsItServes() throws Exception {
        try (StarRocksEmulator emulator = StarRocksEmulator.builder().storage("none").build().start()) {
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < 3; i++) {
                http.send(HttpRequest.newBuilder(URI.create(emulator.feUrl() + "/api/health")).build(),
                        HttpResponse.BodyHandlers.discarding());
            }
            assertThat(emulator.httpRequests()).isEqualTo(3);
        }
    }
}
