package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The pre-flight check names an unreachable bootstrap address instead of letting the job hang. */
class TopicCheckTest {

    @Test
    void anAddressWhereNoBrokerListensIsNamedAfterTheTimeout() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String bootstrap = "127.0.0.1:" + closedPort;
        assertThatThrownBy(() -> TopicCheck.partitions(bootstrap, "cdc", new Properties(), 1_500))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("no Kafka broker answered at " + bootstrap + " within 1 s")
                .hasMessageContaining("--kafka-bootstrap");
    }

    @Test
    void anAddressThatDoesNotParseIsNamed() {
        assertThatThrownBy(() -> TopicCheck.partitions("not a host", "cdc", new Properties(), 1_500))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a host");
    }
}
