package io.lockstep.flink.sink.v2;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;

/**
 * The job shape of the Sink V2 ITs, written against the API Flink 1.20 and 2.x share (the Source API, no
 * SourceFunction), so the same test sources run on both lines: a bounded {@link DataGeneratorSource} emits source
 * transaction numbers {@code 0..n-1}, a fixed number per checkpoint (so every checkpoint carries new rows and no sleep
 * paces the job; its position is checkpointed, so a restart neither loses nor repeats numbers); a
 * {@link TransactionRows} flatMap turns each number into the rows of one source transaction (one element per
 * transaction, so a checkpoint barrier never falls inside one) and fails the task once when asked.
 */
public final class SinkV2Jobs {
    /** Injected failures by test key: how many times the task failed there. */
    public static final Map<String, AtomicInteger> FAILURES = new ConcurrentHashMap<>();
    /** Completed checkpoints seen by the flatMap, by test key. */
    public static final Map<String, AtomicInteger> COMPLETED_CHECKPOINTS = new ConcurrentHashMap<>();
    /** Attempt numbers {@link AttemptRecorder} saw start, by test key: {0} when the job never restarted. */
    public static final Map<String, Set<Integer>> ATTEMPTS = new ConcurrentHashMap<>();

    private SinkV2Jobs() {
    }

