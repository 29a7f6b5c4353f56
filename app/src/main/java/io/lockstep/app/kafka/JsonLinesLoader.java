package io.lockstep.app.kafka;

import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.file.JsonLinesInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Loads a JSON-lines file (one CDC message per line, {@link JsonLinesInput}) into partition 0 of a Kafka topic, in
 * file order, for {@code lockstep kafka}. One partition keeps every transaction's events together and in order,
 * as the assemblers need (a topic of more partitions would need the source's own keying).
 *
 * <p>Idempotent producer, {@code acks=all}; returns once the broker acknowledged every line.
 */
public final class JsonLinesLoader {

    private JsonLinesLoader() {
    }

    /**
     * @param bootstrapServers Kafka {@code bootstrap.servers}
     * @param topic an existing topic
     * @param records the file's records ({@link JsonLinesInput#read})
     * @return the number of messages written
     * @throws IllegalStateException naming the topic and the line when the broker refuses a message
     * @throws InterruptedException if interrupted while waiting for the acknowledgements
     */
    public static long load(String bootstrapServers, String topic, List<SourceRecord> records)
            throws InterruptedException {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "lockstep-jsonl-loader");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer())) {
            List<Future<?>> sent = new ArrayList<>();
            for (SourceRecord record : records) {
                sent.add(producer.send(new ProducerRecord<>(topic, 0, null, record.getValue())));
            }
            producer.flush();
            for (int i = 0; i < sent.size(); i++) {
                try {
                    sent.get(i).get();
                } catch (ExecutionException e) {
                    throw new IllegalStateException("topic '" + topic + "' refused line " + records.get(i).getOffset()
                            + ": " + e.getCause().getMessage(), e.getCause());
                }
            }
            return sent.size();
        }
    }
}
