package io.lockstep.app.chaos;

import io.lockstep.app.demo.ShopSchema;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.storage.QueryResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The second reader of the exactly-once multi-table scenario: every {@link SnapshotOracle#PERIOD_MS} ms it reads
 * each shop table's keys and {@code version} column and records every key whose version is lower than one it saw
 * before: a replayed source transaction re-writing a row a later one had changed or deleted (a deleted row that
 * comes back carries an older version than the one seen before the delete). Thread: samples run on the
 * scheduler's thread; {@code highest} is touched only there (sample is synchronized), the violation list is
 * synchronized and read by the test after stop().
 */
final class VersionOracle {
    private final StarRocksEmulator sr;
    /** (table, key) to the highest version seen; guarded by this. */
    private final Map<List<Object>, Long> highest = new HashMap<>();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger samples = new AtomicInteger();
    private ScheduledFuture<?> task;

    VersionOracle(StarRocksEmulator sr) {
        this.sr = sr;
    }

    void start(ScheduledExecutorService scheduler) {
        task = scheduler.scheduleAtFixedRate(this::sample, 0, SnapshotOracle.PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Stops sampling and takes one last sample. */
    void stop() {
        task.cancel(false);
        sample();
    }

    private synchronized void sample() {
        try {
            int n = samples.incrementAndGet();
            for (ShopSchema.Table table : ShopSchema.TABLES) {
                String keys = String.join(", ", table.keyColumns());
                QueryResult result = sr.query("SELECT " + keys + ", " + ShopRows.VERSION_COLUMN + " FROM shop."
                        + table.name());
                for (List<Object> row : result.rows()) {
                    List<Object> key = new ArrayList<>(row.subList(0, row.size() - 1));
                    key.add(0, table.name());
                    long version = ((Number) row.get(row.size() - 1)).longValue();
                    Long before = highest.put(key, version);
                    if (before != null && before > version) {
                        violations.add(String.format(Locale.ROOT, "sample %d: %s went back from version %d to %d",
                                n, key, before, version));
                        highest.put(key, before);
                    }
                }
            }
        } catch (RuntimeException e) {
            errors.add(e.toString());
        }
    }

    int samples() {
        return samples.get();
    }

    /** @return keys seen so far */
    synchronized int keysSeen() {
        return highest.size();
    }

    List<String> violations() {
        synchronized (violations) {
            return List.copyOf(violations);
        }
    }

    List<String> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }
}
