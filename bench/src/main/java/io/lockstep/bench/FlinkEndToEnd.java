package io.lockstep.bench;

import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigBuilder;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.options.StreamLoadFormat;
import io.lockstep.flink.sink.LockstepSinkFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * End-to-end runs in a Flink MiniCluster (one per run, in this JVM): {@link TxnSource} → keyBy(sourcePartition) →
 * the multi-table sink from {@link LockstepSinkFunction}, or {@link SingleTableRowSource} → the exactly-once sink;
 * both load into the emulator given. Request counts come from the sinks' own metrics ({@link BenchMetricReporter}).
 */
final class FlinkEndToEnd {
    /** Header tables h0..h3 (one per source partition) and shared tables s0..s2, plus eo for exactly-once. */
    static final List<String> TABLES = List.of("h0", "h1", "h2", "h3", "s0", "s1", "s2", "eo");
    private static final int MAX_PARALLELISM = 128;

    private FlinkEndToEnd() {
    }

    /**
     * A multi-table run.
     *
     * @param txnsPerSecond 0 = as fast as the sink accepts
     * @param probe         null, or the freshness probe to stop once the job ended
     */
    static Figures multiTable(String name, StarRocksEmulator emulator, int parallelism, int rowBytes,
                              long commitIntervalMs, long txnsPerSecond, long durationMs, boolean logEmissions)
            throws Exception {
        return multiTable(name, emulator, parallelism, rowBytes, commitIntervalMs, txnsPerSecond, durationMs,
                logEmissions, null);
    }

    /**
     * A multi-table run, at-least-once or (with a job id) exactly-once across tables: the progress table
     * {@code bench.lockstep_progress} gets one row per source partition in every shared transaction
     * (docs/exactly-once.md).
     *
     * @param exactlyOnceJobId null for at-least-once, else the job id of the exactly-once multi-table mode
     */
    static Figures multiTable(String name, StarRocksEmulator emulator, int parallelism, int rowBytes,
                              long commitIntervalMs, long txnsPerSecond, long durationMs, boolean logEmissions,
                              String exactlyOnceJobId) throws Exception {
        TxnSource.reset(logEmissions);
        BenchMetricReporter.reset();
        long storedBefore = EngineScenario.storedRows(emulator, TABLES);
        StreamExecutionEnvironment env = environment(parallelism);
        int[] partitions = spreadPartitions(TxnSource.PARTITIONS_MAX, parallelism);
        DataStream<LoadRow> rows = env.addSource(
                new TxnSource(partitions, rowBytes, txnsPerSecond, durationMs, logEmissions), "txn-source");
        rows.keyBy(LoadRow::getSourcePartition)
                .addSink(LockstepSinkFunction.create(
                        multiTableOptions(emulator.feUrl(), commitIntervalMs, exactlyOnceJobId)))
                .name("starrocks");
        return execute(name, env, emulator, storedBefore, sumEmitted());
    }

