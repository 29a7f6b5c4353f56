package io.lockstep.flink.sink;

import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.label.RunId;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.time.Ticker;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every sink subtask opens before its engine: the subtask index, a run identity for labels, the Flink-bound
 * metrics and the HTTP transaction client; subtask 0 also runs the optional {@code jdbc-url} probe.
 *
 * <p>The run identity: {@link #open} takes a fresh {@link RunId#random} unless the sink passes the one it
 * restored, so labels of a restarted or re-submitted job never collide with an earlier attempt's
 * (docs/architecture.md#rules-from-field-reports).
 *
 * <p>Owned by the sink's task thread: created in {@code open()}, closed in {@code close()}.
 */
public final class SinkRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SinkRuntime.class);
    /** Bound on the {@code jdbc-url} probe's connect and read, ms. */
    static final int PROBE_TIMEOUT_MS = 5_000;

    private final int subtaskIndex;
    private final String runId;
    private final LoadMetrics metrics;
    private final TransactionClient client;

    private SinkRuntime(int subtaskIndex, String runId, LoadMetrics metrics, TransactionClient client) {
        this.subtaskIndex = subtaskIndex;
        this.runId = runId;
        this.metrics = metrics;
        this.client = client;
    }

    /**
     * Opens the subtask's client and metrics with a fresh run identity.
     *
     * @param context the sink's runtime context (subtask index, metric group)
     */
    public static SinkRuntime open(SinkSettings settings, RuntimeContext context) {
        return open(settings, context, null);
    }

    /**
     * Opens the subtask's client and metrics.
     *
     * @param restoredRunId the run identity restored from state, or null for a fresh one
     */
    public static SinkRuntime open(SinkSettings settings, RuntimeContext context, String restoredRunId) {
        int subtask = context.getTaskInfo().getIndexOfThisSubtask();
        return open(settings, subtask, context.getMetricGroup(), restoredRunId);
    }

    /**
     * Opens the client and metrics for subtask {@code subtaskIndex} reporting into {@code metricGroup} (tests and
     * sinks without a runtime context).
     */
    public static SinkRuntime open(SinkSettings settings, int subtaskIndex, MetricGroup metricGroup,
                                   String restoredRunId) {
        Objects.requireNonNull(settings, "settings");
        String runId = restoredRunId != null ? restoredRunId : RunId.random(Ticker.system());
        LoadMetrics metrics = new FlinkLoadMetrics(metricGroup);
        if (subtaskIndex == 0) {
            JdbcProbe.probe(settings.options().getJdbcUrl(), settings.options().getUsername(),
                    settings.options().getPassword(), PROBE_TIMEOUT_MS);
        }
        TransactionClient client = settings.newTransactionClient(metrics);
        LOG.info("sink subtask {} opened: target {}, label prefix {}, run id {}, load-url {}", subtaskIndex,
                settings.target().optionValue(), settings.labelPrefix(), runId, settings.clientConfig().loadUrls());
        return new SinkRuntime(subtaskIndex, runId, metrics, client);
    }

    /** This sink subtask's index. */
    public int subtaskIndex() {
        return subtaskIndex;
    }

    /** The run identity of this subtask's labels. */
    public String runId() {
        return runId;
    }

    /** Metrics bound to the operator's metric group. */
    public LoadMetrics metrics() {
        return metrics;
    }

    /** The subtask's transaction client. */
    public TransactionClient client() {
        return client;
    }

    /** Closes the client. Idempotent as the client's close is. */
    @Override
    public void close() {
        client.close();
    }

    /**
     * Closes a sink subtask's engine (rolling back what it holds open), then its runtime, even if the engine's close
     * throws. Either may be null (open() failed before creating it).
     *
     * @throws Exception what the engine's close throws
     */
    public static void close(@Nullable AutoCloseable engine, @Nullable SinkRuntime runtime) throws Exception {
        try {
            if (engine != null) {
                engine.close();
            }
        } finally {
            if (runtime != null) {
                runtime.close();
            }
        }
    }
}
