package io.lockstep.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.lockstep.core.buffer.BufferExhaustedException;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.MultiTableLoadEngine;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Memory of the multi-table engine with a 1 GB source load, meant to run alone in its own JVM (the report forks it
 * with a fixed {@code -Xmx}) against an emulator in another process, so the heap holds only the engine. Two modes:
 * <ul>
 *   <li>{@code one-txn}: one source transaction of {@code --total-mb}; a source transaction is never split, so the
 *       engine must refuse it once it passes the hard limit (2 × buffer-size) instead of buffering it all;</li>
 *   <li>{@code many-txns}: the same bytes as source transactions of ~1 MB over 4 partitions, loaded and committed
 *       while they stream.</li>
 * </ul>
 * Prints one line {@code RESULT key=value ...}: peak heap used (sampled every 5 ms), peak heap after a full GC (the
 * live set; full collections are forced while the buffer is near its hard limit), peak of the engine's
 * {@code bufferedBytes} gauge, bytes written, seconds and the outcome.
 */
@Command(name = "memory", mixinStandardHelpOptions = true,
        description = "Peak heap and buffered bytes of the multi-table engine with a 1 GB source load.")
public final class MemoryBenchmark implements Callable<Integer> {
    @Option(names = "--load-url", required = true, description = "FE address of a running emulator (none store).")
    String loadUrl;

    @Option(names = "--mode", description = "one-txn or many-txns (default: ${DEFAULT-VALUE}).")
    String mode = "many-txns";

    @Option(names = "--total-mb", description = "Megabytes of rows (default: ${DEFAULT-VALUE}).")
    long totalMb = 1024;

    @Option(names = "--buffer-mb", description = "sink.transaction.multi-table.buffer-size in MiB (default: "
            + "${DEFAULT-VALUE}).")
    long bufferMb = 128;

    @Option(names = "--row-bytes", description = "Row size, bytes (default: ${DEFAULT-VALUE}).")
    int rowBytes = 2048;

    private static final java.util.Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
            .map(java.lang.management.MemoryPoolMXBean::getName).collect(java.util.stream.Collectors.toSet());

    private final AtomicLong peakHeap = new AtomicLong();
    private final AtomicLong peakLiveHeap = new AtomicLong();
    private final AtomicLong peakBuffered = new AtomicLong();

    @Override
    public Integer call() throws Exception {
        listenToGc();
        InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
        long bufferBytes = bufferMb * 1024 * 1024;
        long total = totalMb * 1024 * 1024;
        RowPool pool = new RowPool(1024, rowBytes);
        String outcome = "completed";
        long written = 0;
        long start = System.nanoTime();
        try (TransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                .loadUrls(loadUrl.replaceFirst("^https?://", "")).username("root").password("").build(), metrics);
             MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("mem")
                     .database(BenchTables.DATABASE).commitIntervalMs(1000).bufferSizeBytes(bufferBytes)
                     .maxBlockMs(60_000).loadProperty("ignore_json_size", "true").build(), client, metrics)) {
            Thread sampler = startSampler(() -> metrics.gaugeValue(MetricNames.BUFFERED_BYTES),
                    2 * bufferBytes);
            boolean oneTxn = mode.equals("one-txn");
            long n = 0;
            int partition = 0;
            try {
                while (written < total) {
                    // many-txns: 512 rows (~1 MB) per source transaction, partitions in turn
                    partition = oneTxn ? 0 : (int) (n / 512 % 4);
                    byte[] row = pool.get(n++);
                    engine.write(partition, BenchTables.DATABASE, "t" + (n & 1), row);
                    written += row.length;
                    if (!oneTxn && n % 512 == 0) {
                        engine.txnEnd(partition);
                    }
                }
                if (oneTxn || n % 512 != 0) {
                    engine.txnEnd(partition);
                }
                engine.flush();
            } catch (BufferExhaustedException e) {
                outcome = "refused: " + e.getMessage().replace('\n', ' ');
            } catch (OutOfMemoryError | io.lockstep.core.engine.LoadEngineException e) {
                String message = String.valueOf(e.getMessage()).replace('\n', ' ');
                outcome = "failed: " + e.getClass().getSimpleName() + ": "
                        + message.substring(0, Math.min(300, message.length()));
            }
            sampler.interrupt();
            sampler.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "RESULT mode=%s bufferBytes=%d writtenBytes=%d seconds=%.2f peakHeapBytes=%d "
                        + "peakLiveHeapBytes=%d peakBufferedBytes=%d maxHeapBytes=%d outcome=%s%n", mode, bufferBytes,
                written, seconds, peakHeap.get(), peakLiveHeap.get(), peakBuffered.get(),
                Runtime.getRuntime().maxMemory(), outcome);
        return 0;
    }

    private Thread startSampler(java.util.function.LongSupplier buffered, long hardLimitBytes) {
        Thread t = new Thread(() -> {
            long lastForcedGcNanos = 0;
            while (!Thread.currentThread().isInterrupted()) {
                MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
                peakHeap.accumulateAndGet(heap.getUsed(), Math::max);
                long nowBuffered = buffered.getAsLong();
                peakBuffered.accumulateAndGet(nowBuffered, Math::max);
                if (nowBuffered >= hardLimitBytes * 0.95 && System.nanoTime() - lastForcedGcNanos > 1_000_000_000L) {
                    System.gc(); // a full collection: the listener records the live set at (nearly) the fullest buffer
                    lastForcedGcNanos = System.nanoTime();
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "bench-memory-sampler");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Records the heap in use right after every full collection (the live set then); the sampler forces one, at most
     * once a second, while the buffer is within 5% of its hard limit, so the peak live set is seen.
     */
    private void listenToGc() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                    return;
                }
                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
                        (CompositeData) notification.getUserData());
                if (!info.getGcAction().contains("major")) {
                    return; // a young collection leaves old garbage in place: its "after" is no live set
                }
                long after = 0;
                for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                    if (HEAP_POOLS.contains(pool.getKey())) { // the map holds metaspace and code cache too
                        after += pool.getValue().getUsed();
                    }
                }
                peakLiveHeap.accumulateAndGet(after, Math::max);
            }, null, null);
        }
    }
}