    /**
     * The order workload ({@link OrderTxnSource}: {@code txns} source transactions over its 2 partitions) at
     * {@code parallelism}, into the multi-table sink at-least-once ({@code client} {@value #AT_LEAST_ONCE}), exactly-once
     * across tables ({@value #EXACTLY_ONCE}, with {@code jobId}) or Flink's {@code DiscardingSink} ({@value #DISCARDING}:
     * what the source, keyBy and Flink cost without a sink). The CPU is the whole job's, MiniCluster start included;
     * the seconds run from the first emission to the job's end (the last commit). The figures' {@code requests} are
     * the HTTP requests the emulator served (a redirected request counts at the FE and at the BE), {@code loads} the
     * sink's load requests.
     */
    static Figures orders(String client, StarRocksEmulator emulator, int parallelism, long txns, String jobId)
            throws Exception {
        OrderTxnSource.reset();
        BenchMetricReporter.reset();
        List<String> tables = List.of(OrderTxnSource.ORDERS, OrderTxnSource.ORDER_ITEMS);
        long storedBefore = EngineScenario.storedRows(emulator, tables);
        long requestsBefore = emulator.httpRequests();
        StreamExecutionEnvironment env = ordersJob(client, emulator.feUrl(), parallelism, txns, jobId);
        ProcessCpu.Sample cpuStart = ProcessCpu.sample();
        env.execute(client + " p" + parallelism);
        long end = System.nanoTime();
        ProcessCpu.Sample cpu = ProcessCpu.sample().minus(cpuStart);
        long emitted = OrderTxnSource.ROWS.get();
        long stored = EngineScenario.storedRows(emulator, tables) - storedBefore;
        long expected = client.equals(DISCARDING) ? 0 : emitted;
        if (stored != expected) {
            throw new IllegalStateException(client + " p" + parallelism + ": the source emitted " + emitted
                    + " rows, the emulator stored " + stored + " (expected " + expected + ")");
        }
        double seconds = (end - OrderTxnSource.FIRST_EMIT_NANOS.get()) / 1e9;
        return new Figures(client + " p" + parallelism, emitted, OrderTxnSource.BYTES.get(), seconds,
                OrderTxnSource.TXNS.get(), emulator.httpRequests() - requestsBefore,
                BenchMetricReporter.sum(MetricNames.LOADS), cpu);
    }

    /**
     * The order workload's job, not yet executed: {@link OrderTxnSource} ({@code txns} source transactions over its
     * {@value OrderTxnSource#PARTITIONS} source partitions), keyBy source partition, then {@code client}'s sink
     * ({@link #DISCARDING}, {@link #AT_LEAST_ONCE} or {@link #EXACTLY_ONCE} with {@code jobId}) loading into the FE at
     * {@code feUrl}, commit interval 1 s.
     *
     * @throws IllegalArgumentException for an unknown client
     */
    static StreamExecutionEnvironment ordersJob(String client, String feUrl, int parallelism, long txns,
                                                String jobId) {
        StreamExecutionEnvironment env = environment(parallelism);
        int[] partitions = spreadPartitions(OrderTxnSource.PARTITIONS, parallelism);
        DataStream<LoadRow> rows = env.addSource(
                new OrderTxnSource(partitions, txns / OrderTxnSource.PARTITIONS), "order-source");
        var keyed = rows.keyBy(LoadRow::getSourcePartition);
        switch (client) {
            case DISCARDING -> keyed.addSink(new org.apache.flink.streaming.api.functions.sink.DiscardingSink<>())
                    .name("discarding");
            case AT_LEAST_ONCE -> keyed.addSink(LockstepSinkFunction.create(
                    multiTableOptions(feUrl, 1000, null))).name("starrocks");
            case EXACTLY_ONCE -> keyed.addSink(LockstepSinkFunction.create(
                    multiTableOptions(feUrl, 1000, jobId))).name("starrocks");
            default -> throw new IllegalArgumentException("unknown client " + client);
        }
        return env;
    }

    static final String DISCARDING = "discarding sink";
    static final String AT_LEAST_ONCE = "at-least-once";
    static final String EXACTLY_ONCE = "exactly-once";

    /** An exactly-once single-table run into {@code bench.eo} with checkpoints every {@code checkpointMs}. */
    static Figures exactlyOnce(String name, StarRocksEmulator emulator, int rowBytes, long checkpointMs,
                               long durationMs) throws Exception {
        TxnSource.reset(false);
        BenchMetricReporter.reset();
        long storedBefore = EngineScenario.storedRows(emulator, TABLES);
        StreamExecutionEnvironment env = environment(1);
        env.enableCheckpointing(checkpointMs);
        env.addSource(new SingleTableRowSource("eo", rowBytes, durationMs), "row-source")
                .addSink(LockstepSinkFunction.create(SinkConfig.builder()
                        .loadUrl(emulator.feUrl())
                        .database(BenchTables.DATABASE)
                        .table("eo")
                        .username("root")
                        .password("")
                        .sinkVersion(SinkVersion.V2)
                        .semantic(SinkSemantic.EXACTLY_ONCE)
                        .labelPrefix("bench-eo")
                        .streamLoadFormat(StreamLoadFormat.JSON)
                        .streamLoadProperty("strip_outer_array", "true")
                        .build()))
                .name("starrocks");
        return execute(name, env, emulator, storedBefore, 0);
    }

