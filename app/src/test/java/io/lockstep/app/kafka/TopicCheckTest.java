package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The pre-flight check names an unreachable bootstrap address instead of letting the job hang: at once when nothing
 * listens there, after the timeout when something listens but does not answer.
 */
class TopicCheckTest {

    @Test
    void anAddressWhereNoBrokerListensFailsAtOnceInsteadOfWaitingTheTimeout() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String bootstrap = "127.0.0.1:" + closedPort;
        // a one-minute timeout: only the refusal can end the check before it (the message says which ended it)
        assertThatThrownBy(() -> TopicCheck.partitions(bootstrap, "cdc", new Properties(), 60_000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no Kafka broker listens at " + bootstrap + " (connection refused; check --kafka-bootstrap "
                        + "and that the brokers are up)");
    }

    @Test
    void anAddressThatAcceptsButNeverAnswersIsNamedAfterTheTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) { // accepts connections (backlog), never speaks Kafka
            String bootstrap = "127.0.0.1:" + silent.getLocalPort();
            assertThatThrownBy(() -> TopicCheck.partitions(bootstrap, "cdc", new Properties(), 1_500))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("no Kafka broker answered at " + bootstrap + " within 1 s")
                    .hasMessageContaining("--kafka-bootstrap");
        }
    }

    @Test
    void anAddressThatDoesNotParseIsNamed() {
        assertThatThrownBy(() -> TopicCheck.partitions("not a host", "cdc", new Properties(), 1_500))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a host");
    }
}
