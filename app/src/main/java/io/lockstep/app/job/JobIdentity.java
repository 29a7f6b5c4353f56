package io.lockstep.app.job;

import io.lockstep.app.rebuild.TopicLayout;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whose state a checkpoint is: the job's target family, target database, source (a Kafka topic, or {@code file:NAME}
 * for {@code --input}), input format and job id. {@link JobIdentityCheck} keeps it in the job's operator state and
 * compares it on every restore, and {@link CheckpointOwner} reads it back from a checkpoint before a job is
 * submitted, so that one job never restores another one's Kafka offsets and open transactions (which would load the
 * other job's topic under this job's id, and load it again when the other job resumes). Immutable.
 *
 * @param target the server family's option value, {@code starrocks} or {@code doris}
 * @param database the target database ({@code --database})
 * @param source the topic, {@code file:NAME} for a JSON-lines input, or for Debezium's default layout (one topic per
 *     table and the transaction topic, {@link PipelineConfig#topicLayout()}) {@code layout:<transaction topic>|topics:
 *     <sorted table topics, comma-separated>} or {@code layout:<transaction topic>|pattern:<regex>} ({@link #sourceOf}):
 *     a one-topic job's state and a multi-topic job's never pass for each other, nor two layouts reading other topics
 * @param format the input format's option value, {@code debezium} or {@code maxwell}
 * @param jobId the job id: {@code --job-id}, else {@code <group id>-<topic>} in every mode
 *     ({@link ExactlyOnceAcrossTables#defaultJobId})
 */
public record JobIdentity(String target, String database, String source, String format, String jobId)
        implements Serializable {
    private static final long serialVersionUID = 1L;
    /** First field of the encoded form; a later layout gets a new one. */
    private static final String VERSION = "v1";
    private static final String SEPARATOR = "\t";
    /** Prefix of a {@link #source()} of Debezium's default layout; cannot start a topic name ({@code :}). */
    private static final String LAYOUT = "layout:";

    /** @throws NullPointerException for a missing field */
    public JobIdentity {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(jobId, "jobId");
    }

    /**
     * @param config the job's settings
     * @return the identity of the job {@code config} defines: its job id is the exactly-once sink's, else the default
     *     {@code <group id>-<topic>}
     */
    public static JobIdentity of(PipelineConfig config) {
        String jobId = ExactlyOnceAcrossTables.jobId(config);
        return new JobIdentity(config.target().optionValue(), config.database(), sourceOf(config),
                config.format().name().toLowerCase(Locale.ROOT),
                jobId != null ? jobId : ExactlyOnceAcrossTables.defaultJobId(config.groupId(), config.topic()));
    }

    /**
     * @param config the job's settings
     * @return the job's {@link #source()}: its topic, or for a {@link PipelineConfig#topicLayout()} the transaction
     *     topic and the sorted table topics (or their pattern); Kafka topic names hold only letters, digits, {@code .},
     *     {@code _} and {@code -}, so {@code |} and {@code ,} separate them unambiguously (the pattern comes last)
     */
    static String sourceOf(PipelineConfig config) {
        TopicLayout layout = config.topicLayout();
        if (layout == null) {
            return config.topic();
        }
        return LAYOUT + layout.transactionTopic() + (layout.tableTopicPattern() != null
                ? "|pattern:" + layout.tableTopicPattern()
                : "|topics:" + String.join(",", new TreeSet<>(layout.tableTopics())));
    }

    /** @return the form kept in the operator state: {@code v1}, then the fields, tab-separated */
    public String encode() {
        return String.join(SEPARATOR, VERSION, clean(target), clean(database), clean(source), clean(format),
                clean(jobId));
    }

    /**
     * @param encoded what {@link #encode} wrote
     * @return the identity, or empty when {@code encoded} is not of a layout this version knows
     */
    public static Optional<JobIdentity> decode(String encoded) {
        String[] fields = encoded == null ? new String[0] : encoded.split(SEPARATOR, -1);
        if (fields.length != 6 || !VERSION.equals(fields[0])) {
            return Optional.empty();
        }
        return Optional.of(new JobIdentity(fields[1], fields[2], fields[3], fields[4], fields[5]));
    }

    /**
     * @return e.g. {@code job 'lockstep-shop_cdc' (debezium from topic 'shop.cdc' into starrocks database 'shop')}
     */
    public String describe() {
        return "job '" + jobId + "' (" + format + " from " + describeSource(source) + " into " + target
                + " database '" + database + "')";
    }

    /**
     * @param source a {@link #source()}: a topic, {@code file:NAME}, or a layout of {@link #sourceOf}
     * @return {@code topic 'NAME'}, {@code file 'NAME'}, {@code transaction topic 'T' with table topics 'A', 'B'} or
     *     {@code transaction topic 'T' with the table topics matching 'REGEX'}
     */
    public static String describeSource(String source) {
        if (source.startsWith(LAYOUT)) {
            int bar = source.indexOf('|');
            if (bar > 0) {
                String tables = source.substring(bar + 1);
                return "transaction topic '" + source.substring(LAYOUT.length(), bar) + "' with "
                        + (tables.startsWith("pattern:") ? "the table topics matching '" + tables.substring(8) + "'"
                                : "table topics '" + tables.substring(7).replace(",", "', '") + "'");
            }
        }
        return source.startsWith("file:") ? "file '" + source.substring(5) + "'" : "topic '" + source + "'";
    }

    /** Tabs cannot occur in topic, database or job names; a file name's become spaces. */
    private static String clean(String field) {
        return field.replace(SEPARATOR, " ");
    }
}
