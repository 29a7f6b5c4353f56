package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.rebuild.TopicLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Rule 9 of the multi-topic layout (docs/sources.md#debeziums-default-layout-one-topic-per-table): with
 * {@link CdcKafkaSource#alignedWatermarks} a partition whose record time runs far ahead of another's is paused while
 * the lagging one is read, and resumes once that one is done. One source reader holds both partitions; the consumer is
 * made to hand out few records per fetch, so without the pause the two partitions would be read interleaved.
 */
class TopicAlignmentTest {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final int RECORDS = 2_000;
    private static final long START_MS = 1_700_000_000_000L;

    @Test
    void aPartitionFarAheadInRecordTimeWaitsUntilTheLaggingOneIsRead() throws Exception {
        KAFKA.createTopic("db.public.ahead", 1);
        KAFKA.createTopic("db.public.behind", 1);
        KAFKA.createTopic("db.transaction", 1);
        produce("db.public.ahead", START_MS + Duration.ofHours(1).toMillis());
        produce("db.public.behind", START_MS);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.getConfig().setAutoWatermarkInterval(5); // the split watermarks the alignment compares, every 5 ms
        Properties consumer = new Properties();
        consumer.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10");
        consumer.setProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "1024"); // partitions interleave
        TopicLayout layout = new TopicLayout("db.transaction", List.of("db.public.ahead", "db.public.behind"), null,
                TopicLayout.DEFAULT_MAX_PENDING_BYTES, -1);
        List<String> seen = new ArrayList<>(); // topics, in the order the source emitted their records
        try (CloseableIterator<String> topics = env.fromSource(CdcKafkaSource.create(KAFKA.bootstrapServers(),
                                layout, "alignment-test", true, BadInputMode.FAIL, consumer,
                                OffsetsInitializer.earliest()),
                        CdcKafkaSource.alignedWatermarks(Duration.ofSeconds(1), Duration.ofMillis(5)), "kafka")
                .map(new TopicOf()).executeAndCollect("alignment")) {
            topics.forEachRemaining(seen::add);
        }
        assertThat(seen).hasSize(2 * RECORDS); // nothing is lost or stuck: the paused partition resumes
        StringBuilder runs = new StringBuilder();
        for (int i = 0; i < seen.size(); i++) {
            if (i == 0 || !seen.get(i).equals(seen.get(i - 1))) {
                runs.append(" ").append(i).append(":").append(seen.get(i));
            }
        }
        int lastBehind = seen.lastIndexOf("db.public.behind");
        long aheadBeforeThat = seen.subList(0, lastBehind).stream().filter("db.public.ahead"::equals).count();
        // only what was fetched before the first alignment update (every 5 ms) may slip through
        assertThat(aheadBeforeThat)
                .as("records of the leading partition read before the lagging one was done; runs:%s", runs)
                .isLessThan(RECORDS / 4);
    }

    private static void produce(String topic, long firstTimestampMs) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, "256"); // small record batches: a fetch is a few records
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, 0, firstTimestampMs + i, "k" + i, "{\"n\":" + i + "}"));
            }
            producer.flush();
        }
    }

    /** The topic of a record. */
    private static final class TopicOf implements MapFunction<SourceRecord, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String map(SourceRecord record) {
            return record.getTopic();
        }
    }
}
