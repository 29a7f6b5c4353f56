package io.lockstep.e2e.resend;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads partition 0 of one topic from its beginning, without a consumer group, as text (the JSON converter writes
 * UTF-8 JSON). Not thread-safe: one owner.
 */
public final class TopicReader implements AutoCloseable {

    private final KafkaConsumer<String, String> consumer;
    private final TopicPartition partition;

    /**
     * @param bootstrapServers the brokers, {@code host:port}
     * @param topic the topic; only its partition 0 is read
     */
    public TopicReader(String bootstrapServers, String topic) {
        this.partition = new TopicPartition(topic, 0);
        this.consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50),
                new StringDeserializer(), new StringDeserializer());
        consumer.assign(List.of(partition));
    }

    /** @return the partition's end offset: the number of records written so far */
    public long endOffset() {
        return consumer.endOffsets(List.of(partition), Duration.ofSeconds(10)).get(partition);
    }

    /**
     * @return the records after those the previous call (or {@link #readAll()}) returned, as far as one poll of up
     *     to 20 ms gets
     */
    public List<TopicRecord> pollNew() {
        List<TopicRecord> records = new ArrayList<>();
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(20))) {
            records.add(new TopicRecord(r.partition(), r.offset(), r.key(), r.value()));
        }
        return records;
    }

    /** @return every record up to the current end offset, in offset order */
    public List<TopicRecord> readAll() {
        long end = endOffset();
        consumer.seekToBeginning(List.of(partition));
        List<TopicRecord> records = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.position(partition) < end) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not read " + partition + " up to offset " + end
                        + " within 30 s; read " + records.size());
            }
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                records.add(new TopicRecord(r.partition(), r.offset(), r.key(), r.value()));
            }
        }
        return records;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
