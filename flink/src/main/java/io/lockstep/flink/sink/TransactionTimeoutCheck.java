package io.lockstep.flink.sink;

import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;

import java.time.Duration;
import java.util.OptionalLong;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;

/**
 * Exactly-once start check: a transaction opens after one checkpoint's prepare and stays open (PREPARE) until the next
 * checkpoint's barrier, so the server's transaction timeout ({@code sink.properties.timeout}, sent on begin;
 * docs/protocol.md#timeouts-limits-and-concurrency) must exceed the checkpoint interval, or the server aborts it first
 * (docs/architecture.md#rules-from-field-reports). Also refuses exactly-once without checkpointing, where nothing would
 * ever commit.
 *
 * <p>Stateless.
 */
public final class TransactionTimeoutCheck {
    private TransactionTimeoutCheck() {
    }

    /**
     * The checkpoint interval of the job running {@code context}, ms, when Flink exposes it
     * ({@link StreamingRuntimeContext#getJobConfiguration()}, option {@code execution.checkpointing.interval}).
     */
    public static OptionalLong checkpointIntervalMs(RuntimeContext context) {
        if (context instanceof StreamingRuntimeContext streaming) {
            Duration interval = streaming.getJobConfiguration().get(CheckpointingOptions.CHECKPOINTING_INTERVAL);
            if (interval != null && !interval.isZero() && !interval.isNegative()) {
                return OptionalLong.of(interval.toMillis());
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Whether finished tasks still take checkpoints ({@code execution.checkpointing.checkpoints-after-tasks-finish
     * .enabled}, default true), so the final checkpoint of a bounded job commits the tail (true when unknown).
     */
    public static boolean checkpointsAfterTasksFinish(RuntimeContext context) {
        return !(context instanceof StreamingRuntimeContext streaming)
                || streaming.getJobConfiguration().get(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH);
    }

    /** Whether checkpointing is on for the job running {@code context} (true when Flink does not say). */
    public static boolean checkpointingEnabled(RuntimeContext context) {
        return !(context instanceof StreamingRuntimeContext streaming) || streaming.isCheckpointingEnabled();
    }

    /** Doris' default lifetime of a pre-committed transaction, s ({@code stream_load_default_precommit_timeout_second}). */
    public static final int DORIS_PRECOMMIT_TIMEOUT_SECONDS = 3600;

    /**
     * The Doris exactly-once start check: a flush's transaction is pre-committed at the latest at the barrier and at
     * the earliest just after the previous one, and Doris aborts a pre-committed transaction after
     * {@code stream_load_default_precommit_timeout_second} (3600 s by default, a server setting;
     * docs/protocol.md#doris-states-labels-and-timers), so the checkpoint interval must stay below it with room for the
     * commit. Refuses intervals of half of it or more, and no checkpointing.
     *
     * @throws InvalidSinkOptionException naming {@code sink.semantic}
     */
    public static void checkDoris(boolean checkpointingEnabled, OptionalLong intervalMs) {
        check(DORIS_PRECOMMIT_TIMEOUT_SECONDS / 2, checkpointingEnabled, OptionalLong.empty());
        if (intervalMs.isPresent() && intervalMs.getAsLong() >= DORIS_PRECOMMIT_TIMEOUT_SECONDS * 500L) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_SEMANTIC.key(),
                    "Invalid sink option 'sink.semantic' = 'exactly-once' with 'sink.target' = 'doris': the "
                            + "checkpoint interval (" + intervalMs.getAsLong() + " ms) must stay below half of Doris' "
                            + "pre-commit timeout (stream_load_default_precommit_timeout_second, 3600 s by default), "
                            + "or Doris aborts pre-committed transactions before the checkpoint commits them; use a "
                            + "checkpoint interval under " + DORIS_PRECOMMIT_TIMEOUT_SECONDS / 2 + " s");
        }
    }

    /**
     * @param timeoutSeconds       {@code sink.properties.timeout}, seconds
     * @param checkpointingEnabled whether the job checkpoints
     * @param intervalMs           the checkpoint interval in ms, if known (nothing is checked when unknown)
     * @throws InvalidSinkOptionException naming {@code sink.semantic} when checkpointing is off, or
     *                                    {@code sink.properties.timeout} when it does not exceed the interval
     */
    public static void check(int timeoutSeconds, boolean checkpointingEnabled, OptionalLong intervalMs) {
        if (!checkpointingEnabled) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_SEMANTIC.key(),
                    "Invalid sink option 'sink.semantic' = 'exactly-once': the job has checkpointing disabled, and "
                            + "exactly-once commits only when a checkpoint completes; enable checkpointing "
                            + "(env.enableCheckpointing(ms)) or use 'at-least-once'");
        }
        if (intervalMs.isPresent() && timeoutSeconds * 1000L <= intervalMs.getAsLong()) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.STREAM_LOAD_TIMEOUT_SECONDS.key(),
                    "Invalid sink option 'sink.properties.timeout' = '" + timeoutSeconds + "': in exactly-once mode "
                            + "a transaction stays open from one checkpoint to the next, so the server's transaction "
                            + "timeout must exceed the checkpoint interval (" + intervalMs.getAsLong() + " ms); "
                            + "expected at least " + (intervalMs.getAsLong() / 1000 + 1) + " seconds, better "
                            + "several intervals");
        }
    }
}
