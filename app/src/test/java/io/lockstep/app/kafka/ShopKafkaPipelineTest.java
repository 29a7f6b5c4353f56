package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
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
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
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

        Map<Integer, List<DefaultStarRocksRowData>> actual = new TreeMap<>();
        for (DefaultStarRocksRowData row : runPipeline()) {
            actual.computeIfAbsent(row.getSourcePartition(), p -> new ArrayList<>()).add(row);
        }
        Map<Integer, List<ShopTransaction>> expected = new TreeMap<>();
        for (ShopTransaction transaction : transactions) {
            expected.computeIfAbsent(transaction.partition(), p -> new ArrayList<>()).add(transaction);
        }
        assertThat(actual.keySet()).containsExactly(0, 1);

        ShopState replayed = new ShopState();
        for (Map.Entry<Integer, List<ShopTransaction>> partition : expected.entrySet()) {
            Iterator<DefaultStarRocksRowData> rows = actual.get(partition.getKey()).iterator();
            for (ShopTransaction transaction : partition.getValue()) {
                List<ShopChange> changes = transaction.changes();
                for (int i = 0; i < changes.size(); i++) {
                    assertThat(rows.hasNext()).as("rows of transaction %s", transaction.id()).isTrue();
                    DefaultStarRocksRowData row = rows.next();
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

    private static void assertRowIs(DefaultStarRocksRowData row, ShopChange change, boolean last,
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
        com.fasterxml.jackson.databind.node.ObjectNode json =
                (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(row);
        json.remove("__op");
        return JSON.writeValueAsString(json);
    }

    private static List<DefaultStarRocksRowData> runPipeline() throws Exception {
        Configuration configuration = new Configuration();
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, configuration);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        DataStream<SourceRecord> records = env.fromSource(
                CdcKafkaSource.create(kafka.bootstrapServers(), TOPIC, "shop-pipeline-test", true, BadInputMode.FAIL),
                WatermarkStrategy.noWatermarks(), "kafka " + TOPIC);
        DataStream<DefaultStarRocksRowData> rows = TransactionStreams.assemble(records, CdcFormat.DEBEZIUM,
                new DebeziumDecoder(ShopSchema.keyColumnsBySourceTable()),
                TableRouter.parse(null, ShopSchema.DATABASE, UnknownTableMode.FAIL), AssemblerOptions.defaults());
        List<DefaultStarRocksRowData> collected = new ArrayList<>();
        rows.executeAndCollect("shop-kafka-pipeline-test").forEachRemaining(collected::add);
        return collected;
    }
}
