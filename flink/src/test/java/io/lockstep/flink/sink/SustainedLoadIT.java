package io.lockstep.flink.sink;

import static io.lockstep.flink.sink.ShopSinkJobs.count;
import static io.lockstep.flink.sink.ShopSinkJobs.scalar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.SinkFunctionFactory;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.time.Duration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sustained load: 4 source partitions × 2,000 source transactions of 1 order + 3 items through the multi-table sink
 * (parallelism 2, checkpoints every 500 ms, commit interval 200 ms). A reader checks
 * {@code COUNT(order_items) = 3 * COUNT(orders)} in one snapshot every ~100 ms while the job runs (and paces the
 * source, one batch of 50 rounds per sample, so the samples fall while commits are under way): zero violations, exact
 * final counts (DUPLICATE KEY tables, so a duplicate would show).
 */
class SustainedLoadIT {
    private static final Logger LOG = LoggerFactory.getLogger(SustainedLoadIT.class);
    private static final int PARTITIONS = 4;
    private static final int TXNS_PER_PARTITION = 2_000;
    private static final int ITEMS = 3;

    @RegisterExtension
    static final MiniClusterExtension FLINK = ShopSinkJobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(ShopSinkJobs.DDL));

    private String gatePrefix;
    private int gateCount;
    private JobClient job;

    @AfterEach
    void stopJob() throws Exception {
        for (int b = 0; b < gateCount; b++) {
            Gates.open(PacedOrderSource.gateName(gatePrefix, b));
        }
        if (job != null && !job.getJobStatus().get().isGloballyTerminalState()) {
            job.cancel().get();
        }
    }

    @Test
    void orderItemsStayThreeTimesTheOrdersThroughout() throws Exception {
        gatePrefix = Gates.newName("sustained");
        PacedOrderSource source = new PacedOrderSource(ShopSinkJobs.spreadPartitions(PARTITIONS),
                TXNS_PER_PARTITION, ITEMS, 50, gatePrefix);
        gateCount = source.batches();
        StreamExecutionEnvironment env = ShopSinkJobs.env(500);
        env.addSource(source, "paced orders").setParallelism(1)
                .keyBy(DefaultStarRocksRowData::getSourcePartition)
                .addSink(SinkFunctionFactory.createSinkFunction(
                        ShopSinkJobs.multiTableOptions(sr.emulator(), 200).build()))
                .name("starrocks");
        job = env.executeAsync("sustained load");

        AtomicVisibilityReader reader = new AtomicVisibilityReader(sr.emulator(), ITEMS, gatePrefix);
        await().pollInterval(Duration.ofMillis(100)).atMost(Duration.ofSeconds(150)).until(() -> {
            reader.sample();
            return job.getJobStatus().get().isGloballyTerminalState();
        });
        ShopSinkJobs.awaitEnd(job);
        reader.sample();
        LOG.info("sustained load: {} samples, {} with committed data", reader.samples(), reader.samplesInProgress());

        assertThat(reader.violations()).isEmpty();
        assertThat(reader.samples()).isGreaterThan(gateCount);
        assertThat(count(sr.emulator(), "shop.orders")).isEqualTo((long) PARTITIONS * TXNS_PER_PARTITION);
        assertThat(count(sr.emulator(), "shop.order_items")).isEqualTo((long) PARTITIONS * TXNS_PER_PARTITION * ITEMS);
        assertThat(scalar(sr.emulator(), "SELECT COUNT(DISTINCT order_id) FROM shop.orders"))
                .isEqualTo((long) PARTITIONS * TXNS_PER_PARTITION);
    }
}
