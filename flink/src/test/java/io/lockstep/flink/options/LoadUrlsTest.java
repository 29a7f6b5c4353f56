package io.lockstep.flink.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LoadUrlsTest {

    @Test
    void addressesAreNormalizedToSchemeHostPort() {
        assertThat(LoadUrls.parse("127.0.0.1:8030")).containsExactly("http://127.0.0.1:8030");
        assertThat(LoadUrls.parse(" fe1:8030 ;HTTPS://fe-2.example.com:443;[::1]:8040;"))
                .containsExactly("http://fe1:8030", "https://fe-2.example.com:443", "http://[::1]:8040");
    }

    @Test
    void malformedAddressesAreRejectedWithTheAddressInTheMessage() {
        assertThatThrownBy(() -> LoadUrls.parse("")).hasMessage("expected at least one address 'host:port'");
        assertThatThrownBy(() -> LoadUrls.parse("fe1:8030;;fe2:8030")).hasMessage("address 2 is empty; expected 'host:port;host:port'");
        assertThatThrownBy(() -> LoadUrls.parse("http://fe1:8030/api")).hasMessageContaining("address 'http://fe1:8030/api' is not 'host:port'");
        assertThatThrownBy(() -> LoadUrls.parse("fe1:0")).hasMessage("address 'fe1:0' has port 0; expected a port in [1, 65535]");
        assertThatThrownBy(() -> LoadUrls.parse("fe1:8030, fe2:8030")).hasMessageStartingWith("addresses are separated by ';', not ','");
    }

    @Test
    void resultIsReadOnly() {
        assertThatThrownBy(() -> LoadUrls.parse("fe:1").add("x")).isInstanceOf(UnsupportedOperationException.class);
    }
}
