package io.lockstep.core.engine;

import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.time.ManualTicker;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** A multi-table engine on a manual clock, a fake client and a manual I/O executor; no threads. */
final class EngineFixture implements AutoCloseable {
    static final long T0 = 1_700_000_000_000L;

    final ManualTicker clock = new ManualTicker(T0);
    final FakeTransactionClient client = new FakeTransactionClient();
    final ManualExecutor io = new ManualExecutor();
    final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    final MultiTableLoadEngine engine;

    /**
     * commit interval 1000 ms (mini interval 100 ms), server timeout 600 s, buffer 1 MiB, prefix "t", run "r1"; every
     * frozen chunk loads at once under the open shared transaction (minimum load 0), so a test sees each load as it
     * steps the engine (the default minimum is pinned by {@code MultiTableLoadBatchingTest}).
     */
    EngineFixture(Consumer<LoadEngineConfig.Builder> tweak) {
        LoadEngineConfig.Builder b = LoadEngineConfig.builder().labelPrefix("t").runId("r1").commitIntervalMs(1000)
                .bufferSizeBytes(1 << 20).maxBlockMs(5_000).minLoadRowBytes(0);
        tweak.accept(b);
        engine = new MultiTableLoadEngine(b.build(), client, metrics, clock, io);
    }

    EngineFixture() {
        this(b -> {
        });
    }

    static byte[] row(String id) {
        return ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    static String rowText(String id) {
        return "{\"id\":\"" + id + "\"}";
    }

    void write(int partition, String table, String id) throws InterruptedException {
        engine.write(partition, "db", table, row(id));
    }

    /** One manager scan, then run every queued load and handle the replies, until nothing is queued. */
    void drive() {
        engine.runOnce();
        while (io.runAll() > 0) {
            engine.runOnce();
        }
    }

    /** Advance the clock by {@code ms} and {@link #drive()}. */
    void advanceAndDrive(long ms) {
        clock.advanceMs(ms);
        drive();
    }

    RegionTable.RegionView region(int partition, String table) {
        return engine.regions().view(new io.lockstep.core.buffer.RegionKey(partition, "db", table));
    }

    String label(int cycle) {
        return "t-0-r1-m" + cycle;
    }

    @Override
    public void close() {
        engine.close();
    }
}
