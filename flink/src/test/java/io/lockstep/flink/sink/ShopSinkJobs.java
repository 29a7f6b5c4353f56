package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.SinkFunctionFactory;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * The shop-like schema, the sink options and the job shape shared by the sink ITs: source → keyBy(sourcePartition)
 * → sink (parallelism 2) on an in-JVM MiniCluster, loading into the in-JVM emulator. Tables are DUPLICATE KEY, so a
 * row loaded twice would show in the counts.
 */
final class ShopSinkJobs {
    static final int SINK_PARALLELISM = 2;
    /** Flink's default max parallelism for parallelism 2, used to predict which sink subtask gets a partition. */
    static final int MAX_PARALLELISM = 128;

    static final String DDL = "CREATE DATABASE shop;"
            + "CREATE TABLE shop.orders (order_id BIGINT NOT NULL, source_partition INT, txn_no INT, "
            + "status VARCHAR(32)) DUPLICATE KEY (order_id) DISTRIBUTED BY HASH(order_id);"
            + "CREATE TABLE shop.order_items (order_id BIGINT NOT NULL, line_no INT NOT NULL, sku VARCHAR(64), "
            + "quantity INT) DUPLICATE KEY (order_id, line_no) DISTRIBUTED BY HASH(order_id);"
            + "CREATE DATABASE audit;"
            + "CREATE TABLE audit.events (event_id BIGINT NOT NULL, note VARCHAR(64)) DUPLICATE KEY (event_id) "
            + "DISTRIBUTED BY HASH(event_id);";

    private ShopSinkJobs() {
    }

    /** A MiniCluster with 2 slots and no restarts (a failing job fails its test instead of retrying forever). */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(SINK_PARALLELISM)
                .setConfiguration(new Configuration().set(RestartStrategyOptions.RESTART_STRATEGY, "none"))
                .build());
    }

    /** Multi-table options against the emulator, routing by each row's database and table. */
    static StarRocksSinkOptions.Builder multiTableOptions(StarRocksEmulator sr, long commitIntervalMs) {
        return StarRocksSinkOptions.builder()
                .withProperty("jdbc-url", sr.jdbcUrl())
                .withProperty("load-url", sr.feUrl())
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("password", "")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", String.valueOf(commitIntervalMs))
                .withProperty("sink.label-prefix", "it")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true");
    }

    /**
     * An environment on the MiniCluster with parallelism 2 and checkpoints every {@code checkpointMs}; 0 = none
     * (see {@link #envWithoutCheckpoints()}).
     */
    static StreamExecutionEnvironment env(long checkpointMs) {
        StreamExecutionEnvironment env = envWithoutCheckpoints();
        if (checkpointMs > 0) {
            env.enableCheckpointing(checkpointMs);
        }
        return env;
    }

    /**
     * An environment with parallelism 2 and no checkpoints, for tests where only the end of input may commit (Flink
     * takes the first checkpoint after a random delay of up to one interval, so a long interval is not enough).
     */
    static StreamExecutionEnvironment envWithoutCheckpoints() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(SINK_PARALLELISM);
        return env;
    }

    /** source (parallelism 1) → keyBy(sourcePartition) → the factory's sink. */
    @SuppressWarnings("deprecation")
    static void pipeline(StreamExecutionEnvironment env, ScriptSource source, StarRocksSinkOptions options) {
        DataStream<DefaultStarRocksRowData> rows = env.addSource(source, "script").setParallelism(1);
        rows.keyBy(DefaultStarRocksRowData::getSourcePartition)
                .addSink(SinkFunctionFactory.createSinkFunction(options)).name("starrocks");
    }

    /** One source transaction: an order and {@code items} items; the last row ends the transaction. */
    static List<TxnRow> orderTxn(int partition, long orderId, int items) {
        List<TxnRow> rows = new ArrayList<>();
        rows.add(TxnRow.data(partition, "shop", "orders", "{\"order_id\":" + orderId + ",\"source_partition\":"
                + partition + ",\"txn_no\":" + (orderId % 1_000_000) + ",\"status\":\"NEW\"}"));
        for (int line = 1; line <= items; line++) {
            rows.add(TxnRow.data(partition, "shop", "order_items", "{\"order_id\":" + orderId + ",\"line_no\":"
                    + line + ",\"sku\":\"sku-" + line + "\",\"quantity\":" + line + "}"));
        }
        rows.set(rows.size() - 1, rows.get(rows.size() - 1).withEnd());
        return rows;
    }

    /** The same transaction without its end mark (the rows of a source transaction still open). */
    static List<TxnRow> openOrderTxn(int partition, long orderId, int items) {
        List<TxnRow> rows = new ArrayList<>(orderTxn(partition, orderId, items));
        TxnRow last = rows.get(rows.size() - 1);
        rows.set(rows.size() - 1, new TxnRow(last.partition(), last.database(), last.table(), last.json(), false));
        return rows;
    }

    /** A long scalar from a one-value query. */
    static long scalar(StarRocksEmulator sr, String sql) {
        return ((Number) sr.query(sql).rows().get(0).get(0)).longValue();
    }

    static long count(StarRocksEmulator sr, String table) {
        return scalar(sr, "SELECT COUNT(*) FROM " + table);
    }

    /** The sink subtask that keyBy(sourcePartition) sends {@code partition} to. */
    static int sinkSubtaskOf(int partition) {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(partition, MAX_PARALLELISM, SINK_PARALLELISM);
    }

    /** The first {@code n} partitions that land on the same sink subtask as partition 0. */
    static int[] partitionsOnOneSubtask(int n) {
        int[] result = new int[n];
        int found = 0;
        for (int p = 0; found < n; p++) {
            if (sinkSubtaskOf(p) == sinkSubtaskOf(0)) {
                result[found++] = p;
            }
        }
        return result;
    }

    /**
     * {@code n} partitions spread evenly over the sink subtasks (alternating), so every subtask loads. Plain 0..3 would
     * not do: keyBy sends partitions 0, 1, 2 and 3 all to subtask 1.
     */
    static int[] spreadPartitions(int n) {
        int[] result = new int[n];
        int[] next = new int[SINK_PARALLELISM];
        for (int i = 0; i < n; i++) {
            int subtask = i % SINK_PARALLELISM;
            int p = next[subtask];
            while (sinkSubtaskOf(p) != subtask) {
                p++;
            }
            result[i] = p;
            next[subtask] = p + 1;
        }
        return result;
    }

    /** Waits (bounded) for a job to end and returns its result; rethrows its failure. */
    static JobExecutionResult awaitEnd(JobClient job) throws Exception {
        return job.getJobExecutionResult().get(120, TimeUnit.SECONDS);
    }
}
