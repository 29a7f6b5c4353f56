package io.lockstep.conformance;

import io.lockstep.emulator.storage.QueryResult;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** What the conformance tests share: one small MiniCluster per class, jobs that never restart, result rows as text. */
final class Jobs {
    private Jobs() {
    }

    /** A MiniCluster of one TaskManager with two slots; register it in a static field (one per test class). */
    static MiniClusterExtension miniCluster() {
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(2)
                .build());
    }

    /**
     * A parallelism-1 environment on the class's MiniCluster with restart strategy {@code none} (a failure fails the
     * job, and with it the test, once); {@code checkpointIntervalMs} &gt; 0 turns checkpointing on.
     */
    static StreamExecutionEnvironment environment(long checkpointIntervalMs) {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        if (checkpointIntervalMs > 0) {
            env.enableCheckpointing(checkpointIntervalMs);
        }
        return env;
    }

    /** The rows of {@code result}, each as {@code "v1|v2|..."} ({@code null} for SQL NULL), in the query's order. */
    static List<String> rows(QueryResult result) {
        List<String> out = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                b.append(i == 0 ? "" : "|").append(row.get(i));
            }
            out.add(b.toString());
        }
        return out;
    }

    /** {@code http://host:port} → {@code host:port} (the connectors' load-url / fenodes form). */
    static String hostPort(String url) {
        return url.substring(url.indexOf("://") + 3);
    }
}
