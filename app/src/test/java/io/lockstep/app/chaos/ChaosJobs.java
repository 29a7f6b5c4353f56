package io.lockstep.app.chaos;

import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.app.demo.ShopSchema;
import io.lockstep.app.demo.ShopState;
import io.lockstep.app.demo.ShopTransaction;
import io.lockstep.app.demo.ShopTransactionGenerator;
import io.lockstep.app.demo.ShopWorkload;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.storage.QueryResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;

/**
 * The chaos suite's job shapes and expectations: the workload, the Flink environment (parallelism 2, restart
 * strategy), the pipeline source → keyBy(source partition) → sink, the sink options (short timeouts so faults
 * resolve quickly), and the expected final state computed from the generator.
 */
final class ChaosJobs {
    static final int SINK_PARALLELISM = 2;
    static final int GENERATOR_PARTITIONS = 4;
    static final long SOCKET_TIMEOUT_MS = 800;
    static final Path SHOP_DDL = Path.of("..", "examples", "shop.sql");
    static final String EVENTS_DDL = "CREATE DATABASE shop; CREATE TABLE shop.events (event_id BIGINT NOT NULL, "
            + "txn_seq BIGINT, tbl VARCHAR(32), op VARCHAR(4)) DUPLICATE KEY (event_id) "
            + "DISTRIBUTED BY HASH(event_id);";

    private ChaosJobs() {
    }

    /**
     * The schema of the exactly-once multi-table scenario: the shop tables (examples/shop.sql), each with a
     * {@code version} column, the insert-only DUPLICATE KEY change log, and the progress table.
     */
    static String cdcDdl() throws IOException {
        String shop = Files.readString(SHOP_DDL).replace("\n) PRIMARY KEY", ",\n  " + ShopRows.VERSION_COLUMN
                + " BIGINT\n) PRIMARY KEY");
        return shop + "\nCREATE TABLE shop." + ShopRows.LOG_TABLE + " (event_id BIGINT NOT NULL, txn_seq BIGINT, "
                + "tbl VARCHAR(32), op VARCHAR(4)) DUPLICATE KEY (event_id) DISTRIBUTED BY HASH(event_id);\n"
                + new ProgressTable(ShopSchema.DATABASE, ProgressTable.DEFAULT_NAME).createTableSql();
    }

    /** Exactly-once across tables: the shop database fixed, one job id, commit interval 200 ms. */
    static StarRocksSinkOptions exactlyOnceMultiTableOptions(StarRocksEmulator sr, String jobId) {
        return commonOptions(sr)
                .withProperty("database-name", ShopSchema.DATABASE)
                .withProperty("table-name", "*")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.transaction.multi-table.job-id", jobId)
                .withProperty("sink.buffer-flush.interval-ms", "200")
                .withProperty("sink.label-prefix", "chaos")
                .build();
    }

