package io.lockstep.app.demo;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import javax.annotation.concurrent.ThreadSafe;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;

/**
 * The metrics of one running job as Flink registers them (through {@link DemoMetricsReporter}), summed by name
 * over subtasks and operators. A counter of a task that fails is kept: its last value moves into a retired sum
 * when Flink removes it, so totals survive restarts (replayed work then counts again, as Flink's own counters
 * do after a restore).
 *
 * <p>Thread-safe: Flink's threads register and remove metrics; the demo's progress thread reads. Counter values
 * are read without synchronization (Flink's {@code SimpleCounter} is a plain long), so a read may be a few
 * increments old; the demo only displays them.
 */
@ThreadSafe
public final class JobMetrics {
    private final Map<Metric, String> live = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> retired = new ConcurrentHashMap<>();

    void added(String name, Metric metric) {
        live.put(metric, name);
    }

    void removed(String name, Metric metric) {
        if (live.remove(metric) != null && metric instanceof Counter) {
            retired.computeIfAbsent(name, n -> new LongAdder()).add(((Counter) metric).getCount());
        }
    }

    /**
     * @param name a counter name, e.g. {@code commits}
     * @return the sum of every counter of that name, live and retired; 0 when none was registered
     */
    public long counter(String name) {
        LongAdder old = retired.get(name);
        long sum = old == null ? 0 : old.sum();
        for (Map.Entry<Metric, String> entry : live.entrySet()) {
            if (entry.getValue().equals(name) && entry.getKey() instanceof Counter) {
                sum += ((Counter) entry.getKey()).getCount();
            }
        }
        return sum;
    }

    /**
     * @param name a numeric gauge's name, e.g. {@code numRestarts}
     * @return the largest value among live gauges of that name, or -1 when there is none
     */
    public long gaugeMax(String name) {
        long max = -1;
        for (Map.Entry<Metric, String> entry : live.entrySet()) {
            if (entry.getValue().equals(name) && entry.getKey() instanceof Gauge) {
                Object value = ((Gauge<?>) entry.getKey()).getValue();
                if (value instanceof Number) {
                    max = Math.max(max, ((Number) value).longValue());
                }
            }
        }
        return max;
    }
}
