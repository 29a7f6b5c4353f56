package io.lockstep.core.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * {@link LoadMetrics} kept in memory, readable by tests and by the demo's progress line. Thread-safe.
 * Table counters are keyed {@code name[database.table]}.
 */
public final class InMemoryLoadMetrics implements LoadMetrics {
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private final Map<String, List<Long>> histograms = new ConcurrentHashMap<>();
    private final Map<String, LongSupplier> gauges = new ConcurrentHashMap<>();

    @Override
    public Counter counter(String name) {
        AtomicLong value = counters.computeIfAbsent(name, k -> new AtomicLong());
        return value::addAndGet;
    }

    @Override
    public Counter tableCounter(String name, String database, String table) {
        AtomicLong value = counters.computeIfAbsent(tableKey(name, database, table), k -> new AtomicLong());
        return value::addAndGet;
    }

    @Override
    public Histogram histogram(String name) {
        List<Long> values = histograms.computeIfAbsent(name, k -> new CopyOnWriteArrayList<>());
        return values::add;
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        gauges.put(name, value);
    }

    /** The value of a subtask counter; 0 if never incremented. */
    public long count(String name) {
        AtomicLong value = counters.get(name);
        return value == null ? 0 : value.get();
    }

    /** The value of a table counter; 0 if never incremented. */
    public long tableCount(String name, String database, String table) {
        AtomicLong value = counters.get(tableKey(name, database, table));
        return value == null ? 0 : value.get();
    }

    /** Every value recorded in a histogram, in order. */
    public List<Long> histogramValues(String name) {
        return List.copyOf(histograms.getOrDefault(name, List.of()));
    }

    /** Reads a gauge now. */
    public long gaugeValue(String name) {
        LongSupplier gauge = gauges.get(name);
        if (gauge == null) {
            throw new IllegalArgumentException("no gauge named " + name);
        }
        return gauge.getAsLong();
    }

    private static String tableKey(String name, String database, String table) {
        return name + "[" + database + "." + table + "]";
    }
}
