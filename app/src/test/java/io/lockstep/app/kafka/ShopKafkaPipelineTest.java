package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.TransactionStreams;
import io.lockstep.app.demo.ShopChange;
import io.lockstep.app.demo.ShopInvariants;
import io.lockstep.app.demo.ShopSchema;
import io.lockstep.app.demo.ShopState;
import io.lockstep.app.demo.ShopTransaction;
import io.lockstep.app.demo.ShopTransactionGenerator;
import io.lockstep.app.demo.ShopTransactionWriter;
import io.lockstep.app.demo.ShopWorkload;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demo's input path end to end: generator → embedded Kafka (2 partitions) → Flink KafkaSource
 * (bounded) → decode and assembly at parallelism 2. The collected rows must hold every source transaction
 * whole and in order per partition, and applying them reproduces the generator's expected state.
 */
class ShopKafkaPipelineTest {

    private static final String TOPIC = "shop.cdc";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() throws InterruptedException {
        kafka = EmbeddedKafka.start();
        kafka.createTopic(TOPIC, 2);
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void everySourceTransactionArrivesWholeAndTheRowsRebuildTheExpectedState() throws Exception {
        ShopTransactionGenerator generator = new ShopTransactionGenerator(new ShopWorkload(2026, 2, 60, 100, 250),
                Clock.systemUTC());
        List<ShopTransaction> transactions = new ArrayList<>();
        try (ShopTransactionWriter writer = new ShopTransactionWriter(kafka.bootstrapServers(), TOPIC)) {
            for (int i = 0; i < 400; i++) {
                ShopTransaction transaction = generator.next();
                transactions.add(transaction);
                writer.write(transaction);
            }
            writer.flush();
        }
        // Deletes (each followed by a tombstone in the topic) and a bulk order are part of the run.
        assertThat(transactions).anyMatch(t -> t.changes().stream().anyMatch(c -> c.op() == ShopChange.Op.DELETE));
        assertThat(transactions).anyMatch(t -> t.changes().size() > 100);

        Map<Integer, List<LoadRow>> actual = new TreeMap<>();
        for (LoadRow row : runPipeline()) {
            actual.computeIfAbsent(row.getSourcePartition(), p -> new ArrayList<>()).add(row);
        }
        Map<Integer, List<ShopTransaction>> expected = new TreeMap<>();
        for (ShopTransaction transaction : transactions) {
            expected.computeIfAbsent(transaction.partition(), p -> new ArrayList<>()).add(transaction);
        }
        assertThat(actual.keySet()).containsExactly(0, 1);

        ShopState replayed = new ShopState();
        for (Map.Entry<Integer, List<ShopTransaction>> partition : expected.entrySet()) {
            Iterator<LoadRow> rows = actual.get(partition.getKey()).iterator();
            for (ShopTransaction transaction : partition.getValue()) {
                List<ShopChange> changes = transaction.changes();
                for (int i = 0; i < changes.size(); i++) {
                    assertThat(rows.hasNext()).as("rows of transaction %s", transaction.id()).isTrue();
                    LoadRow row = rows.next();
                    assertRowIs(row, changes.get(i), i == changes.size() - 1, transaction);
                    replayed.applyLoadRow(row.getTable(), row.getRow());
                }
                assertThat(ShopInvariants.check(replayed)).as("after transaction %s", transaction.id()).isEmpty();
            }
            assertThat(rows.hasNext()).as("rows after the last transaction of partition %d", partition.getKey())
                    .isFalse();
        }
        assertThat(replayed.differences(generator.expectedState(), 10)).isEmpty();
        assertThat(replayed).isEqualTo(generator.expectedState());
    }

    @Test
    void thePacedWriterKeepsItsRateForTheDurationAndWritesWholeTransactions() throws Exception {
        kafka.createTopic("paced", 1);
        FakeTicker ticker = new FakeTicker();
        ShopTransactionGenerator generator = new ShopTransactionGenerator(ShopWorkload.of(3, 1), Clock.systemUTC());
        long written;
        long messages;
        try (ShopTransactionWriter writer = new ShopTransactionWriter(kafka.bootstrapServers(), "paced")) {
            written = writer.writePaced(generator, 200, 500, ticker);
            messages = writer.writtenMessages();
            assertThat(writer.writtenTransactions()).isEqualTo(written);
        }
        // 200 per second for 500 ms: transactions due at 0, 5, ..., 495 ms.
        assertThat(written).isEqualTo(100);
        assertThat(ticker.nowNanos).isEqualTo(495_000_000L);
        assertThat(generator.generatedTransactions()).isEqualTo(100);

        List<JsonNode> values = readAll("paced", messages);
        assertThat(values).hasSize((int) messages);
        assertThat(values.get(0).get("status").asText()).isEqualTo("BEGIN");
        assertThat(values.get(values.size() - 1).get("status").asText()).isEqualTo("END");
        assertThat(values.stream().filter(v -> "END".equals(v.path("status").asText())).count()).isEqualTo(100);
    }

    @Test
    void stopEndsThePacedWriterAfterAWholeTransaction() throws Exception {
        kafka.createTopic("stopped", 1);
        ShopTransactionGenerator generator = new ShopTransactionGenerator(ShopWorkload.of(4, 1), Clock.systemUTC());
        try (ShopTransactionWriter writer = new ShopTransactionWriter(kafka.bootstrapServers(), "stopped")) {
            FakeTicker ticker = new FakeTicker() {
                @Override
                public void sleepNanos(long nanos) {
                    super.sleepNanos(nanos);
                    if (writer.writtenTransactions() == 10) {
                        writer.stop();
                    }
                }
            };
            long written = writer.writePaced(generator, 100, 60_000, ticker);
            assertThat(written).isEqualTo(11);
            List<JsonNode> values = readAll("stopped", writer.writtenMessages());
            assertThat(values.get(values.size() - 1).get("status").asText()).isEqualTo("END");
            assertThat(values.stream().filter(v -> "BEGIN".equals(v.path("status").asText())).count()).isEqualTo(11);
        }
    }

    /** A ticker whose time moves only when the writer sleeps. */
    private static class FakeTicker implements ShopTransactionWriter.Ticker {
        long nowNanos;

        @Override
        public long nanoTime() {
            return nowNanos;
        }

        @Override
        public void sleepNanos(long nanos) {
            assertThat(nanos).isPositive();
            nowNanos += nanos;
        }
    }

    /** Reads {@code count} values from partition 0 of the topic (bounded by the count, not by time). */
    private static List<JsonNode> readAll(String topic, long count) throws Exception {
        Properties properties = new Properties();
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        List<JsonNode> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            for (int polls = 0; values.size() < count && polls < 200; polls++) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value() == null ? JSON.nullNode() : JSON.readTree(record.value()));
                }
            }
        }
        return values;
    }

    private static void assertRowIs(LoadRow row, ShopChange change, boolean last,
            ShopTransaction transaction) throws Exception {
        String where = "transaction " + transaction.id() + " change on " + change.table().name();
        assertThat(row.getDatabase()).as(where).isEqualTo(ShopSchema.DATABASE);
        assertThat(row.getTable()).as(where).isEqualTo(change.table().name());
        assertThat(row.isTransactionEnd()).as(where + " transactionEnd").isEqualTo(last);
        JsonNode json = JSON.readTree(row.getRow());
        boolean delete = json.has("__op") && json.get("__op").asInt() == 1;
        assertThat(delete).as(where + " is a delete").isEqualTo(change.op() == ShopChange.Op.DELETE);
        ShopState single = new ShopState();
        single.applyLoadRow(change.table().name(), deleteFlagRemoved(row.getRow()));
        assertThat(single.rows(change.table()).values()).as(where).containsExactly(change.loadedImage());
    }

    private static String deleteFlagRemoved(String row) throws Exception {
        ObjectNode json = (ObjectNode) JSON.readTree(row);
        json.remove("__op");
        return JSON.writeValueAsString(json);
    }

    private static List<LoadRow> runPipeline() throws Exception {
        Configuration configuration = new Configuration();
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, configuration);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        DataStream<SourceRecord> records = env.fromSource(
                CdcKafkaSource.create(kafka.bootstrapServers(), TOPIC, "shop-pipeline-test", true, BadInputMode.FAIL),
                WatermarkStrategy.noWatermarks(), "kafka " + TOPIC);
        DataStream<SinkInput> rows = TransactionStreams.assemble(records, CdcFormat.DEBEZIUM,
                new DebeziumDecoder(ShopSchema.keyColumnsBySourceTable()),
                TableRouter.parse(null, ShopSchema.DATABASE, UnknownTableMode.FAIL), AssemblerOptions.defaults());
        List<LoadRow> collected = new ArrayList<>();
        rows.executeAndCollect("shop-kafka-pipeline-test")
                .forEachRemaining(input -> collected.add((LoadRow) input)); // no control marks on good input
        return collected;
    }
}
