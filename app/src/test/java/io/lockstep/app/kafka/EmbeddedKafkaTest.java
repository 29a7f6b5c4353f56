package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The in-JVM broker: topics with partitions, and records produced to a partition come back from it. */
class EmbeddedKafkaTest {

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() throws InterruptedException {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
        kafka.close();
    }

    @Test
    void bootstrapServersNameALocalPort() {
        assertThat(kafka.bootstrapServers()).matches("localhost:\\d+");
    }

    @Test
    void createsTopicsWithTheRequestedPartitions() throws InterruptedException {
        kafka.createTopic("three", 3);
        kafka.createTopic("one", 1);
        assertThat(kafka.partitionCounts(List.of("three", "one"))).isEqualTo(Map.of("three", 3, "one", 1));
    }

    @Test
    void creatingAnExistingTopicFailsNamingIt() throws InterruptedException {
        kafka.createTopic("twice", 1);
        assertThatThrownBy(() -> kafka.createTopic("twice", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'twice'");
        assertThatThrownBy(() -> kafka.createTopic("none", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'none'");
    }

    @Test
    void recordsProducedToAPartitionAreConsumedFromItInOrder() throws Exception {
        kafka.createTopic("roundtrip", 2);
        Properties producerProperties = new Properties();
        producerProperties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        producerProperties.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties,
                new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("roundtrip", i % 2, "k" + i, i == 9 ? null : "v" + i)).get();
            }
        }

        Properties consumerProperties = new Properties();
        consumerProperties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        consumerProperties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> partition0 = new ArrayList<>();
        List<String> partition1 = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProperties,
                new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition("roundtrip", 0), new TopicPartition("roundtrip", 1)));
            // Bounded by the record count, not by time: poll returns as soon as records are fetched.
            for (int polls = 0; partition0.size() + partition1.size() < 10 && polls < 100; polls++) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    (record.partition() == 0 ? partition0 : partition1).add(record.key() + "=" + record.value());
                }
            }
        }
        assertThat(partition0).containsExactly("k0=v0", "k2=v2", "k4=v4", "k6=v6", "k8=v8");
        assertThat(partition1).containsExactly("k1=v1", "k3=v3", "k5=v5", "k7=v7", "k9=null");
    }
}
