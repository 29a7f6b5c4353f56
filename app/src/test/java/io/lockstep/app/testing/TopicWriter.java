package io.lockstep.app.testing;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes raw messages (key, value) to one partition of a topic, synchronously, and returns their offsets. */
public final class TopicWriter implements AutoCloseable {
    private final KafkaProducer<String, String> producer;
    private final String topic;

    public TopicWriter(String bootstrap, String topic) {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
        this.topic = topic;
    }

    /** @return the offset of the value written */
    public long send(String value) throws ExecutionException, InterruptedException {
        return send(null, value);
    }

    /** @return the offset of the message written */
    public long send(String key, String value) throws ExecutionException, InterruptedException {
        RecordMetadata metadata = producer.send(new ProducerRecord<>(topic, 0, key, value)).get();
        return metadata.offset();
    }

    /**
     * Writes {@code values} to {@code partition} in order without waiting for each acknowledgement (one
     * producer keeps the order within a partition); {@link #close} waits for them all.
     */
    public void sendAllAsync(int partition, List<String> values) {
        for (String value : values) {
            producer.send(new ProducerRecord<>(topic, partition, null, value));
        }
    }

    /** @return the offset of the last value written */
    public long sendAll(List<String> values) throws ExecutionException, InterruptedException {
        long last = -1;
        for (String value : values) {
            last = send(value);
        }
        return last;
    }

    @Override
    public void close() {
        producer.close();
    }
}
