package io.lockstep.core.metrics;

import java.util.function.LongSupplier;

/** {@link LoadMetrics} that discards everything. */
final class NoopLoadMetrics implements LoadMetrics {
    static final NoopLoadMetrics INSTANCE = new NoopLoadMetrics();
    private static final Counter COUNTER = n -> { };
    private static final Histogram HISTOGRAM = v -> { };

    private NoopLoadMetrics() {
    }

    @Override
    public Counter counter(String name) {
        return COUNTER;
    }

    @Override
    public Counter tableCounter(String name, String database, String table) {
        return COUNTER;
    }

    @Override
    public Histogram histogram(String name) {
        return HISTOGRAM;
    }

    @Override
    public void gauge(String name, LongSupplier value) {
    }
}
