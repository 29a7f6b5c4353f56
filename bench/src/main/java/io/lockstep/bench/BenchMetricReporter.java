package io.lockstep.bench;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter for in-JVM (MiniCluster) benchmark runs: keeps every counter the sinks register (by
 * name, e.g. {@code loads}, {@code commits}) so the benchmark can read the request counts after the job, when the
 * operators have already unregistered them. Enabled with
 * {@code metrics.reporter.bench.factory.class = io.lockstep.bench.BenchMetricReporter}.
 */
public final class BenchMetricReporter implements MetricReporter, MetricReporterFactory {
    private static final List<NamedCounter> COUNTERS = new CopyOnWriteArrayList<>();

    /** Forgets the counters of earlier runs. */
    static void reset() {
        COUNTERS.clear();
    }

    /** Sum of all counters named {@code name} registered since {@link #reset()}. */
    static long sum(String name) {
        long total = 0;
        for (NamedCounter c : COUNTERS) {
            if (c.name().equals(name)) {
                total += c.counter().getCount();
            }
        }
        return total;
    }

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        return new BenchMetricReporter();
    }

    @Override
    public void open(MetricConfig config) {
        // nothing to open
    }

    @Override
    public void close() {
        // counters stay readable after the cluster stops
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        if (metric instanceof Counter counter) {
            COUNTERS.add(new NamedCounter(metricName, counter));
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        // keep it: the run reads it after the job ended
    }

    private record NamedCounter(String name, Counter counter) {
    }
}
