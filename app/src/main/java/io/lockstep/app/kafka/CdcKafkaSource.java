package io.lockstep.app.kafka;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.SourceRecord;
import java.util.Objects;
import java.util.Properties;
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
 */
public final class CdcKafkaSource {

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
        Objects.requireNonNull(consumerProperties, "consumerProperties");
        Properties properties = new Properties();
        properties.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.putAll(consumerProperties);
        KafkaSourceBuilder<SourceRecord> builder = KafkaSource.<SourceRecord>builder()
                .setBootstrapServers(bootstrapServers)
                .setTopics(topic)
                .setGroupId(groupId)
                .setStartingOffsets(startingOffsets)
                .setDeserializer(new SourceRecordDeserializationSchema(badInputMode))
                .setProperties(properties);
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    private static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the Kafka source needs a " + what);
        }
    }
}
