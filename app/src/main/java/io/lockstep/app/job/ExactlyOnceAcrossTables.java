package io.lockstep.app.job;

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

    /** Longest job id the sink accepts. */
    static final int MAX_JOB_ID_LENGTH = 64;

    /**
     * The default job id: the consumer group and the topic, {@code <group>-<topic>}, every character the sink's
     * job id does not allow (anything but letters, digits, {@code _} and {@code -}) written as {@code _}, e.g.
     * {@code lockstep-shop_cdc} for group {@code lockstep} and topic {@code shop.cdc}. Beyond 64 characters it is
     * cut to 55 and ends in {@code -} and 8 hex digits of the untouched text's hash. Two jobs on one topic need
     * two consumer groups anyway; a job id shared by two jobs makes each drop the other's transactions.
     *
     * @return the job id for {@code groupId} and {@code topic}
     */
    public static String defaultJobId(String groupId, String topic) {
        String raw = groupId + "-" + topic;
        String id = raw.replaceAll("[^A-Za-z0-9_-]", "_");
        if (id.length() > MAX_JOB_ID_LENGTH) {
            id = id.substring(0, MAX_JOB_ID_LENGTH - 9) + "-" + String.format("%08x", raw.hashCode());
        }
        return id;
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
        return config.target().target().hasMultiTableTransactions()
                && DeliverySemantic.EXACTLY_ONCE.optionValue().equals(config.sinkProperties().get(SEMANTIC_OPTION));
    }

    /** @return the job id of an {@link #enabled} config, or {@code null} */
    public static String jobId(PipelineConfig config) {
        return enabled(config) ? config.sinkProperties().get(JOB_ID_OPTION) : null;
    }
}
