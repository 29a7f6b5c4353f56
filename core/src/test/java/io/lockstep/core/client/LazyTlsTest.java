package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.junit.jupiter.api.Test;

/**
 * TLS is set up by the first {@code https} connection, not by building a client whose load URLs are {@code http}; a
 * 307 to an {@code https} address still gets TLS, and when the handshake fails, the request fails in one line naming
 * the URL.
 */
class LazyTlsTest extends ClientTestSupport {
    private final AtomicInteger setUps = new AtomicInteger();
    private final LazyTlsSocketStrategy tls = new LazyTlsSocketStrategy(() -> {
        setUps.incrementAndGet();
        return DefaultClientTlsStrategy.createDefault();
    });

    @Test
    void aClientOfHttpUrlsNeverSetsUpTls() throws Exception {
        fe.on(BEGIN, ok());
        try (StarRocksHttp http = new StarRocksHttp(config(fe.address()).build(), tls)) {
            StarRocksHttp.HttpReply reply = http.send("POST", BEGIN, Map.of("label", "l1"), null, false);

            assertThat(reply.statusCode()).isEqualTo(200);
            assertThat(tls.initialised()).isFalse();
            assertThat(setUps).hasValue(0);
        }
    }

    @Test
    void aRedirectToHttpsSetsUpTlsOnDemandAndAFailedHandshakeFailsInOneLineNamingTheUrl() throws Exception {
        String httpsTarget = "https://" + be.address() + BEGIN; // the BE speaks plain HTTP: the handshake fails
        fe.on(BEGIN, (exchange, request) -> {
            exchange.getResponseHeaders().set("Location", httpsTarget);
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
        });
        be.on(BEGIN, ok());
        try (StarRocksHttp http = new StarRocksHttp(config(fe.address()).build(), tls)) {
            assertThatThrownBy(() -> http.send("POST", BEGIN, Map.of("label", "l1"), null, false))
                    .isInstanceOf(java.io.IOException.class)
                    .hasMessageContaining(httpsTarget)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThat(setUps).as("set up by the https hop, once").hasValue(1);
            assertThat(be.requests(BEGIN)).as("no request reached the BE as plain HTTP").isEmpty();
        }
    }
}
