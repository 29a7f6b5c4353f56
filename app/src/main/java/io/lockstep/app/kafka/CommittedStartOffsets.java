package io.lockstep.app.kafka;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start of {@code lockstep run} in the exactly-once multi-table mode, when the job has no checkpoint: each
 * Kafka partition starts right after the position the job committed for it in the progress table (the Kafka
 * offset of the last event of the last source transaction loaded, docs/exactly-once.md), so a restarted process
 * neither re-reads the topic nor goes back in time. A partition without a committed position starts at its
 * earliest offset, as without this mode.
 *
 * <p>Refused, each with one line naming the topic, partition and offsets (an error, never a silent drop):
 * <ul>
 *   <li>the topic changed identity: the job's committed positions are for another topic id of the same name
 *       (the topic was deleted and created again; its offsets start over);</li>
 *   <li>a committed position beyond what the partition can still deliver: its end offset is below
 *       {@code position + 1} (a recreated or truncated topic);</li>
 *   <li>a committed position whose next offset is no longer in the partition: its earliest offset is above
 *       {@code position + 1} (retention deleted source transactions that were never loaded).</li>
 * </ul>
 * Reads the topic with Kafka's {@link Admin} client (its id, and earliest and end offsets with
 * {@code read_committed}, as the source reads) and the committed positions through a reader of the progress
 * table (the StarRocks HTTP SQL API); stateless.
 */
public final class CommittedStartOffsets {

    private static final Logger LOG = LoggerFactory.getLogger(CommittedStartOffsets.class);

    private CommittedStartOffsets() {
    }

    /**
     * What the brokers say about the topic right now.
     *
     * @param topicId the topic id (Kafka's base64 Uuid text)
     * @param earliest partition to its earliest offset
     * @param end partition to its end offset (the next offset to be written; read_committed: the last stable one)
     */
    public record TopicOffsets(String topicId, Map<Integer, Long> earliest, Map<Integer, Long> end) {
        public TopicOffsets {
            earliest = new TreeMap<>(earliest);
            end = new TreeMap<>(end);
        }
    }

    /**
     * The start of the job's Kafka source.
     *
     * @param source the {@code source} the job's rows carry ({@link TopicSource#name}: the topic and its id)
     * @param offsets the first offset to read per partition with a committed position
     */
    public record Plan(String source, StartOffsets offsets) {
        /** @return the start without committed positions: the bare topic as source, every partition earliest */
        public static Plan configured(String topic) {
            return new Plan(topic, new StartOffsets(topic, Map.of()));
        }
    }

    /**
     * Reads the topic and the committed positions and plans the start.
     *
     * @param bootstrapServers Kafka {@code bootstrap.servers}
     * @param topic the CDC topic
     * @param consumerProperties further client properties (security settings); may be empty
     * @param timeoutMs how long to wait for the brokers, ms (&gt; 0)
     * @param jobId the job id whose positions count
     * @param committedPositions reads source to partition to committed position for a job id
     * @return where each partition starts
     * @throws IllegalStateException with one line naming topic, partition and offsets, see the class comment;
     *     or when the brokers do not answer in time
     * @throws InterruptedException if interrupted while waiting for the brokers
     */
    public static Plan read(String bootstrapServers, String topic, Properties consumerProperties, long timeoutMs,
            String jobId, Function<String, Map<String, Map<Integer, Long>>> committedPositions)
            throws InterruptedException {
        TopicOffsets offsets = topicOffsets(bootstrapServers, topic, consumerProperties, timeoutMs);
        return plan(topic, offsets, jobId, committedPositions.apply(jobId));
    }

