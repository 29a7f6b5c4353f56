package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class LoadUrlsTest {

    @Test
    void parsesSemicolonSeparatedAddressesWithOptionalScheme() {
        LoadUrls urls = LoadUrls.parse(" fe1:8030; http://fe2:8031 ;HTTPS://fe3:8443;");

        assertThat(urls.bases()).containsExactly(URI.create("http://fe1:8030"), URI.create("http://fe2:8031"),
                URI.create("https://fe3:8443"));
        assertThat(urls.size()).isEqualTo(3);
        assertThat(urls).hasToString("http://fe1:8030;http://fe2:8031;https://fe3:8443");
    }

    @Test
    void httpsDefaultsToPort443() {
        assertThat(LoadUrls.parse("https://fe1").bases()).containsExactly(URI.create("https://fe1:443"));
    }

    @Test
    void trailingSlashIsAccepted() {
        assertThat(LoadUrls.parse("http://fe1:8030/").bases()).containsExactly(URI.create("http://fe1:8030"));
    }

    @Test
    void commaIsAClearErrorNamingTheOption() {
        assertThatThrownBy(() -> LoadUrls.parse("fe1:8030,fe2:8030", "sink.load-url"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sink.load-url")
                .hasMessageContaining("fe1:8030,fe2:8030")
                .hasMessageContaining("contains ','")
                .hasMessageContaining("';'");
        assertThatThrownBy(() -> LoadUrls.parse("fe1:8030,fe2:8030")).hasMessageStartingWith("load-url ");
    }

    /** Found by the bad-input catalogue: 'htp://' used to be reported as a path after the host 'htp'. */
    @Test
    void aMisspeltSchemeIsNamed() {
        assertThatThrownBy(() -> LoadUrls.parse("htp://fe1:8030", "load-url"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("load-url entry 'htp://fe1:8030' has scheme 'htp': expected http:// or https:// "
                        + "(or none, meaning http)");
    }

    /** Found by the bad-input catalogue: port 80300 passed the options and failed only at the first connect. */
    @Test
    void aPortOutOfRangeIsRejected() {
        assertThatThrownBy(() -> LoadUrls.parse("fe1:80300", "load-url"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("load-url entry 'fe1:80300' has port 80300: expected 1 to 65535");
        assertThatThrownBy(() -> LoadUrls.parse("fe1:0", "load-url")).hasMessageContaining("has port 0");
    }

    @Test
    void missingPortIsRejectedForHttp() {
        assertThatThrownBy(() -> LoadUrls.parse("fe1:8030;fe2"))
                .hasMessageContaining("entry 'fe2' has no port")
                .hasMessageContaining("fe2:8030");
    }

    @Test
    void blankOrEmptyIsRejected() {
        assertThatThrownBy(() -> LoadUrls.parse("  ")).hasMessageContaining("load-url is empty");
        assertThatThrownBy(() -> LoadUrls.parse(";;")).hasMessageContaining("holds no address");
        assertThatThrownBy(() -> LoadUrls.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pathQueryAndUserInfoAreRejected() {
        assertThatThrownBy(() -> LoadUrls.parse("fe1:8030/api")).hasMessageContaining("without a path");
        assertThatThrownBy(() -> LoadUrls.parse("fe1:8030?x=1")).hasMessageContaining("without a path or query");
        assertThatThrownBy(() -> LoadUrls.parse("http://root:pw@fe1:8030"))
                .hasMessageContaining("user info")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("root:pw"));
    }

    @Test
    void otherSchemesAreRejected() {
        assertThatThrownBy(() -> LoadUrls.parse("ftp://fe1:21")).isInstanceOf(IllegalArgumentException.class);
    }
}
