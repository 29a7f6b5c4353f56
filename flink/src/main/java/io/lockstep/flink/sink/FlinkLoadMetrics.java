package io.lockstep.flink.sink;

import io.lockstep.core.metrics.LoadMetrics;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import javax.annotation.concurrent.ThreadSafe;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The core's {@link LoadMetrics} bound to a Flink operator's {@link MetricGroup}: subtask-wide counters, histograms
 * and gauges directly in the group, per-table counters in a sub-group named {@code database.table} (e.g.
 * {@code <operator>.shop.orders.loadedRows}). Names are the core's {@link io.lockstep.core.metrics.MetricNames}.
 *
 * <p>Each metric is registered with Flink once and cached: Flink ignores a second registration of a name, so a
 * repeated {@link #counter} returns the first counter, and a repeated {@link #gauge} replaces the value source
 * behind the one registered gauge (as {@link LoadMetrics#gauge} promises). Histograms keep the last
 * {@value #HISTOGRAM_WINDOW} values.
 *
 * <p>Thread-safe: the task thread, the manager thread and the client's I/O threads report; the caches are
 * concurrent maps and Flink's groups synchronize registration.
 */
@ThreadSafe
public final class FlinkLoadMetrics implements LoadMetrics {
    /** Values a histogram keeps for its statistics. */
    public static final int HISTOGRAM_WINDOW = 1000;

    private final MetricGroup group;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, MetricGroup> tableGroups = new ConcurrentHashMap<>();
    private final Map<String, Counter> tableCounters = new ConcurrentHashMap<>();
    private final Map<String, Histogram> histograms = new ConcurrentHashMap<>();
    private final Map<String, AtomicReference<LongSupplier>> gauges = new ConcurrentHashMap<>();

    /** Metrics reported into {@code group} (typically {@code getRuntimeContext().getMetricGroup()}). */
    public FlinkLoadMetrics(MetricGroup group) {
        this.group = Objects.requireNonNull(group, "group");
    }

    @Override
    public Counter counter(String name) {
        return counters.computeIfAbsent(name, n -> wrap(group.counter(n)));
    }

    /** A counter in the sub-group {@code database.table}. */
    @Override
    public Counter tableCounter(String name, String database, String table) {
        String tableName = database + "." + table;
        return tableCounters.computeIfAbsent(tableName + "\u0000" + name,
                k -> wrap(tableGroup(tableName).counter(name)));
    }

    @Override
    public Histogram histogram(String name) {
        return histograms.computeIfAbsent(name, n -> {
            org.apache.flink.metrics.Histogram h = group.histogram(n,
                    new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
            return h::update;
        });
    }

    @Override
    public void gauge(String name, LongSupplier value) {
        Objects.requireNonNull(value, "value");
        AtomicReference<LongSupplier> holder = gauges.computeIfAbsent(name, n -> {
            AtomicReference<LongSupplier> created = new AtomicReference<>(value);
            group.gauge(n, (Gauge<Long>) () -> created.get().getAsLong());
            return created;
        });
        holder.set(value);
    }

    /** The sub-group of one table, created on first use. */
    MetricGroup tableGroup(String tableName) {
        return tableGroups.computeIfAbsent(tableName, group::addGroup);
    }

    private static Counter wrap(org.apache.flink.metrics.Counter counter) {
        return counter::inc;
    }
}