    /**
     * Plans the start from what was read (pure; the tests call it directly).
     *
     * @param topic the CDC topic
     * @param offsets the topic as the brokers describe it
     * @param jobId the job id (for messages)
     * @param committed source to partition to committed position, as read for {@code jobId}; sources of other
     *     topics are ignored
     * @return where each partition starts
     * @throws IllegalStateException with one line naming topic, partition and offsets, see the class comment
     */
    public static Plan plan(String topic, TopicOffsets offsets, String jobId,
            Map<String, Map<Integer, Long>> committed) {
        String source = TopicSource.name(topic, offsets.topicId());
        Map<Integer, Long> positions = new TreeMap<>();
        for (Map.Entry<String, Map<Integer, Long>> entry : committed.entrySet()) {
            if (!TopicSource.topicOf(entry.getKey()).equals(topic)) {
                continue;
            }
            String committedId = TopicSource.idOf(entry.getKey());
            if (committedId != null && !committedId.equals(offsets.topicId())) {
                throw new IllegalStateException("topic '" + topic + "' changed identity: job '" + jobId
                        + "' committed positions for topic id " + committedId + " (partitions "
                        + describe(entry.getValue()) + ") but the topic now has id " + offsets.topicId()
                        + " (deleted and created again?); its offsets start over, so these positions cannot be "
                        + "resumed. To load the new topic from the start, reset the job's progress "
                        + "(docs/exactly-once.md) or use another --job-id");
            }
            entry.getValue().forEach((partition, position) -> positions.merge(partition, position, Math::max));
        }
        Map<Integer, Long> starts = new TreeMap<>();
        for (Map.Entry<Integer, Long> entry : positions.entrySet()) {
            int partition = entry.getKey();
            long next = entry.getValue() + 1;
            Long end = offsets.end().get(partition);
            Long earliest = offsets.earliest().get(partition);
            if (end == null) {
                throw new IllegalStateException("topic '" + topic + "' partition " + partition + " does not exist, "
                        + "but job '" + jobId + "' committed offset " + entry.getValue() + " there (the topic has "
                        + offsets.end().size() + " partitions)");
            }
            if (end < next) {
                throw new IllegalStateException("topic '" + topic + "' partition " + partition + " ends at offset "
                        + end + ", but job '" + jobId + "' committed offset " + entry.getValue()
                        + " there: the topic cannot deliver offset " + next + " (recreated or truncated?); "
                        + "resuming would skip whatever the topic holds now");
            }
            if (earliest != null && earliest > next) {
                throw new IllegalStateException("topic '" + topic + "' partition " + partition + " starts at offset "
                        + earliest + ", but job '" + jobId + "' committed offset " + entry.getValue()
                        + " there: offsets " + next + " to " + (earliest - 1) + " were deleted (retention) before "
                        + "they were loaded; reset the job's progress (docs/exactly-once.md) to accept the loss");
            }
            starts.put(partition, next);
            LOG.info("topic '{}' partition {}: job '{}' committed offset {}; starting at offset {}", topic,
                    partition, jobId, entry.getValue(), next);
        }
        for (Integer partition : offsets.end().keySet()) {
            if (!starts.containsKey(partition)) {
                LOG.info("topic '{}' partition {}: no position committed by job '{}'; starting at the earliest offset",
                        topic, partition, jobId);
            }
        }
        return new Plan(source, new StartOffsets(topic, starts));
    }

    /**
     * @return the topic's id and its partitions' earliest and end offsets
     * @throws IllegalStateException when the brokers do not answer within {@code timeoutMs} or the topic is unknown
     */
    static TopicOffsets topicOffsets(String bootstrapServers, String topic, Properties consumerProperties,
            long timeoutMs) throws InterruptedException {
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
        try (Admin admin = Admin.create(props)) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(timeoutMs, TimeUnit.MILLISECONDS).get(topic);
            List<TopicPartition> partitions = description.partitions().stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            return new TopicOffsets(description.topicId().toString(),
                    list(admin, partitions, OffsetSpec.earliest(), timeoutMs),
                    list(admin, partitions, OffsetSpec.latest(), timeoutMs));
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException("Kafka at " + bootstrapServers + " could not describe topic '" + topic
                    + "' and its offsets within " + timeoutMs / 1000 + " s: " + (e.getCause() == null ? e
                    : e.getCause().getMessage()));
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

    private static String describe(Map<Integer, Long> positions) {
        return new TreeMap<>(positions).entrySet().stream().map(e -> e.getKey() + "@" + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