    static DefaultStarRocksRowData row(int partition, String table, String json, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, ShopSchema.DATABASE, table, json);
        row.setSourcePartition(partition);
        row.setTransactionEnd(end);
        return row;
    }

    /** Parallelism 2 and {@code restarts} restarts 10 ms apart, then the job fails. */
    static StreamExecutionEnvironment environment(int restarts) {
        Configuration configuration = new Configuration();
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
        configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        env.setParallelism(SINK_PARALLELISM);
        return env;
    }

    /** 300 customers, bulk orders of 5-20 items (small enough for a 2-minute run, every kind still occurs). */
    static ShopWorkload workload(long seed) {
        return new ShopWorkload(seed, GENERATOR_PARTITIONS, 300, 5, 20);
    }

    /** Parallelism 2, a checkpoint every 100 ms, restarts without end (10 ms apart). */
    static StreamExecutionEnvironment chaosEnvironment() {
        StreamExecutionEnvironment env = environment(Integer.MAX_VALUE);
        env.enableCheckpointing(100);
        return env;
    }

    @SuppressWarnings("deprecation")
    static void pipeline(StreamExecutionEnvironment env, ShopReplaySource source,
            SinkFunction<DefaultStarRocksRowData> sink) {
        env.addSource(source, "shop replay").setParallelism(1)
                .keyBy(DefaultStarRocksRowData::getSourcePartition)
                .addSink(sink).name("starrocks");
    }

    /** Short timeouts and retry intervals, so faults resolve within the suite's time budget. */
    static StarRocksSinkOptions.Builder commonOptions(StarRocksEmulator sr) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.feUrl())
                .withProperty("username", "root")
                .withProperty("password", "")
                .withProperty("sink.version", "V2")
                .withProperty("sink.max-retries", "3")
                .withProperty("sink.retry.interval-ms", "50")
                .withProperty("sink.connect.timeout-ms", "1000")
                .withProperty("sink.socket.timeout-ms", String.valueOf(SOCKET_TIMEOUT_MS))
                .withProperty("sink.scan-frequency.ms", "20")
                .withProperty("sink.properties.timeout", "30")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true");
    }

    static StarRocksSinkOptions multiTableOptions(StarRocksEmulator sr) {
        return commonOptions(sr)
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "200")
                .withProperty("sink.label-prefix", "chaos")
                .build();
    }

    static StarRocksSinkOptions exactlyOnceOptions(StarRocksEmulator sr, String labelPrefix) {
        return commonOptions(sr)
                .withProperty("database-name", "shop")
                .withProperty("table-name", "events")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.label-prefix", labelPrefix)
                .build();
    }

    /** Generator partitions 0..3 mapped to source partitions that keyBy spreads over both sink subtasks. */
    static int[] spreadPartitions() {
        int[] result = new int[GENERATOR_PARTITIONS];
        int[] next = new int[SINK_PARALLELISM];
        for (int i = 0; i < GENERATOR_PARTITIONS; i++) {
            int subtask = i % SINK_PARALLELISM;
            int p = next[subtask];
            while (KeyGroupRangeAssignment.assignKeyToParallelOperator(p, 128, SINK_PARALLELISM) != subtask) {
                p++;
            }
            result[i] = p;
            next[subtask] = p + 1;
        }
        return result;
    }

    static void awaitFirstCheckpoint(ChaosControl control) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
                .until(() -> control.completedPosition.get() > 0);
    }

    /**
     * Lets the source end 40 transactions after what it emitted so far, and waits for the job to finish. Then the
     * transactions a publish timeout left COMMITTED (committed, not yet visible: StarRocks publishes them later)
     * are published at once ({@code Faults.clear()}), so the final read sees every committed transaction.
     */
    static long finish(ChaosControl control, JobClient job, StarRocksEmulator sr) throws Exception {
        long stopAt = control.emittedPosition.get() + 40;
        control.stopAt.set(stopAt);
        job.getJobExecutionResult().get(120, TimeUnit.SECONDS);
        sr.faults().clear();
        return stopAt;
    }

    static void cancel(JobClient job) throws Exception {
        if (!job.getJobStatus().get().isGloballyTerminalState()) {
            job.cancel().get(60, TimeUnit.SECONDS);
        }
    }

    static ShopState expectedShop(ShopWorkload workload, long transactions) {
        ShopTransactionGenerator generator = ShopReplaySource.generator(workload);
        for (long i = 0; i < transactions; i++) {
            generator.next();
        }
        return generator.expectedState();
    }

    static List<Long> expectedEvents(ShopWorkload workload, long transactions) {
        ShopTransactionGenerator generator = ShopReplaySource.generator(workload);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < transactions; i++) {
            ShopTransaction transaction = generator.next();
            for (int c = 0; c < transaction.changes().size(); c++) {
                ids.add(ShopRows.eventId(transaction.sequence(), c));
            }
        }
        return ids;
    }

    /**
     * The four shop tables as committed, one query per table (the job has ended: nothing changes); the
     * {@code version} column of the CDC shape is left out.
     */
    static ShopState readShop(StarRocksEmulator sr) {
        ShopState state = new ShopState();
        for (ShopSchema.Table table : ShopSchema.TABLES) {
            String columns = String.join(", ", table.columns().stream().map(ShopSchema.Column::name).toList());
            QueryResult result = sr.query("SELECT " + columns + " FROM shop." + table.name());
            for (List<Object> row : result.rows()) {
                Map<String, Object> values = new LinkedHashMap<>();
                for (int i = 0; i < result.columns().size(); i++) {
                    values.put(result.columns().get(i).toLowerCase(Locale.ROOT), row.get(i));
                }
                state.upsert(table, values);
            }
        }
        return state;
    }
}
