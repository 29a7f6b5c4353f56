package io.lockstep.flink.sink;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Flink environment of the sink ITs ({@link ExactlyOnceSinkIT}, {@link DorisExactlyOnceSinkIT},
 * {@link DorisAtLeastOnceSinkIT}): parallelism 2, checkpoints every {@code checkpointIntervalMs}, and either no
 * restart (a failure fails the job) or a fixed-delay restart strategy with {@code restarts} attempts 50 ms apart.
 */
final class CheckpointedJobEnvironment {
    private CheckpointedJobEnvironment() {
    }

    /**
     * @param restarts             fixed-delay restart attempts; 0 = no restart strategy
     * @param checkpointIntervalMs checkpoint interval in ms
     * @return the environment of the current (MiniCluster) context, configured
     */
    static StreamExecutionEnvironment create(int restarts, long checkpointIntervalMs) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(checkpointIntervalMs);
        Configuration conf = new Configuration();
        if (restarts > 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        env.configure(conf);
        return env;
    }
}
