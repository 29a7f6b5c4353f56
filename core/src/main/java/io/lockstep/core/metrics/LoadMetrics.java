package io.lockstep.core.metrics;

import java.util.function.LongSupplier;

/**
 * Where the core reports what it does. The Flink layer binds it to the operator's metric group (per-table
 * values to a sub-group per {@code database.table}); tests use {@link InMemoryLoadMetrics}; {@link #noop()}
 * discards everything. Implementations are thread-safe: the task thread and the manager thread report.
 *
 * <p>Metric names are the constants of {@link MetricNames}.
 */
public interface LoadMetrics {

    /** A counter over the whole subtask (e.g. commits). */
    Counter counter(String name);

    /** A counter for one table (e.g. rows and bytes loaded into {@code database.table}). */
    Counter tableCounter(String name, String database, String table);

    /** A distribution of values, e.g. commit latency in ms. */
    Histogram histogram(String name);

    /** Registers a gauge read on demand, e.g. buffered bytes. Registering the same name again replaces it. */
    void gauge(String name, LongSupplier value);

    /** A monotonically increasing count. */
    interface Counter {
        void inc(long n);

        default void inc() {
            inc(1);
        }
    }

    /** A value distribution. */
    interface Histogram {
        void update(long value);
    }

    /** Metrics that go nowhere. */
    static LoadMetrics noop() {
        return NoopLoadMetrics.INSTANCE;
    }
}
