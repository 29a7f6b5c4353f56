package io.lockstep.app.job;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.rebuild.TopicLayout;
import io.lockstep.app.route.TargetTables;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.core.server.Target;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Everything {@link LockstepPipeline} needs to define the job Kafka → decode → assemble → route → sink (the
 * multi-table sink on StarRocks, the per-table exactly-once sink on Apache Doris). Built by {@code lockstep run}
 * from its options, and by the demo. Immutable.
 *
 * @param kafkaBootstrap Kafka {@code bootstrap.servers}
 * @param topic the CDC topic (Debezium: BEGIN, data events and END routed into this one topic); with a
 *     {@code topicLayout} the transaction topic (the layout names the table topics), which names the job
 * @param groupId Kafka consumer group (offsets are committed to it on checkpoints)
 * @param kafkaProperties further Kafka consumer settings (security, timeouts), may be empty
 * @param bounded {@code true} to stop at the end offsets seen at job start (a backfill; the job then ends)
 * @param format the input format
 * @param keyColumns primary-key columns per source table {@code db.table}, to detect key-changing updates
 *     when the messages do not name the key; may be empty
 * @param loadUrl the target's FE HTTP addresses, {@code host:port;host:port}
 * @param jdbcUrl StarRocks MySQL-protocol URL, or {@code null} (only used for optional probes)
 * @param database target database of the same-name routing
 * @param tableMap {@code src_db.src_table=target_db.target_table,...}, or {@code null} for same-name routing
 * @param unknownTableMode what happens to a table the map does not name
 * @param username the user the sink loads as
 * @param password that user's password (never logged)
 * @param labelPrefix stream load label prefix, or {@code null} for the sink's default
 * @param parallelism parallelism of every operator (&gt; 0); at most the topic's partition count is useful
 * @param checkpointIntervalMs Flink checkpoint interval in ms (&gt; 0): the sink commits everything at each
 *     checkpoint, and a restart replays from the last one
 * @param commitIntervalMs the sink's commit interval ({@code sink.buffer-flush.interval-ms}) in ms
 * @param restartAttempts restarts Flink tries after a failure before the job fails (&gt;= 0)
 * @param restartDelayMs wait in ms before each restart (&gt;= 0)
 * @param assembler the assemblers' bounds and bad-input handling
 * @param sinkProperties the user's own sink options ({@code --sink-option}, docs/options.md), applied last as
 *     given, so they win over every value above; may be empty
 * @param target the server family: {@link Target#STARROCKS} (multi-table transactions) or
 *     {@link Target#DORIS} (per-table two-phase commit, docs/doris.md), chosen once from {@code --target}
 * @param semantic the delivery semantic on StarRocks ({@code --semantic}; {@link DeliverySemantic#EXACTLY_ONCE}
 *     selects {@link ExactlyOnceAcrossTables}), or {@code null} for the sink's default ({@code at-least-once}) and
 *     on Doris, which always loads exactly-once per table
 * @param jobId the job id under which the exactly-once mode keeps its committed source positions ({@code --job-id},
 *     {@code sink.transaction.multi-table.job-id}), or {@code null}
 * @param targetTables the target's tables as the pre-flight check listed them ({@code TargetCheck}), so rows of
 *     tables the target lacks are caught before they are sent; {@code null} when not listed (nothing checked)
 * @param adoptState whether the job may restore a checkpoint or savepoint another job wrote, taking it over under its
 *     own {@link JobIdentity} ({@code --adopt-state}); otherwise such a restore fails the job once
 *     ({@link JobIdentityCheck})
 * @param topicLayout Debezium's default layout, one topic per table and the transaction topic, from which the job
 *     rebuilds each source transaction ({@code --transaction-topic}, docs/sources.md#debeziums-default-layout-one-topic-per-table),
 *     or {@code null} for the one-topic layout (everything in {@code topic})
 * @param maxTopicDriftMs with a {@code topicLayout}: how far, in Kafka record time (ms, &gt; 0), a partition may read
 *     ahead of the slowest active one before the Kafka source pauses it (Flink's split-level watermark alignment,
 *     {@code --max-topic-drift}); unused without a layout
 */
public record PipelineConfig(String kafkaBootstrap, String topic, String groupId, Properties kafkaProperties,
        boolean bounded, CdcFormat format, Map<String, List<String>> keyColumns, String loadUrl,
        String jdbcUrl, String database, String tableMap, UnknownTableMode unknownTableMode, String username,
        String password, String labelPrefix, int parallelism, long checkpointIntervalMs, long commitIntervalMs,
        int restartAttempts, long restartDelayMs, AssemblerOptions assembler, Map<String, String> sinkProperties,
        Target target, DeliverySemantic semantic, String jobId, TargetTables targetTables, boolean adoptState,
        TopicLayout topicLayout, long maxTopicDriftMs) {

    /** Default consumer group. */
    public static final String DEFAULT_GROUP_ID = "lockstep";
    /** Default checkpoint interval: 10 s. */
    public static final long DEFAULT_CHECKPOINT_INTERVAL_MS = 10_000L;
    /** Default commit interval: 2 s (the sink's own default is 300 s). */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 2_000L;
    /** Default of {@link #maxTopicDriftMs()}: 30 s. */
    public static final long DEFAULT_MAX_TOPIC_DRIFT_MS = 30_000L;

    /**
     * @throws NullPointerException for a missing required value
     * @throws IllegalArgumentException naming the value that is out of range
     */
    public PipelineConfig {
        Objects.requireNonNull(kafkaBootstrap, "kafkaBootstrap");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(groupId, "groupId");
        kafkaProperties = copy(kafkaProperties);
        Objects.requireNonNull(format, "format");
        keyColumns = keyColumns == null ? Map.of() : Map.copyOf(keyColumns);
        Objects.requireNonNull(loadUrl, "loadUrl");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(unknownTableMode, "unknownTableMode");
        Objects.requireNonNull(username, "username");
        password = password == null ? "" : password;
        Objects.requireNonNull(assembler, "assembler");
        Objects.requireNonNull(target, "target");
        sinkProperties = sinkProperties == null ? Map.of() : new LinkedHashMap<>(sinkProperties);
        if (parallelism <= 0) {
            throw new IllegalArgumentException("parallelism must be positive, got " + parallelism);
        }
        if (checkpointIntervalMs <= 0) {
            throw new IllegalArgumentException("checkpoint interval must be positive, got " + checkpointIntervalMs);
        }
        if (restartAttempts < 0 || restartDelayMs < 0) {
            throw new IllegalArgumentException("restart attempts and delay must not be negative, got "
                    + restartAttempts + " and " + restartDelayMs);
        }
        if (topicLayout != null && !topicLayout.transactionTopic().equals(topic)) {
            throw new IllegalArgumentException("the topic of a job reading the multi-topic layout is its transaction "
                    + "topic '" + topicLayout.transactionTopic() + "', got '" + topic + "'");
        }
        if (topicLayout != null && maxTopicDriftMs <= 0) {
            throw new IllegalArgumentException("the topic drift must be positive, got " + maxTopicDriftMs);
        }
    }

    /**
     * A job whose target tables are not listed; the other parameters as in the canonical constructor.
     *
     * @throws NullPointerException for a missing required value
     * @throws IllegalArgumentException naming the value that is out of range
     */
    public PipelineConfig(String kafkaBootstrap, String topic, String groupId, Properties kafkaProperties,
            boolean bounded, CdcFormat format, Map<String, List<String>> keyColumns, String loadUrl,
            String jdbcUrl, String database, String tableMap, UnknownTableMode unknownTableMode, String username,
            String password, String labelPrefix, int parallelism, long checkpointIntervalMs, long commitIntervalMs,
            int restartAttempts, long restartDelayMs, AssemblerOptions assembler, Map<String, String> sinkProperties,
            Target target) {
        this(kafkaBootstrap, topic, groupId, kafkaProperties, bounded, format, keyColumns, loadUrl, jdbcUrl, database,
                tableMap, unknownTableMode, username, password, labelPrefix, parallelism, checkpointIntervalMs,
                commitIntervalMs, restartAttempts, restartDelayMs, assembler, sinkProperties, target, null, null, null,
                false, null, DEFAULT_MAX_TOPIC_DRIFT_MS);
    }

    /**
     * @param semantic the delivery semantic, or {@code null} (see the canonical constructor)
     * @param jobId the job id of the exactly-once mode, or {@code null}
     * @return this config with {@code semantic} and {@code jobId}
     */
    public PipelineConfig withSemantic(DeliverySemantic semantic, String jobId) {
        return new PipelineConfig(kafkaBootstrap, topic, groupId, kafkaProperties, bounded, format, keyColumns, loadUrl,
                jdbcUrl, database, tableMap, unknownTableMode, username, password, labelPrefix, parallelism,
                checkpointIntervalMs, commitIntervalMs, restartAttempts, restartDelayMs, assembler, sinkProperties,
                target, semantic, jobId, targetTables, adoptState, topicLayout, maxTopicDriftMs);
    }

    /** @return this config with the target's tables as listed by the pre-flight check */
    public PipelineConfig withTargetTables(TargetTables tables) {
        return new PipelineConfig(kafkaBootstrap, topic, groupId, kafkaProperties, bounded, format, keyColumns, loadUrl,
                jdbcUrl, database, tableMap, unknownTableMode, username, password, labelPrefix, parallelism,
                checkpointIntervalMs, commitIntervalMs, restartAttempts, restartDelayMs, assembler, sinkProperties,
                target, semantic, jobId, tables, adoptState, topicLayout, maxTopicDriftMs);
    }

    /** @return this config with other assembler options (e.g. the committed source positions read at start) */
    public PipelineConfig withAssembler(AssemblerOptions options) {
        return new PipelineConfig(kafkaBootstrap, topic, groupId, kafkaProperties, bounded, format, keyColumns, loadUrl,
                jdbcUrl, database, tableMap, unknownTableMode, username, password, labelPrefix, parallelism,
                checkpointIntervalMs, commitIntervalMs, restartAttempts, restartDelayMs, options, sinkProperties,
                target, semantic, jobId, targetTables, adoptState, topicLayout, maxTopicDriftMs);
    }

    /** @return this config allowed to restore another job's state ({@code --adopt-state}) */
    public PipelineConfig withAdoptedState() {
        return new PipelineConfig(kafkaBootstrap, topic, groupId, kafkaProperties, bounded, format, keyColumns, loadUrl,
                jdbcUrl, database, tableMap, unknownTableMode, username, password, labelPrefix, parallelism,
                checkpointIntervalMs, commitIntervalMs, restartAttempts, restartDelayMs, assembler, sinkProperties,
                target, semantic, jobId, targetTables, true, topicLayout, maxTopicDriftMs);
    }

    /**
     * @param layout Debezium's default layout the job reads, or {@code null} for the one-topic layout; its
     *     {@link TopicLayout#transactionTopic()} becomes {@link #topic()}
     * @param maxDriftMs how far a partition may read ahead of the slowest active one, ms (&gt; 0)
     * @return this config reading {@code layout}
     * @throws IllegalArgumentException for a drift that is not positive
     */
    public PipelineConfig withTopicLayout(TopicLayout layout, long maxDriftMs) {
        return new PipelineConfig(kafkaBootstrap, layout != null ? layout.transactionTopic() : topic, groupId,
                kafkaProperties, bounded, format, keyColumns, loadUrl, jdbcUrl, database, tableMap, unknownTableMode,
                username, password, labelPrefix, parallelism, checkpointIntervalMs, commitIntervalMs, restartAttempts,
                restartDelayMs, assembler, sinkProperties, target, semantic, jobId, targetTables, adoptState, layout,
                maxDriftMs);
    }

    /**
     * A StarRocks job ({@link Target#STARROCKS}); the other parameters as in the canonical constructor.
     *
     * @throws NullPointerException for a missing required value
     * @throws IllegalArgumentException naming the value that is out of range
     */
    public PipelineConfig(String kafkaBootstrap, String topic, String groupId, Properties kafkaProperties,
            boolean bounded, CdcFormat format, Map<String, List<String>> keyColumns, String loadUrl,
            String jdbcUrl, String database, String tableMap, UnknownTableMode unknownTableMode, String username,
            String password, String labelPrefix, int parallelism, long checkpointIntervalMs, long commitIntervalMs,
            int restartAttempts, long restartDelayMs, AssemblerOptions assembler, Map<String, String> sinkProperties) {
        this(kafkaBootstrap, topic, groupId, kafkaProperties, bounded, format, keyColumns, loadUrl, jdbcUrl, database,
                tableMap, unknownTableMode, username, password, labelPrefix, parallelism, checkpointIntervalMs,
                commitIntervalMs, restartAttempts, restartDelayMs, assembler, sinkProperties, Target.STARROCKS);
    }

    private static Properties copy(Properties properties) {
        Properties copy = new Properties();
        if (properties != null) {
            copy.putAll(properties);
        }
        return copy;
    }

    /** @return the password hidden, for {@code toString} */
    @Override
    public String toString() {
        return "PipelineConfig[target=" + target.optionValue() + ", topic=" + topic
                + (topicLayout == null ? "" : ", topicLayout=" + topicLayout) + ", format=" + format
                + ", loadUrl=" + loadUrl + ", database=" + database + ", tableMap=" + tableMap + ", username="
                + username + ", password=***, parallelism=" + parallelism + ", checkpointIntervalMs="
                + checkpointIntervalMs + ", commitIntervalMs=" + commitIntervalMs + "]";
    }
}
