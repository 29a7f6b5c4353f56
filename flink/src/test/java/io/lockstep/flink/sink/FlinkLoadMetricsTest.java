package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import org.apache.flink.metrics.testutils.MetricListener;
import org.junit.jupiter.api.Test;

class FlinkLoadMetricsTest {
    private final MetricListener listener = new MetricListener();
    private final FlinkLoadMetrics metrics = new FlinkLoadMetrics(listener.getMetricGroup());

    @Test
    void subtaskCountersAreRegisteredOnceAndShared() {
        metrics.counter(MetricNames.COMMITS).inc();
        metrics.counter(MetricNames.COMMITS).inc(2);

        assertThat(listener.getCounter(MetricNames.COMMITS)).get().extracting(c -> c.getCount()).isEqualTo(3L);
    }

    @Test
    void tableCountersLiveInADatabaseDotTableSubGroup() {
        metrics.tableCounter(MetricNames.LOADED_ROWS, "shop", "orders").inc(5);
        metrics.tableCounter(MetricNames.LOADED_ROWS, "shop", "order_items").inc(7);
        metrics.tableCounter(MetricNames.LOADED_ROWS, "shop", "orders").inc();

        assertThat(listener.getCounter("shop.orders", MetricNames.LOADED_ROWS)).get()
                .extracting(c -> c.getCount()).isEqualTo(6L);
        assertThat(listener.getCounter("shop.order_items", MetricNames.LOADED_ROWS)).get()
                .extracting(c -> c.getCount()).isEqualTo(7L);
    }

    @Test
    void histogramsKeepTheirValues() {
        LoadMetrics.Histogram latency = metrics.histogram(MetricNames.COMMIT_LATENCY_MS);
        latency.update(10);
        latency.update(30);

        assertThat(listener.getHistogram(MetricNames.COMMIT_LATENCY_MS)).get()
                .satisfies(h -> {
                    assertThat(h.getCount()).isEqualTo(2);
                    assertThat(h.getStatistics().getMax()).isEqualTo(30);
                });
    }

    @Test
    void aGaugeRegisteredAgainReadsTheNewSource() {
        metrics.gauge(MetricNames.BUFFERED_BYTES, () -> 1);
        assertThat(listener.<Long>getGauge(MetricNames.BUFFERED_BYTES)).get()
                .extracting(g -> g.getValue()).isEqualTo(1L);

        metrics.gauge(MetricNames.BUFFERED_BYTES, () -> 42);

        assertThat(listener.<Long>getGauge(MetricNames.BUFFERED_BYTES)).get()
                .extracting(g -> g.getValue()).isEqualTo(42L);
    }
}
