package io.lockstep.app.deadletter;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends dead letters to a Kafka topic with the Kafka producer ({@code acks=all}, idempotent): one record per event
 * ({@link DeadLetterFormat} as the value, the event's own key as the key), and waits for every acknowledgement before
 * {@link #write} returns. The producer is created at the first letter, so a job without bad input opens no
 * connection for it. Task thread only.
 */
final class TopicDeadLetterWriter implements DeadLetterWriter {

    private final String topic;
    private final Properties settings;
    private final Clock clock;
    /** Created at the first letter; task thread only. */
    private KafkaProducer<String, String> producer;

    /**
     * @param topic the dead-letter topic (it must exist: the pre-flight check asks the brokers)
     * @param settings producer settings: {@code bootstrap.servers} and the source's connection settings
     */
    TopicDeadLetterWriter(String topic, Properties settings, Clock clock) {
        this.topic = topic;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void write(DeadLetter letter) throws IOException {
        if (producer == null) {
            Properties properties = new Properties();
            settings.forEach((name, value) -> {
                if (ProducerConfig.configNames().contains(String.valueOf(name))) {
                    properties.put(name, value); // the source's consumer-only settings are left out
                }
            });
            properties.put(ProducerConfig.ACKS_CONFIG, "all");
            properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
        }
        List<String> records = DeadLetterFormat.records(letter, clock.instant());
        List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            sent.add(producer.send(new ProducerRecord<>(topic, letter.events().get(i).getKey(), records.get(i))));
        }
        try {
            for (Future<RecordMetadata> ack : sent) {
                ack.get();
            }
        } catch (ExecutionException e) {
            throw new IOException("dead-letter topic '" + topic + "' refused " + letter.describe() + ": "
                    + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending " + letter.describe() + " to topic '" + topic + "'", e);
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(10));
            producer = null;
        }
    }
}
