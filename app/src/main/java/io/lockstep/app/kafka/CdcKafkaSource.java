package io.lockstep.app.kafka;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.rebuild.TopicLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Builds the Flink {@link KafkaSource} that reads one CDC topic as {@link SourceRecord}s, the input of
 * {@code TransactionStreams.assemble}. Each Kafka partition is read in order by one source reader, which
 * is what the per-partition transaction assemblers rely on.
 *
 * <p>Settings:
 * <ul>
 *   <li>starts at the earliest offset of every partition when the job has no checkpoint to restore (or
 *       where the given initializer says, e.g. right after the committed positions, {@link StartOffsets});
 *       a restored job resumes from the offsets in its checkpoint (the source's own state), and the
 *       offsets are committed to the group on each checkpoint for monitoring only;
 *   <li>{@code isolation.level=read_committed}, so records of aborted Kafka transactions (a Kafka
 *       Connect worker with exactly-once support) are never read;
 *   <li>bounded: the source stops at the partitions' end offsets as of job start (tests, replays);
 *       unbounded: it runs until cancelled.
 * </ul>
 *
 * <p>Debezium's default layout ({@link TopicLayout}, docs/sources.md#debeziums-default-layout-one-topic-per-table):
 * the source subscribes to the table topics (listed, or Kafka's pattern subscription) and the transaction topic, and
 * reads them with {@link #alignedWatermarks}: a partition whose Kafka record time runs more than the allowed drift
 * ahead of the slowest active one is paused until the others catch up, so a lagging topic makes the leading ones
 * wait instead of filling the rebuild's buffer.
 */
public final class CdcKafkaSource {

    /** The watermark alignment group of the Kafka source in the multi-topic layout. */
    public static final String ALIGNMENT_GROUP = "lockstep-topics";
    /** How often the allowed watermark is recomputed: Flink's own default, 1 s. */
    public static final Duration ALIGNMENT_UPDATE_INTERVAL = Duration.ofSeconds(1);

    private CdcKafkaSource() {
    }

    /**
     * @param bootstrapServers Kafka {@code bootstrap.servers}
     * @param topic the CDC topic (Debezium: BEGIN, data events and END routed into this one topic)
     * @param groupId consumer group id (offsets are committed to it on checkpoints)
     * @param bounded {@code true} to stop at the end offsets seen at job start
     * @param badInputMode what to do with a key or value that is not UTF-8 (see
     *     {@link SourceRecordDeserializationSchema})
     * @return the source; use it with {@code env.fromSource(source, WatermarkStrategy.noWatermarks(), name)}
     */
    public static KafkaSource<SourceRecord> create(String bootstrapServers, String topic, String groupId,
            boolean bounded, BadInputMode badInputMode) {
        return create(bootstrapServers, topic, groupId, bounded, badInputMode, new Properties());
    }

    /**
     * @param bootstrapServers Kafka {@code bootstrap.servers}
     * @param topic the CDC topic
     * @param groupId consumer group id
     * @param bounded {@code true} to stop at the end offsets seen at job start
     * @param badInputMode what to do with a key or value that is not UTF-8
     * @param consumerProperties further Kafka consumer settings (security, timeouts); they override the
     *     defaults above
     * @return the source
     * @throws IllegalArgumentException when the bootstrap servers, the topic or the group id are blank
     */
    public static KafkaSource<SourceRecord> create(String bootstrapServers, String topic, String groupId,
            boolean bounded, BadInputMode badInputMode, Properties consumerProperties) {
        return create(bootstrapServers, topic, groupId, bounded, badInputMode, consumerProperties,
                OffsetsInitializer.earliest());
    }

    /**
     * As {@link #create(String, String, String, boolean, BadInputMode, Properties)}, starting at
     * {@code startingOffsets} when the job has no checkpoint (e.g. {@link StartOffsets}: right after the
     * positions the exactly-once sink committed).
     *
     * @throws IllegalArgumentException when the bootstrap servers, the topic or the group id are blank
     */
    public static KafkaSource<SourceRecord> create(String bootstrapServers, String topic, String groupId,
            boolean bounded, BadInputMode badInputMode, Properties consumerProperties,
            OffsetsInitializer startingOffsets) {
        requireText(bootstrapServers, "bootstrap servers");
        requireText(topic, "topic");
        requireText(groupId, "consumer group id");
        KafkaSourceBuilder<SourceRecord> builder = builder(bootstrapServers, groupId, badInputMode,
                consumerProperties, startingOffsets).setTopics(topic);
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    /**
     * The Kafka source of a job reading Debezium's default layout: the table topics of {@code layout} (its list, or
     * every topic its pattern matches, found again at Kafka's partition discovery) and its transaction topic.
     * Otherwise as {@link #create(String, String, String, boolean, BadInputMode, Properties, OffsetsInitializer)};
     * use it with {@link #alignedWatermarks}.
     *
     * @param layout the topics to read
     * @return the source
     * @throws IllegalArgumentException when the bootstrap servers or the group id are blank, or the pattern is not a
     *     valid regular expression
     */
    public static KafkaSource<SourceRecord> create(String bootstrapServers, TopicLayout layout, String groupId,
            boolean bounded, BadInputMode badInputMode, Properties consumerProperties,
            OffsetsInitializer startingOffsets) {
        requireText(bootstrapServers, "bootstrap servers");
        requireText(groupId, "consumer group id");
        Objects.requireNonNull(layout, "layout");
        KafkaSourceBuilder<SourceRecord> builder = builder(bootstrapServers, groupId, badInputMode,
                consumerProperties, startingOffsets);
        if (layout.tableTopicPattern() != null) {
            builder.setTopicPattern(subscription(layout));
        } else {
            List<String> topics = new ArrayList<>(layout.tableTopics());
            topics.add(layout.transactionTopic());
            builder.setTopics(topics);
        }
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    /**
     * The pattern the source subscribes to for a layout whose table topics are given by a pattern: a topic matches
     * when the whole name matches the table pattern or is the transaction topic.
     *
     * @param layout a layout with a {@link TopicLayout#tableTopicPattern()}
     * @return {@code (?:PATTERN)|\QTRANSACTION_TOPIC\E}
     * @throws IllegalArgumentException when the table pattern is not a valid regular expression
     */
    static Pattern subscription(TopicLayout layout) {
        String tables = Objects.requireNonNull(layout.tableTopicPattern(), "tableTopicPattern");
        try {
            Pattern.compile(tables);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException("the table topic pattern '" + tables + "' is not a regular "
                    + "expression: " + e.getDescription());
        }
        return Pattern.compile("(?:" + tables + ")|" + Pattern.quote(layout.transactionTopic()));
    }

    /**
     * The watermark strategy of the multi-topic layout: event time is the Kafka record timestamp (the
     * {@link KafkaSource} puts it on every record), the watermark follows it ({@code forMonotonousTimestamps}: the
     * alignment needs how far each partition has read, not a bound on lateness; nothing downstream uses event time),
     * and Flink's split-level watermark alignment pauses every partition (split) whose watermark is more than
     * {@code maxDrift} ahead of the lowest watermark of the group, checked every {@code updateInterval}
     * ({@code WatermarkStrategy#withWatermarkAlignment}; Flink docs "Watermark alignment", which the Kafka connector
     * supports per split since its 3.0 line). A partition that gives no record for {@code maxDrift} (an idle table
     * topic) is marked idle and excluded from the lowest watermark, so it does not hold the others back.
     *
     * @param maxDrift how far, in record time, a partition may run ahead of the slowest active one (&gt; 0)
     * @param updateInterval how often the source's coordinator recomputes the allowed watermark (&gt; 0)
     * @return the strategy, group {@value #ALIGNMENT_GROUP}
     * @throws IllegalArgumentException for a drift or interval that is not positive
     */
    public static WatermarkStrategy<SourceRecord> alignedWatermarks(Duration maxDrift, Duration updateInterval) {
        if (maxDrift.isNegative() || maxDrift.isZero() || updateInterval.isNegative() || updateInterval.isZero()) {
            throw new IllegalArgumentException("the topic drift and its update interval must be positive, got "
                    + maxDrift + " and " + updateInterval);
        }
        return WatermarkStrategy.<SourceRecord>forMonotonousTimestamps()
                .withWatermarkAlignment(ALIGNMENT_GROUP, maxDrift, updateInterval)
                .withIdleness(maxDrift);
    }

    private static KafkaSourceBuilder<SourceRecord> builder(String bootstrapServers, String groupId,
            BadInputMode badInputMode, Properties consumerProperties, OffsetsInitializer startingOffsets) {
        Objects.requireNonNull(consumerProperties, "consumerProperties");
        Properties properties = new Properties();
        properties.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.putAll(consumerProperties);
        return KafkaSource.<SourceRecord>builder()
                .setBootstrapServers(bootstrapServers)
                .setGroupId(groupId)
                .setStartingOffsets(startingOffsets)
                .setDeserializer(new SourceRecordDeserializationSchema(badInputMode))
                .setProperties(properties);
    }

    private static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the Kafka source needs a " + what);
        }
    }
}
