package io.lockstep.bench.jmh;

import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.metrics.LoadMetrics;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The task thread's path through the multi-table engine: one source transaction of 2 rows (2 tables) written and
 * ended ({@code write, write, txnEnd}), with the engine's manager thread freezing and "loading" into a client that
 * discards the bodies. Shows the per-row cost of routing, checks and memory accounting on top of the chunk append.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EngineWriteBenchmark {
    /** Row size, bytes. */
    @Param({"200", "2048"})
    public int rowBytes;

    private byte[] row;
    private MultiTableLoadEngine engine;
    private int partition;

    @Setup(Level.Trial)
    public void setUp() {
        row = ("{\"id\":1,\"partition_no\":0,\"txn_no\":1,\"payload\":\"" + "x".repeat(Math.max(1, rowBytes - 50))
                + "\"}").getBytes(StandardCharsets.UTF_8);
        engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("jmh").database("bench")
                .commitIntervalMs(1000).build(), new DiscardingTransactionClient(), LoadMetrics.noop());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
    }

    /** One source transaction: a row in each of two tables, then its end. */
    @Benchmark
    public void writeTransaction() throws InterruptedException {
        int p = partition++ & 3;
        engine.write(p, "bench", "t0", row);
        engine.write(p, "bench", "t1", row);
        engine.txnEnd(p);
    }

    /**
     * The cost-fork workload's shape: one source transaction of 1 {@code orders} and 3 {@code order_items} rows, on 2
     * source partitions in turn, with table names that are new strings per row as a deserialized row's are (so no
     * string hash is cached between rows).
     */
    @Benchmark
    public void orderTransaction() throws InterruptedException {
        int p = partition++ & 1;
        engine.write(p, "bench", new String(ORDERS), row);
        engine.write(p, "bench", new String(ORDER_ITEMS), row);
        engine.write(p, "bench", new String(ORDER_ITEMS), row);
        engine.write(p, "bench", new String(ORDER_ITEMS), row);
        engine.txnEnd(p);
    }

    private static final char[] ORDERS = "orders".toCharArray();
    private static final char[] ORDER_ITEMS = "order_items".toCharArray();
}
