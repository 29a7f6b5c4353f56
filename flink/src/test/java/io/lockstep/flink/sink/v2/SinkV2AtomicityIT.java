package io.lockstep.flink.sink.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Atomic visibility across tables through the multi-table Sink V2 sink: while 4 source partitions stream
 * transactions of one order and 3 items into DUPLICATE KEY tables (commit timer 100 ms), a reader samples both
 * tables in one snapshot, again and again; no sample may show an order without all its items or items without
 * their order, and the end state holds every row once.
 */
class SinkV2AtomicityIT {
    private static final int TXNS = 600;
    private static final int ITEMS = 3;

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE shop;"
                    + "CREATE TABLE shop.orders (order_id BIGINT NOT NULL, source_partition INT, status VARCHAR(32))"
                    + " DUPLICATE KEY (order_id);"
                    + "CREATE TABLE shop.order_items (order_id BIGINT NOT NULL, line_no INT NOT NULL, "
                    + "sku VARCHAR(64), quantity INT) DUPLICATE KEY (order_id, line_no);"));

    @Test
    void aSustainedReaderNeverSeesPartOfASourceTransaction() throws Exception {
        SinkV2Jobs.reset("v2-atomic");
        StarRocksSinkOptions options = StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl().replace("http://", ""))
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("password", "")
                .withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "100")
                .withProperty("sink.label-prefix", "v2atomic")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true")
                .build();
        StreamExecutionEnvironment env = SinkV2Jobs.env(500, 0);
        SinkV2Jobs.transactions(env, TXNS, 60, new SinkV2Jobs.TransactionRows("v2-atomic", -1,
                        SinkV2Jobs.order(4, ITEMS)))
                .keyBy(DefaultStarRocksRowData::getSourcePartition)
                .sinkTo(LockstepSinks.createSink(options));
        JobClient job = env.executeAsync("v2 atomic visibility");

        List<String> violations = new ArrayList<>();
        int[] samplesWithData = {0};
        await().pollInterval(Duration.ofMillis(20)).atMost(Duration.ofSeconds(120)).until(() -> {
            List<Object> row = sr.emulator().query("SELECT (SELECT COUNT(*) FROM shop.orders), "
                    + "(SELECT COUNT(*) FROM shop.order_items)").rows().get(0);
            long orders = ((Number) row.get(0)).longValue();
            long items = ((Number) row.get(1)).longValue();
            if (items != ITEMS * orders) {
                violations.add(orders + " orders but " + items + " order_items");
            }
            if (orders > 0 && orders < TXNS) {
                samplesWithData[0]++;
            }
            return job.getJobStatus().get().isGloballyTerminalState();
        });
        job.getJobExecutionResult().get();

        assertThat(violations).isEmpty();
        assertThat(samplesWithData[0]).as("samples taken while the job was half-way").isGreaterThan(5);
        assertThat(sr.emulator().query("SELECT (SELECT COUNT(*) FROM shop.orders), "
                + "(SELECT COUNT(DISTINCT order_id) FROM shop.orders), (SELECT COUNT(*) FROM shop.order_items)")
                .rows().get(0)).extracting(v -> ((Number) v).longValue())
                .containsExactly((long) TXNS, (long) TXNS, (long) ITEMS * TXNS);
    }
}
