package io.lockstep.app.demo;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter that keeps references to the metrics of jobs running in this JVM (the demo's local
 * MiniCluster), grouped by job name, so the demo reads the engine's own counters ({@code commits},
 * {@code loadedRows}, the assemblers' source transactions, the job's {@code numRestarts}) while the job runs.
 * Enable it with {@link #enable(Configuration)}; read with {@link #metricsOf(String)}.
 *
 * <p>Thread-safe: Flink calls it from its threads; the registry is a concurrent map.
 */
public final class DemoMetricsReporter implements MetricReporter {

    /** Reporter name in the Flink configuration ({@code metrics.reporter.<name>.factory.class}). */
    public static final String NAME = "lockstep_demo";
    private static final String JOB_NAME_VARIABLE = "<job_name>";
    private static final Map<String, JobMetrics> JOBS = new ConcurrentHashMap<>();

    /** Adds this reporter to a MiniCluster's configuration. */
    public static void enable(Configuration configuration) {
        configuration.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
    }

    /**
     * @param jobName the job's name
     * @return the job's metrics (an empty, live view before the job registers any)
     */
    public static JobMetrics metricsOf(String jobName) {
        return JOBS.computeIfAbsent(jobName, n -> new JobMetrics());
    }

    /** Forgets a job's metrics (after it ended). */
    public static void forget(String jobName) {
        JOBS.remove(jobName);
    }

    @Override
    public void open(MetricConfig config) {
    }

    @Override
    public void close() {
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        String job = group.getAllVariables().get(JOB_NAME_VARIABLE);
        if (job != null) {
            metricsOf(job).added(metricName, metric);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        String job = group.getAllVariables().get(JOB_NAME_VARIABLE);
        JobMetrics metrics = job == null ? null : JOBS.get(job);
        if (metrics != null) {
            metrics.removed(metricName, metric);
        }
    }

    /** Creates the reporter; listed in {@code META-INF/services} as Flink requires. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new DemoMetricsReporter();
        }
    }
}
