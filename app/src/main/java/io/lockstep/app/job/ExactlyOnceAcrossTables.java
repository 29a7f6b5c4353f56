package io.lockstep.app.job;

/**
 * The exactly-once multi-table mode of {@code lockstep run} (docs/exactly-once.md, docs/options.md): StarRocks with
 * {@link PipelineConfig#semantic()} exactly-once, and the job id ({@link PipelineConfig#jobId()}) under which the
 * progress table keeps the committed source positions. {@link LockstepPipeline#sinkOptions} gives both to the sink
 * as {@code sink.semantic} and {@code sink.transaction.multi-table.job-id}. Stateless.
 */
public final class ExactlyOnceAcrossTables {

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
     * @return whether {@code config} selects the exactly-once multi-table mode (StarRocks,
     *     {@link PipelineConfig#semantic()} exactly-once)
     */
    public static boolean enabled(PipelineConfig config) {
        return config.target().hasMultiTableTransactions()
                && config.semantic() == DeliverySemantic.EXACTLY_ONCE;
    }

    /** @return the job id of an {@link #enabled} config ({@link PipelineConfig#jobId()}), or {@code null} */
    public static String jobId(PipelineConfig config) {
        return enabled(config) ? config.jobId() : null;
    }
}
