package io.lockstep.e2e.resend;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads topic partitions from their beginning, without a consumer group, as text (the JSON converter writes UTF-8
 * JSON): partition 0 of one topic ({@link #TopicReader(String, String)}, the routed layout) or every partition of
 * several topics ({@link #allPartitions}, Debezium's default layout). Not thread-safe: one owner.
 */
public final class TopicReader implements AutoCloseable {

    private static final Comparator<TopicRecord> TOPIC_ORDER = Comparator.comparing(TopicRecord::topic)
            .thenComparingInt(TopicRecord::partition).thenComparingLong(TopicRecord::offset);

    private final KafkaConsumer<String, String> consumer;
    private final List<TopicPartition> partitions;

    /**
     * @param bootstrapServers the brokers, {@code host:port}
     * @param topic the topic; only its partition 0 is read
     */
    public TopicReader(String bootstrapServers, String topic) {
        this(consumer(bootstrapServers), List.of(new TopicPartition(topic, 0)));
    }

    private TopicReader(KafkaConsumer<String, String> consumer, List<TopicPartition> partitions) {
        this.consumer = consumer;
        this.partitions = List.copyOf(partitions);
        consumer.assign(this.partitions);
    }

    /**
     * @param bootstrapServers the brokers, {@code host:port}
     * @param topics the topics, which must exist; every partition of each is read
     * @return a reader of every partition the topics have now
     * @throws IllegalStateException naming a topic the broker does not know
     */
    public static TopicReader allPartitions(String bootstrapServers, List<String> topics) {
        KafkaConsumer<String, String> consumer = consumer(bootstrapServers);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
            if (infos == null || infos.isEmpty()) {
                consumer.close(Duration.ofSeconds(5));
                throw new IllegalStateException("topic " + topic + " has no partitions (does it exist?)");
            }
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
        }
        return new TopicReader(consumer, partitions);
    }

    private static KafkaConsumer<String, String> consumer(String bootstrapServers) {
        return new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50),
                new StringDeserializer(), new StringDeserializer());
    }

    /** @return the partitions this reader reads */
    public List<TopicPartition> partitions() {
        return partitions;
    }

    /**
     * @return the end offset of the one partition this reader reads: the number of records written so far
     * @throws IllegalStateException when it reads several partitions ({@link #endOffsets()})
     */
    public long endOffset() {
        if (partitions.size() != 1) {
            throw new IllegalStateException("endOffset() of one partition, but this reader reads " + partitions);
        }
        return endOffsets().get(partitions.get(0));
    }

    /** @return per partition read, its end offset: the offset the next record written to it gets */
    public Map<TopicPartition, Long> endOffsets() {
        return consumer.endOffsets(partitions, Duration.ofSeconds(10));
    }

    /**
     * @return the records after those the previous call (or {@link #readAll()}) returned, as far as one poll of up
     *     to 20 ms gets; in offset order per partition
     */
    public List<TopicRecord> pollNew() {
        List<TopicRecord> records = new ArrayList<>();
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(20))) {
            records.add(record(r));
        }
        return records;
    }

    /**
     * @return every record up to the end offsets each partition has now, sorted by topic, partition and offset
     * @throws IllegalStateException when that takes more than 30 s
     */
    public List<TopicRecord> readAll() {
        Map<TopicPartition, Long> ends = endOffsets();
        consumer.seekToBeginning(partitions);
        List<TopicRecord> records = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not read " + partitions + " up to offsets " + ends
                        + " within 30 s; read " + records.size());
            }
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                records.add(record(r));
            }
        }
        records.sort(TOPIC_ORDER);
        return records;
    }

    private static TopicRecord record(ConsumerRecord<String, String> r) {
        return new TopicRecord(r.topic(), r.partition(), r.offset(), r.key(), r.value());
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
