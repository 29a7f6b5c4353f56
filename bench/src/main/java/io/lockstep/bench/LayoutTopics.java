package io.lockstep.bench;

import io.lockstep.app.kafka.EmbeddedKafka;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The {@link PgOrderWorkload} written into Kafka in one of the two layouts {@code lockstep run} reads
 * (docs/sources.md): {@link Layout#ONE_TOPIC}, every message routed into one topic of one partition in commit order
 * (BEGIN, data events, END), or {@link Layout#TOPIC_PER_TABLE}, Debezium's default: one topic per table
 * {@code <prefix>.public.<table>} of {@value #TABLE_PARTITIONS} partitions, each data event keyed by its primary key
 * (Kafka's default partitioner hashes the key, as Kafka Connect's producer does), and BEGIN/END in the one-partition
 * transaction topic {@code <prefix>.transaction}.
 */
final class LayoutTopics {
    /** Partitions of each table topic in the per-table layout. */
    static final int TABLE_PARTITIONS = 4;

    /** How the workload's messages are spread over topics. */
    enum Layout {
        /** One topic, one partition: BEGIN, data events, END in order (the transaction topic routed into it). */
        ONE_TOPIC("one topic"),
        /** One topic per table (4 partitions, keyed by primary key) plus the one-partition transaction topic. */
        TOPIC_PER_TABLE("topic per table");

        private final String label;

        Layout(String label) {
            this.label = label;
        }

        /** @return how the report names it */
        String label() {
            return label;
        }
    }

    /**
     * The topics one layout was written into.
     *
     * @param layout the layout
     * @param prefix the topics' prefix (Debezium's {@code topic.prefix})
     * @param tableTopics the topics holding the data events (the one topic in {@link Layout#ONE_TOPIC})
     * @param transactionTopic the transaction topic, or {@code null} in {@link Layout#ONE_TOPIC}
     * @param transactions source transactions written
     * @param rowsPerTable data events written per table
     * @param messages Kafka messages written in all
     */
    record Written(Layout layout, String prefix, List<String> tableTopics, String transactionTopic,
                   long transactions, Map<String, Long> rowsPerTable, long messages) {

        /** @return data events (rows) written over all tables */
        long rows() {
            return rowsPerTable.values().stream().mapToLong(Long::longValue).sum();
        }

        /** @return the {@code lockstep run} options naming the topics to read */
        List<String> topicOptions() {
            List<String> options = new ArrayList<>(List.of("--topic", String.join(",", tableTopics)));
            if (transactionTopic != null) {
                options.addAll(List.of("--transaction-topic", transactionTopic));
            }
            return options;
        }
    }

    private LayoutTopics() {
    }

    /**
     * Creates the layout's topics and writes transactions {@code 0 .. transactions - 1} into them, then waits until
     * the broker acknowledged every message.
     *
     * @param kafka the broker
     * @param layout the layout
     * @param prefix the topic prefix; must not be used by another layout on this broker
     * @param transactions how many source transactions
     * @return what was written where
     * @throws IllegalStateException when the broker refuses a topic or a message (naming it)
     */
    static Written write(EmbeddedKafka kafka, Layout layout, String prefix, long transactions)
            throws InterruptedException {
        List<String> tableTopics = new ArrayList<>();
        String transactionTopic = null;
        Map<String, String> topicOfTable = new LinkedHashMap<>();
        if (layout == Layout.ONE_TOPIC) {
            String topic = prefix + ".cdc";
            kafka.createTopic(topic, 1);
            tableTopics.add(topic);
        } else {
            for (String table : PgOrderWorkload.TABLES) {
                String topic = prefix + "." + PgOrderWorkload.dataCollection(table);
                kafka.createTopic(topic, TABLE_PARTITIONS);
                tableTopics.add(topic);
                topicOfTable.put(table, topic);
            }
            transactionTopic = prefix + ".transaction";
            kafka.createTopic(transactionTopic, 1);
        }
        long messages = 0;
        AtomicReference<String> failure = new AtomicReference<>(); // the first send that failed; producer thread
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties(kafka))) {
            for (long n = 0; n < transactions && failure.get() == null; n++) {
                for (PgOrderWorkload.Message m : PgOrderWorkload.transaction(n)) {
                    String topic = layout == Layout.ONE_TOPIC ? tableTopics.get(0)
                            : m.table() == null ? transactionTopic : topicOfTable.get(m.table());
                    long transaction = n;
                    producer.send(new ProducerRecord<>(topic, m.key(), m.value()), (metadata, error) -> {
                        if (error != null) {
                            failure.compareAndSet(null, "transaction " + transaction + " to topic '" + topic
                                    + "': " + error);
                        }
                    });
                    messages++;
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("writing the " + layout.label() + " layout under '" + prefix
                    + "' failed: " + failure.get());
        }
        return new Written(layout, prefix, List.copyOf(tableTopics), transactionTopic, transactions,
                PgOrderWorkload.rowsPerTable(transactions), messages);
    }

    private static Properties producerProperties(EmbeddedKafka kafka) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
        return p;
    }
}