    private static Figures execute(String name, StreamExecutionEnvironment env, StarRocksEmulator emulator,
                                   long storedBefore, long ignored) throws Exception {
        ProcessCpu.Sample cpuStart = ProcessCpu.sample();
        env.execute(name);
        long end = System.nanoTime();
        ProcessCpu.Sample cpu = ProcessCpu.sample().minus(cpuStart);
        long rows = TxnSource.ROWS.get();
        long stored = EngineScenario.storedRows(emulator, TABLES) - storedBefore;
        if (stored != rows) {
            throw new IllegalStateException(name + ": the source emitted " + rows + " rows, the emulator stored "
                    + stored);
        }
        long loads = BenchMetricReporter.sum(MetricNames.LOADS);
        long commits = BenchMetricReporter.sum(MetricNames.COMMITS);
        long rollbacks = BenchMetricReporter.sum(MetricNames.ROLLBACKS);
        long requests = loads + 2 * (commits + rollbacks);
        double seconds = (end - TxnSource.FIRST_EMIT_NANOS.get()) / 1e9;
        return new Figures(name, rows, TxnSource.BYTES.get(), seconds, sumEmitted(), requests, loads, cpu);
    }

    /** Source transactions emitted over all partitions in the last run. */
    static long sumEmitted() {
        long n = 0;
        for (int i = 0; i < TxnSource.PARTITIONS_MAX; i++) {
            n += TxnSource.EMITTED.get(i);
        }
        return n;
    }

    /** Seconds the source emitted in the last run. */
    static double emitSeconds() {
        return (TxnSource.LAST_EMIT_NANOS.get() - TxnSource.FIRST_EMIT_NANOS.get()) / 1e9;
    }

    private static StreamExecutionEnvironment environment(int parallelism) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(RestOptions.BIND_PORT, "0");
        conf.setString("metrics.reporter.bench.factory.class", BenchMetricReporter.class.getName());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
        env.setMaxParallelism(MAX_PARALLELISM);
        return env;
    }

    private static SinkConfig multiTableOptions(String feUrl, long commitIntervalMs,
                                                String exactlyOnceJobId) {
        SinkConfigBuilder builder = SinkConfig.builder();
        if (exactlyOnceJobId != null) {
            builder.database(BenchTables.DATABASE)
                    .semantic(SinkSemantic.EXACTLY_ONCE)
                    .multiTableJobId(exactlyOnceJobId);
        } else {
            builder.database("*")
                    .semantic(SinkSemantic.AT_LEAST_ONCE);
        }
        return builder
                .loadUrl(feUrl)
                .table("*")
                .username("root")
                .password("")
                .sinkVersion(SinkVersion.V2)
                .multiTable(true)
                .commitIntervalMs(commitIntervalMs)
                .labelPrefix("bench")
                .streamLoadFormat(StreamLoadFormat.JSON)
                .streamLoadProperty("strip_outer_array", "true")
                .build();
    }

    /**
     * {@code n} source partition ids such that index {@code i} goes to sink subtask {@code i mod parallelism} under
     * keyBy (plain 0..n-1 can all land on one subtask).
     */
    static int[] spreadPartitions(int n, int parallelism) {
        int[] result = new int[n];
        List<Integer> used = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int want = i % parallelism;
            for (int p = 0; ; p++) {
                if (!used.contains(p)
                        && KeyGroupRangeAssignment.assignKeyToParallelOperator(p, MAX_PARALLELISM, parallelism) == want) {
                    result[i] = p;
                    used.add(p);
                    break;
                }
            }
        }
        return result;
    }
}
