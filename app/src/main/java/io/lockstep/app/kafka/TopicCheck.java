package io.lockstep.app.kafka;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.ClientDnsLookup;
import org.apache.kafka.clients.ClientUtils;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
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
        return partitions(bootstrapServers, List.of(topic), consumerProperties, timeoutMs).get(topic);
    }

    /**
     * Describes every one of {@code topics} within {@code timeoutMs} (the table topics and the transaction topic of
     * Debezium's default layout).
     *
     * @param topics the topics, at least one
     * @return each topic's partition count, in the order given
     * @throws IllegalStateException as {@link #partitions(String, String, Properties, long)}, naming the first topic
     *     that does not exist
     * @throws InterruptedException if interrupted while waiting
     */
    public static Map<String, Integer> partitions(String bootstrapServers, List<String> topics,
            Properties consumerProperties, long timeoutMs) throws InterruptedException {
        return withAdmin(bootstrapServers, consumerProperties, timeoutMs, String.join("', '", topics), admin -> {
            Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(topics).topicNameValues();
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String topic : topics) {
                try {
                    counts.put(topic, described.get(topic).get(timeoutMs, TimeUnit.MILLISECONDS).partitions().size());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        throw notFound(topic, bootstrapServers);
                    }
                    throw e;
                }
            }
            return counts;
        });
    }

    /**
     * Lists the topics whose whole name matches {@code pattern}, as Kafka's pattern subscription would read them
     * (internal topics excluded).
     *
     * @param pattern the table topic pattern
     * @return the matching topics, sorted by name; empty when none matches
     * @throws IllegalStateException naming the bootstrap address: brokers refusing or not answering, access denied
     * @throws InterruptedException if interrupted while waiting
     */
    public static List<String> matching(String bootstrapServers, Pattern pattern, Properties consumerProperties,
            long timeoutMs) throws InterruptedException {
        return withAdmin(bootstrapServers, consumerProperties, timeoutMs, "matching " + pattern.pattern(),
                admin -> admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS).stream()
                        .filter(topic -> pattern.matcher(topic).matches()).sorted().toList());
    }

    /** What an {@link Admin} is asked, within the timeout of the call. */
    private interface AdminCall<T> {
        T call(Admin admin) throws InterruptedException, ExecutionException, TimeoutException;
    }

    private static <T> T withAdmin(String bootstrapServers, Properties consumerProperties, long timeoutMs,
            String topic, AdminCall<T> call) throws InterruptedException {
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
            return call.call(admin);
        } catch (TimeoutException e) {
            throw unreachable(bootstrapServers, timeoutMs);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw notFound(topic, bootstrapServers);
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

    private static IllegalStateException notFound(String topic, String bootstrapServers) {
        return new IllegalStateException("topic '" + topic + "' does not exist at " + bootstrapServers
                + " (check --topic; Lockstep does not create it)");
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