    /** A MiniCluster with 2 slots. */
    public static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
    }

    /**
     * Parallelism 2, checkpoints every {@code checkpointMs}, and {@code restarts} fixed-delay restarts 50 ms apart
     * (0: a failure fails the job).
     */
    public static StreamExecutionEnvironment env(long checkpointMs, int restarts) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(checkpointMs);
        Configuration conf = new Configuration();
        if (restarts > 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        env.configure(conf);
        return env;
    }

    /**
     * Source transactions {@code 0..count-1}, {@code perCheckpoint} of them between two checkpoints, turned into rows
     * by {@code rows}.
     */
    static DataStream<DefaultStarRocksRowData> transactions(StreamExecutionEnvironment env, long count,
                                                            int perCheckpoint, TransactionRows rows) {
        return numbers(env, count, perCheckpoint)
                .flatMap(rows).returns(TypeInformation.of(DefaultStarRocksRowData.class)).setParallelism(1)
                .name("transaction rows");
    }

    /** Numbers {@code 0..count-1}, {@code perCheckpoint} of them between two checkpoints (parallelism 1). */
    public static DataStream<Long> numbers(StreamExecutionEnvironment env, long count, int perCheckpoint) {
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(index -> index, count,
                RateLimiterStrategy.perCheckpoint(perCheckpoint), Types.LONG);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "numbers").setParallelism(1);
    }

    /**
     * Whether the task should fail now for {@code key}: the first call with {@code n >= failAt} once at least two
     * checkpoints completed (counted by {@link #checkpointCompleted}) returns true, every other call false.
     */
    public static boolean failNow(String key, long n, long failAt) {
        return failAt >= 0 && n >= failAt && COMPLETED_CHECKPOINTS.get(key).get() >= 2
                && FAILURES.get(key).compareAndSet(0, 1);
    }

    /** Counts a completed checkpoint for {@code key}. */
    public static void checkpointCompleted(String key) {
        COMPLETED_CHECKPOINTS.get(key).incrementAndGet();
    }

    /**
     * Options of an at-least-once sink into {@code database.table} of {@code emulator} as user {@code root} with the
     * password {@code wrong} (the emulator is built with another), flushing every 100 ms.
     */
    public static StarRocksSinkOptions.Builder refusedPassword(StarRocksEmulator emulator, String database,
                                                               String table, String labelPrefix) {
        return options(emulator, database, table, labelPrefix, "wrong");
    }

    /**
     * Options of an at-least-once sink into {@code database.table} of {@code emulator} as user {@code root} with
     * {@code password}, flushing every 100 ms, retrying every 100 ms.
     */
    public static StarRocksSinkOptions.Builder options(StarRocksEmulator emulator, String database, String table,
                                                       String labelPrefix, String password) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", emulator.feUrl().replace("http://", ""))
                .withProperty("database-name", database)
                .withProperty("table-name", table)
                .withProperty("username", "root")
                .withProperty("password", password)
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.label-prefix", labelPrefix)
                .withProperty("sink.buffer-flush.interval-ms", "100")
                .withProperty("sink.retry.interval-ms", "100")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true");
    }

    /** How many commits {@link #refuseCommits} refuses: more than any job of these tests attempts. */
    public static final int REFUSED_COMMITS = 1_000;

    /**
     * Makes {@code emulator} refuse the next {@link #REFUSED_COMMITS} commits as StarRocks refuses a user without the
     * privilege (HTTP 200, {@code Status: FAILED}, "Access denied; ...").
     */
    public static void refuseCommits(StarRocksEmulator emulator) {
        emulator.faults().failNext(FaultOp.COMMIT, REFUSED_COMMITS, "FAILED", "Access denied; you need (at least one "
                + "of) the INSERT privilege(s) on TABLE events for this operation");
    }

    /** Resets the counters of {@code key}. */
    public static void reset(String key) {
        FAILURES.put(key, new AtomicInteger());
        COMPLETED_CHECKPOINTS.put(key, new AtomicInteger());
        ATTEMPTS.put(key, new ConcurrentSkipListSet<>());
    }

    /**
     * Passes elements through and records, at every start of its subtask, the task's attempt number under
     * {@code key} in {@link #ATTEMPTS}; in the same failover region as the sink, so a restart after a sink failure
     * starts it again with the next attempt number.
     */
    public static final class AttemptRecorder<T> extends RichMapFunction<T, T> {
        private static final long serialVersionUID = 1L;
        private final String key;

        public AttemptRecorder(String key) {
            this.key = key;
        }

        @Override
        public void open(OpenContext openContext) {
            ATTEMPTS.get(key).add(getRuntimeContext().getTaskInfo().getAttemptNumber());
        }

        @Override
        public T map(T value) {
            return value;
        }
    }

    /** How source transaction {@code n} becomes rows. */
    interface RowShape extends java.io.Serializable {
        void rows(long n, Collector<DefaultStarRocksRowData> out);
    }

    /**
     * One source transaction number → its rows; with {@code failAt >= 0}, the task fails once when it reaches that
     * number after at least two checkpoints completed (so committed data exists and the job restores mid-stream).
     */
    static final class TransactionRows implements FlatMapFunction<Long, DefaultStarRocksRowData>, CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final String key;
        private final long failAt;
        private final RowShape shape;

        TransactionRows(String key, long failAt, RowShape shape) {
            this.key = key;
            this.failAt = failAt;
            this.shape = shape;
        }

        @Override
        public void flatMap(Long n, Collector<DefaultStarRocksRowData> out) {
            if (failNow(key, n, failAt)) {
                throw new IllegalStateException("injected task failure at source transaction " + n);
            }
            shape.rows(n, out);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointCompleted(key);
        }
    }

    /** One row {@code {"id": n, "note": "n<n>"}} into {@code database.table}. */
    static RowShape singleRow(String database, String table) {
        return (n, out) -> out.collect(new DefaultStarRocksRowData(null, database, table,
                "{\"id\":" + n + ",\"note\":\"n" + n + "\"}"));
    }

    /**
     * A multi-table source transaction for exactly-once mode, in source partition {@code n % partitions} of source
     * {@code orders}, at position {@code n} (positions grow within each partition): an upsert of
     * {@code eoshop.orders} and one {@code eoshop.order_log} row (DUPLICATE KEY: a replay would show twice), the last
     * carrying {@code transactionEnd}.
     */
    static RowShape positionedOrder(int partitions) {
        return (n, out) -> {
            int partition = (int) (n % partitions);
            DefaultStarRocksRowData order = new DefaultStarRocksRowData(null, "eoshop", "orders",
                    "{\"order_id\":" + n + ",\"version\":1}");
            DefaultStarRocksRowData log = new DefaultStarRocksRowData(null, "eoshop", "order_log",
                    "{\"order_id\":" + n + ",\"note\":\"placed\"}");
            for (DefaultStarRocksRowData row : new DefaultStarRocksRowData[] {order, log}) {
                row.setSourcePartition(partition);
                row.setSource("orders");
                row.setSourcePosition(n);
            }
            log.setTransactionEnd(true);
            out.collect(order);
            out.collect(log);
        };
    }

    /**
     * A multi-table source transaction in source partition {@code n % partitions}: one {@code shop.orders} row and
     * {@code items} {@code shop.order_items} rows, the last carrying {@code transactionEnd}.
     */
    static RowShape order(int partitions, int items) {
        return (n, out) -> {
            int partition = (int) (n % partitions);
            DefaultStarRocksRowData order = new DefaultStarRocksRowData(null, "shop", "orders",
                    "{\"order_id\":" + n + ",\"source_partition\":" + partition + ",\"status\":\"new\"}");
            order.setSourcePartition(partition);
            out.collect(order);
            for (int line = 1; line <= items; line++) {
                DefaultStarRocksRowData item = new DefaultStarRocksRowData(null, "shop", "order_items",
                        "{\"order_id\":" + n + ",\"line_no\":" + line + ",\"sku\":\"s" + line + "\",\"quantity\":"
                                + line + "}");
                item.setSourcePartition(partition);
                item.setTransactionEnd(line == items);
                out.collect(item);
            }
        };
    }
}
