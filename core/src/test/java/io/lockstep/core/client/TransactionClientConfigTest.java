package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TransactionClientConfigTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        TransactionClientConfig config = TransactionClientConfig.builder().loadUrls("fe:8030").username("root").build();

        assertThat(config.password()).isEmpty();
        assertThat(config.connectTimeoutMs()).isEqualTo(30_000);
        assertThat(config.socketTimeoutMs()).isEqualTo(60_000);
        assertThat(config.waitForContinueTimeoutMs()).isEqualTo(30_000);
        assertThat(config.maxRetries()).isEqualTo(3);
        assertThat(config.retryBackoffInitialMs()).isEqualTo(500);
        assertThat(config.retryBackoffMaxMs()).isEqualTo(10_000);
        assertThat(config.labelStateTimeoutMs()).isEqualTo(60_000);
        assertThat(config.sanitizeErrorLog()).isFalse();
    }

    @Test
    void toStringNeverShowsThePassword() {
        TransactionClientConfig config = TransactionClientConfig.builder().loadUrls("fe:8030").username("root")
                .password("hunter2").build();

        assertThat(config.toString()).contains("username=root", "password=******", "loadUrls=http://fe:8030")
                .doesNotContain("hunter2");
    }

    @Test
    void invalidSettingsAreNamed() {
        assertThatThrownBy(() -> TransactionClientConfig.builder().username("root").build())
                .hasMessageContaining("load-url is not set");
        assertThatThrownBy(() -> TransactionClientConfig.builder().loadUrls("fe:8030").build())
                .hasMessageContaining("username");
        assertThatThrownBy(() -> base().connectTimeoutMs(0).build()).hasMessageContaining("connectTimeoutMs");
        assertThatThrownBy(() -> base().socketTimeoutMs(-1).build()).hasMessageContaining("socketTimeoutMs");
        assertThatThrownBy(() -> base().waitForContinueTimeoutMs(0).build())
                .hasMessageContaining("waitForContinueTimeoutMs");
        assertThatThrownBy(() -> base().maxRetries(-1).build()).hasMessageContaining("maxRetries");
        assertThatThrownBy(() -> base().retryBackoff(1_000, 10).build()).hasMessageContaining("retryBackoffMaxMs");
        assertThatThrownBy(() -> base().labelStateTimeoutMs(-5).build()).hasMessageContaining("labelStateTimeoutMs");
        assertThatThrownBy(() -> TransactionClientConfig.builder().loadUrls("a:1,b:2"))
                .hasMessageContaining("contains ','");
    }

    private static TransactionClientConfig.Builder base() {
        return TransactionClientConfig.builder().loadUrls("fe:8030").username("root");
    }
}
