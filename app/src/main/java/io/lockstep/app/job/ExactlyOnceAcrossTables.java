package io.lockstep.app.job;

import io.lockstep.flink.options.SinkTarget;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sink options of the exactly-once multi-table mode as {@code lockstep run} sets them (docs/exactly-once.md,
 * docs/options.md): {@code sink.semantic=exactly-once} with multi-table transactions, and the job id under which
 * the progress table keeps the committed source positions. {@link LockstepPipeline} reads them back from the
 * job's sink properties (the mode is a sink option; a {@code --sink-option} given by the user wins). Stateless.
 */
public final class ExactlyOnceAcrossTables {

    /** The sink's semantic option. */
    public static final String SEMANTIC_OPTION = "sink.semantic";
    /** The sink's job id option of the mode. */
    public static final String JOB_ID_OPTION = "sink.transaction.multi-table.job-id";

    private ExactlyOnceAcrossTables() {
    }

    /**
     * The default job id: the consumer group and the topic, {@code <group>/<topic>}. Two jobs on one topic need
     * two consumer groups anyway; a job id shared by two jobs makes each drop the other's transactions.
     *
     * @return {@code groupId + "/" + topic}
     */
    public static String defaultJobId(String groupId, String topic) {
        return groupId + "/" + topic;
    }

    /**
     * @param semantic the semantic asked for
     * @param jobId the job id (exactly-once only)
     * @return the sink options that select {@code semantic}, to be applied before the user's own
     */
    public static Map<String, String> sinkOptions(DeliverySemantic semantic, String jobId) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(SEMANTIC_OPTION, semantic.optionValue());
        if (semantic == DeliverySemantic.EXACTLY_ONCE) {
            options.put(JOB_ID_OPTION, jobId);
        }
        return options;
    }

    /** @return whether {@code config} selects the exactly-once multi-table mode (StarRocks, semantic exactly-once) */
    public static boolean enabled(PipelineConfig config) {
        return config.target() == SinkTarget.STARROCKS
                && DeliverySemantic.EXACTLY_ONCE.optionValue().equals(config.sinkProperties().get(SEMANTIC_OPTION));
    }

    /** @return the job id of an {@link #enabled} config, or {@code null} */
    public static String jobId(PipelineConfig config) {
        return enabled(config) ? config.sinkProperties().get(JOB_ID_OPTION) : null;
    }
}
