package io.lockstep.app.kafka;

import io.lockstep.app.rebuild.TopicLayout;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
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
 * <p>Debezium's one-topic-per-table layout ({@link TopicLayout}) plans every topic the job reads (the table topics,
 * listed or matched by the pattern, and the transaction topic) the same way, each with its own identity and range
 * checks; their committed positions are the covered positions of the rebuilt transactions
 * (docs/exactly-once.md#progress-rows-of-the-multi-topic-layout). The rows' source is then the rebuilt source
 * {@code <txTopic>+rebuilt}, never looked up as a topic: its committed position (partition 0) is where the rebuild
 * continues numbering ({@link Plan#rebuiltPosition()}).
 *
 * <p>Reads the topics with Kafka's {@link Admin} client (its id, and earliest and end offsets with
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
     * @param source the {@code source} the job's rows carry ({@link TopicSource#name}: the topic and its id; in the
     *     one-topic-per-table layout the rebuilt source {@code <txTopic>+rebuilt})
     * @param offsets the first offset to read per topic partition with a committed position
     * @param sources per topic read, the source name its rows and covered positions carry in the progress table
     *     ({@code topic#topicId}, or the bare topic without a known id), for
     *     {@code io.lockstep.app.job.SourceIdentity}; copied
     * @param rebuiltPosition the committed position of the rebuilt source (partition 0), -1 for none or in the
     *     one-topic layout: {@link TopicLayout#withCommittedRebuiltPosition}
     */
    public record Plan(String source, StartOffsets offsets, Map<String, String> sources, long rebuiltPosition) {
        public Plan {
            sources = Map.copyOf(sources);
        }

        /** One topic: {@code source} names it ({@link TopicSource#topicOf}); no rebuilt position. */
        public Plan(String source, StartOffsets offsets) {
            this(source, offsets, Map.of(TopicSource.topicOf(source), source), -1L);
        }

        /** @return the start without committed positions: the bare topic as source, every partition earliest */
        public static Plan configured(String topic) {
            return new Plan(topic, new StartOffsets(topic, Map.of()));
        }

        /**
         * @return the one-topic-per-table layout's start without committed positions: the rebuilt source, each
         *     of {@code topics} as its own (bare) source name, every partition earliest, no rebuilt position
         */
        public static Plan configured(TopicLayout layout, Collection<String> topics) {
            Map<String, String> sources = new TreeMap<>();
            topics.forEach(topic -> sources.put(topic, topic));
            return new Plan(layout.rebuiltSource(), new StartOffsets(Map.of()), sources, -1L);
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
        TopicOffsets offsets = TopicOffsetsReader.read(bootstrapServers, List.of(topic), consumerProperties, timeoutMs)
                .get(topic);
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
        return new Plan(TopicSource.name(topic, offsets.topicId()),
                new StartOffsets(topic, startsOf(topic, offsets, jobId, committed)));
    }

    /**
     * Reads the topics of a one-topic-per-table layout and the committed positions, and plans the start.
     *
     * @param layout the topics the job reads: table topics (listed, or matched by the pattern among the topics the
     *     brokers have now) and the transaction topic
     * @return where each partition of each topic starts, the topics' source names and the rebuilt position
     * @throws IllegalStateException as {@link #read(String, String, Properties, long, String, Function)}, per topic
     * @throws InterruptedException if interrupted while waiting for the brokers
     */
    public static Plan read(String bootstrapServers, TopicLayout layout, Properties consumerProperties,
            long timeoutMs, String jobId, Function<String, Map<String, Map<Integer, Long>>> committedPositions)
            throws InterruptedException {
        Map<String, TopicOffsets> topics = TopicOffsetsReader.read(bootstrapServers, layout, consumerProperties,
                timeoutMs);
        return plan(layout, topics, jobId, committedPositions.apply(jobId));
    }

    /**
     * Plans the start of a one-topic-per-table layout from what was read (pure; the tests call it directly): each
     * topic as {@link #plan(String, TopicOffsets, String, Map)} plans its one topic, and the committed position of
     * {@link TopicLayout#rebuiltSource()} partition 0 as {@link Plan#rebuiltPosition()}.
     *
     * @param topics every topic the job reads (table topics and the transaction topic) as the brokers describe it
     * @param committed source to partition to committed position, as read for {@code jobId}; sources of other
     *     topics are ignored
     * @throws IllegalStateException with one line naming topic, partition and offsets, see the class comment
     */
    public static Plan plan(TopicLayout layout, Map<String, TopicOffsets> topics, String jobId,
            Map<String, Map<Integer, Long>> committed) {
        if (!topics.containsKey(layout.transactionTopic())) {
            throw new IllegalArgumentException("the topics read do not include the transaction topic '"
                    + layout.transactionTopic() + "'");
        }
        Map<String, String> sources = new TreeMap<>();
        Map<String, Map<Integer, Long>> starts = new TreeMap<>();
        new TreeMap<>(topics).forEach((topic, offsets) -> {
            sources.put(topic, TopicSource.name(topic, offsets.topicId()));
            starts.put(topic, startsOf(topic, offsets, jobId, committed));
        });
        Map<Integer, Long> rebuilt = committed.getOrDefault(layout.rebuiltSource(), Map.of());
        long rebuiltPosition = rebuilt.getOrDefault(0, -1L);
        LOG.info("{}: job '{}' committed rebuilt position {}", layout.rebuiltSource(), jobId,
                rebuiltPosition < 0 ? "none; numbering starts at 0"
                        : rebuiltPosition + "; numbering continues above it");
        return new Plan(layout.rebuiltSource(), new StartOffsets(starts), sources, rebuiltPosition);
    }

    /** @return partition to first offset of {@code topic}'s partitions with a committed position, after the checks */
    private static Map<Integer, Long> startsOf(String topic, TopicOffsets offsets, String jobId,
            Map<String, Map<Integer, Long>> committed) {
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
        return starts;
    }

    private static String describe(Map<Integer, Long> positions) {
        return new TreeMap<>(positions).entrySet().stream().map(e -> e.getKey() + "@" + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
