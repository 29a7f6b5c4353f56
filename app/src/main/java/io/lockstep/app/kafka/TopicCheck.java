package io.lockstep.app.kafka;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.ClientDnsLookup;
import org.apache.kafka.clients.ClientUtils;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Pre-flight check of {@code lockstep run}: the brokers answer and the CDC topic exists, before a Flink job is
 * started. Without it an unreachable bootstrap address shows up only as the Kafka source's enumerator logging a
 * stack trace every minute ("Timed out waiting for a node assignment") while the job never fails.
 *
 * <p>When every bootstrap address refuses the TCP connection (nothing listens there: a wrong port, a stopped broker)
 * it fails at once; an address that does not resolve fails at once too (the client refuses it). Otherwise (the
 * brokers are slow, a firewall drops the packets, a broker is still starting) it waits up to the timeout for them to
 * describe the topic.
 *
 * <p>Uses Kafka's own {@link Admin} client with the job's consumer properties (so SASL/TLS settings given with
 * {@code --kafka-property} apply). Stateless.
 */
public final class TopicCheck {
    /** Longest wait for one TCP connection of the refusal probe, ms. */
    static final int PROBE_MS = 3_000;

    private TopicCheck() {
    }

    /**
     * Describes {@code topic} within {@code timeoutMs}.
     *
     * @param bootstrapServers the {@code bootstrap.servers} list, as given on the command line
     * @param topic the CDC topic
     * @param consumerProperties further client properties (security settings); may be empty
     * @param timeoutMs how long to wait for the brokers, ms (&gt; 0)
     * @return the topic's partition count
     * @throws IllegalStateException naming the bootstrap address and topic: every address refusing the connection
     *     (at once), brokers not answering within the timeout, the topic unknown, or access denied
     * @throws InterruptedException if interrupted while waiting
     */
    public static int partitions(String bootstrapServers, String topic, Properties consumerProperties, long timeoutMs)
            throws InterruptedException {
        Properties props = new Properties();
        consumerProperties.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(String.valueOf(k))) {
                props.put(k, v);
            }
        });
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        int timeout = (int) Math.min(Integer.MAX_VALUE, timeoutMs);
        refuseWhenNothingListens(bootstrapServers, timeout);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeout);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout);
        Admin admin = null;
        try {
            admin = Admin.create(props);
            Map<String, TopicDescription> described = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeoutMs, TimeUnit.MILLISECONDS);
            return described.get(topic).partitions().size();
        } catch (TimeoutException e) {
            throw unreachable(bootstrapServers, timeoutMs);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("topic '" + topic + "' does not exist at " + bootstrapServers
                        + " (check --topic; Lockstep does not create it)");
            }
            if (cause instanceof TopicAuthorizationException) {
                throw new IllegalStateException("not authorized to describe topic '" + topic + "' at "
                        + bootstrapServers + " (check the --kafka-property security settings)");
            }
            if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unreachable(bootstrapServers, timeoutMs);
            }
            throw new IllegalStateException("Kafka at " + bootstrapServers + " could not describe topic '" + topic
                    + "': " + cause);
        } catch (org.apache.kafka.common.KafkaException e) {
            // e.g. a bootstrap address that does not resolve
            throw new IllegalStateException("Kafka client for " + bootstrapServers + " failed: " + e.getMessage()
                    + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"));
        } finally {
            if (admin != null) {
                // at once: a plain close() waits for the pending describe, which a silent address never answers
                admin.close(Duration.ZERO);
            }
        }
    }

    /**
     * Connects to each bootstrap address once (at most {@value #PROBE_MS} ms each); returns as soon as one accepts or
     * cannot be told (no answer, no route), so the Kafka client decides.
     *
     * @throws IllegalStateException when every address refused the connection
     */
    private static void refuseWhenNothingListens(String bootstrapServers, int timeoutMs) {
        List<InetSocketAddress> addresses;
        try {
            addresses = ClientUtils.parseAndValidateAddresses(
                    Arrays.stream(bootstrapServers.split(",")).map(String::trim).toList(), ClientDnsLookup.USE_ALL_DNS_IPS);
        } catch (ConfigException | IllegalArgumentException e) {
            return; // the Kafka client names the malformed or unresolvable address
        }
        for (InetSocketAddress address : addresses) {
            try (Socket socket = new Socket()) {
                socket.connect(address, Math.min(timeoutMs, PROBE_MS));
                return;
            } catch (ConnectException refused) {
                // nothing listens there: try the next one
            } catch (IOException | RuntimeException cannotTell) {
                return;
            }
        }
        throw new IllegalStateException("no Kafka broker listens at " + bootstrapServers + " (connection refused; "
                + "check --kafka-bootstrap and that the brokers are up)");
    }

    private static IllegalStateException unreachable(String bootstrapServers, long timeoutMs) {
        return new IllegalStateException("no Kafka broker answered at " + bootstrapServers + " within "
                + timeoutMs / 1000 + " s (check --kafka-bootstrap, the network, and --kafka-property security "
                + "settings; --kafka-check-timeout changes the wait)");
    }
}
