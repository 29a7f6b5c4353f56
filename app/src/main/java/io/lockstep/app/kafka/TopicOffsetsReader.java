package io.lockstep.app.kafka;

import io.lockstep.app.rebuild.TopicLayout;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads what {@link CommittedStartOffsets} plans from: each topic's id and its partitions' earliest and end offsets
 * ({@code read_committed}, as the source reads), with one Kafka {@link Admin} client; for a
 * {@link TopicLayout} with a table-topic pattern, the topics the brokers have now that match it (as Kafka's pattern
 * subscription matches: the whole name). Stateless.
 */
final class TopicOffsetsReader {

    private TopicOffsetsReader() {
    }

    /**
     * @return per topic of the layout (table topics and the transaction topic) what the brokers say about it
     * @throws IllegalStateException when the brokers do not answer within {@code timeoutMs} or a topic is unknown
     */
    static Map<String, CommittedStartOffsets.TopicOffsets> read(String bootstrapServers, TopicLayout layout,
            Properties consumerProperties, long timeoutMs) throws InterruptedException {
        try (Admin admin = admin(bootstrapServers, consumerProperties, timeoutMs)) {
            Set<String> topics = new TreeSet<>(layout.tableTopics());
            if (layout.tableTopicPattern() != null) {
                Pattern pattern = Pattern.compile(layout.tableTopicPattern());
                try {
                    admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS).stream()
                            .filter(name -> pattern.matcher(name).matches()).forEach(topics::add);
                } catch (TimeoutException | ExecutionException e) {
                    throw new IllegalStateException("Kafka at " + bootstrapServers + " could not list the topics "
                            + "matching '" + layout.tableTopicPattern() + "' within " + timeoutMs / 1000 + " s: "
                            + (e.getCause() == null ? e : e.getCause().getMessage()));
                }
            }
            topics.add(layout.transactionTopic());
            return describe(admin, bootstrapServers, topics, timeoutMs);
        }
    }

    /**
     * @return per topic its id and its partitions' earliest and end offsets
     * @throws IllegalStateException when the brokers do not answer within {@code timeoutMs} or a topic is unknown
     */
    static Map<String, CommittedStartOffsets.TopicOffsets> read(String bootstrapServers, Collection<String> topics,
            Properties consumerProperties, long timeoutMs) throws InterruptedException {
        try (Admin admin = admin(bootstrapServers, consumerProperties, timeoutMs)) {
            return describe(admin, bootstrapServers, topics, timeoutMs);
        }
    }

    private static Admin admin(String bootstrapServers, Properties consumerProperties, long timeoutMs) {
        Properties props = new Properties();
        consumerProperties.forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(String.valueOf(k))) {
                props.put(k, v);
            }
        });
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        int timeout = (int) Math.min(Integer.MAX_VALUE, timeoutMs);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeout);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout);
        return Admin.create(props);
    }

    private static Map<String, CommittedStartOffsets.TopicOffsets> describe(Admin admin, String bootstrapServers,
            Collection<String> topics, long timeoutMs) throws InterruptedException {
        try {
            Map<String, TopicDescription> descriptions = admin.describeTopics(List.copyOf(topics)).allTopicNames()
                    .get(timeoutMs, TimeUnit.MILLISECONDS);
            Map<String, CommittedStartOffsets.TopicOffsets> result = new TreeMap<>();
            for (String topic : topics) {
                TopicDescription description = descriptions.get(topic);
                List<TopicPartition> partitions = description.partitions().stream()
                        .map(p -> new TopicPartition(topic, p.partition())).toList();
                result.put(topic, new CommittedStartOffsets.TopicOffsets(description.topicId().toString(),
                        list(admin, partitions, OffsetSpec.earliest(), timeoutMs),
                        list(admin, partitions, OffsetSpec.latest(), timeoutMs)));
            }
            return result;
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException("Kafka at " + bootstrapServers + " could not describe topic"
                    + (topics.size() == 1 ? " '" + topics.iterator().next() + "'" : "s " + new TreeSet<>(topics))
                    + " and " + (topics.size() == 1 ? "its" : "their") + " offsets within " + timeoutMs / 1000
                    + " s: " + (e.getCause() == null ? e : e.getCause().getMessage()));
        }
    }

    private static Map<Integer, Long> list(Admin admin, Collection<TopicPartition> partitions, OffsetSpec spec,
            long timeoutMs) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(
                partitions.stream().collect(Collectors.toMap(p -> p, p -> spec)),
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        Map<Integer, Long> offsets = new TreeMap<>();
        result.forEach((partition, info) -> offsets.put(partition.partition(), info.offset()));
        return offsets;
    }
}
