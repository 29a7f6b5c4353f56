package io.lockstep.app.job;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.TransactionStreams;
import io.lockstep.app.create.MidStreamTableCreator;
import io.lockstep.app.create.TableCreation;
import io.lockstep.app.create.TableCreator;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.kafka.CdcKafkaSource;
import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.app.rebuild.TopicLayout;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.app.schema.DorisSchemaColumnReader;
import io.lockstep.app.schema.HttpSqlColumnReader;
import io.lockstep.app.schema.JdbcColumnReader;
import io.lockstep.app.schema.SchemaApplier;
import io.lockstep.core.server.Target;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigBuilder;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.row.SinkInput;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.options.StreamLoadFormat;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Defines the main job: Kafka ({@link CdcKafkaSource}) → decode and assemble source transactions
 * ({@link TransactionStreams#assemble}; with Debezium's default layout, {@link PipelineConfig#topicLayout()}, the
 * table topics and the transaction topic are read with watermark alignment and every transaction is rebuilt across
 * them before it is assembled, docs/sources.md#debeziums-default-layout-one-topic-per-table) → route each source partition to one sink subtask
 * ({@link SourcePartitionRouting}) → the multi-table sink ({@code sink.transaction.multi-table.enabled=true},
 * docs/sinks.md; attached by {@code PipelineSink}: the SinkFunction on Flink 1.20, Sink V2 on Flink 2.x). With {@link Target#DORIS} the rows pass
 * {@link DorisDeleteSign} and go to the per-table exactly-once sink instead (Doris two-phase commit, one
 * transaction per table and flush, committed when the checkpoint completes; docs/doris.md): Doris has no
 * multi-table transaction, so each table is exactly-once on its own. Every operator runs at the configured
 * parallelism; checkpointing is exactly-once mode (aligned barriers keep the assemblers' state consistent with
 * the Kafka offsets), and the sink commits everything buffered at each checkpoint. A failure that can never heal
 * (access denied, a data error, the progress table) fails the job without restarts on both Flink lines (the sink
 * raises it as {@code NonRecoverableSinkFailure}), as bad input does; on Flink 1.20 the sink is wrapped in
 * {@code FailFastSink}, which commits what is complete before bad input fails the job.
 *
 * <p>Operator uids are fixed ({@value #SOURCE_UID}, {@value #JOB_IDENTITY_UID}, the assemble uids,
 * {@value #SINK_UID}) so state restores from checkpoints and savepoints across versions of the job; the
 * {@link JobIdentityCheck} right after the source refuses a checkpoint or savepoint another job wrote.
 *
 * <p>Schema changes (docs/schema-changes.md): the assemblers check every row against its target table's columns (read
 * through {@code jdbc-url}, else the HTTP SQL API on StarRocks and {@code _schema} on Doris) and handle a DDL event or a column the target lacks as
 * {@code --schema-changes} says; with {@code apply} the sink applies the change through {@code jdbc-url} as a barrier.
 */
public final class LockstepPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(LockstepPipeline.class);

    /** Uid of the Kafka source (holds the partition offsets). */
    public static final String SOURCE_UID = "lockstep-kafka-source";
    /** Uid of the sink. */
    public static final String SINK_UID = "lockstep-sink";
    /** Name of the sink operator (its metric group carries the engine's metrics, e.g. {@code commits}). */
    public static final String SINK_NAME = "lockstep multi-table sink";
    /** Name of the sink operator with {@link Target#DORIS}. */
    public static final String DORIS_SINK_NAME = "lockstep per-table sink (Doris)";
    /** Uid of the {@link SourceIdentity} step (stateless; fixed like the others). */
    public static final String SOURCE_IDENTITY_UID = "lockstep-source-identity";
    /** Uid of the {@link JobIdentityCheck} step right after the source (holds the job's identity). */
    public static final String JOB_IDENTITY_UID = "lockstep-job-identity";
    /** Uid of the {@link DorisDeleteSign} step (stateless; fixed like the others). */
    public static final String DORIS_DELETE_SIGN_UID = "lockstep-doris-delete-sign";

    /** Longest wait for one applied column change to show in the target's {@code SHOW COLUMNS}: 10 minutes. */
    static final long SCHEMA_CHANGE_TIMEOUT_MS = 600_000L;

    private LockstepPipeline() {
    }

    /**
     * Applies parallelism, checkpointing and the restart strategy to {@code env}, then adds the job.
     *
     * @param env the environment: {@code StreamExecutionEnvironment.getExecutionEnvironment()} (a local
     *     MiniCluster under {@code java -jar}, the cluster under {@code flink run}) or a local one in tests
     * @param config the job's settings
     * @param beforeSink applied to the assembled rows before they are routed to the sink (the demo inserts
     *     its fault trigger there); {@code UnaryOperator.identity()} otherwise
     * @throws io.lockstep.flink.options.InvalidSinkOptionException (a subclass of
     *     IllegalArgumentException) naming a sink option that is invalid
     * @throws IllegalArgumentException for an invalid table map
     */
    public static void define(StreamExecutionEnvironment env, PipelineConfig config,
            UnaryOperator<DataStream<SinkInput>> beforeSink) {
        define(env, config, beforeSink, CommittedStartOffsets.Plan.configured(config.topic()));
    }

    /**
     * As {@link #define(StreamExecutionEnvironment, PipelineConfig, UnaryOperator)}, with the Kafka source
     * starting as {@code start} says when the job has no checkpoint ({@link CommittedStartOffsets}), and the
     * rows carrying {@code start.source()} (the topic and its id, {@link SourceIdentity}).
     */
    public static void define(StreamExecutionEnvironment env, PipelineConfig config,
            UnaryOperator<DataStream<SinkInput>> beforeSink, CommittedStartOffsets.Plan start) {
        TopicLayout layout = config.topicLayout();
        if (layout != null) {
            define(env, config, e -> e.fromSource(
                    CdcKafkaSource.create(config.kafkaBootstrap(), layout, config.groupId(), config.bounded(),
                            config.assembler().badInputMode(), config.kafkaProperties(), start.offsets()),
                    CdcKafkaSource.alignedWatermarks(Duration.ofMillis(config.maxTopicDriftMs()),
                            CdcKafkaSource.ALIGNMENT_UPDATE_INTERVAL),
                    "kafka " + describeTopics(layout))
                    .uid(SOURCE_UID), beforeSink,
                    new SourceIdentity(start.sources()), true); // covered positions carry each topic's identity
            return;
        }
        define(env, config, e -> e.fromSource(
                CdcKafkaSource.create(config.kafkaBootstrap(), config.topic(), config.groupId(), config.bounded(),
                        config.assembler().badInputMode(), config.kafkaProperties(), start.offsets()),
                WatermarkStrategy.noWatermarks(), "kafka " + config.topic())
                .uid(SOURCE_UID), beforeSink, identity(config.topic(), start.source()), true);
    }

    /**
     * As {@link #define}, with the records of another source instead of Kafka (a JSON-lines file for
     * {@code lockstep run --input}); {@code config}'s Kafka settings are then unused.
     *
     * @param env the environment
     * @param config the job's settings
     * @param records the raw messages, each source partition's in order
     * @param beforeSink applied to the assembled rows before they are routed to the sink
     * @throws io.lockstep.flink.options.InvalidSinkOptionException naming a sink option that is invalid
     * @throws IllegalArgumentException for an invalid table map
     */
    public static void define(StreamExecutionEnvironment env, PipelineConfig config,
            Function<StreamExecutionEnvironment, DataStream<SourceRecord>> records,
            UnaryOperator<DataStream<SinkInput>> beforeSink) {
        define(env, config, records, beforeSink, null, false);
    }

    /**
     * The job with {@code records} as input; the rows pass {@code identity} (the topics' names with their ids,
     * {@link SourceIdentity}) unless it is {@code null}. With
     * {@code inputResumes} (Kafka) a transaction still open at the end of a bounded input is left for the next run,
     * else (a file) it fails the job ({@link AssemblerOptions#inputResumes()}).
     */
    private static void define(StreamExecutionEnvironment env, PipelineConfig config,
            Function<StreamExecutionEnvironment, DataStream<SourceRecord>> records,
            UnaryOperator<DataStream<SinkInput>> beforeSink, SourceIdentity identity, boolean inputResumes) {
        SinkConfig sinkOptions = sinkOptions(config);
        TableCreation creation = config.assembler().tableCreation();
        TableRouter router = TableRouter.parse(config.tableMap(), config.database(), config.unknownTableMode())
                .withTargetTables(config.targetTables())
                .withNaming(creation == null ? null : creation.targets());
        Configuration settings = new Configuration();
        settings.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, config.restartAttempts());
        settings.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                Duration.ofMillis(config.restartDelayMs()));
        env.configure(settings);
        env.setParallelism(config.parallelism());
        env.enableCheckpointing(config.checkpointIntervalMs()); // exactly-once mode (aligned barriers), the default

        // StarRocks and Doris ignore JSON keys a table lacks: the rows are checked against the target's columns
        // (and, with their types, the values) instead
        ColumnReader columns = columnReader(config, sinkOptions);
        // the first step after the source: a restore of another job's state fails here, before anything is read
        DataStream<SourceRecord> input = records.apply(env);
        DataStream<SourceRecord> checked = input
                .map(new JobIdentityCheck(JobIdentity.of(config), config.adoptState()), input.getType())
                .setParallelism(input.getParallelism()) // chained to the source: each partition's order kept
                .name("job identity").uid(JOB_IDENTITY_UID);
        DataStream<SinkInput> rows = assemble(checked, config, router, config.assembler().withInputResumes(inputResumes),
                columns);
        if (identity != null) {
            rows = rows.map(identity).name("source identity")
                    .uid(SOURCE_IDENTITY_UID);
        }
        SourcePartitionRouting routing = new SourcePartitionRouting();
        DataStream<SinkInput> routed = beforeSink.apply(rows).partitionCustom(routing, routing);
        Target target = config.target();
        if (target.deleteColumnIsHidden()) { // Doris: deletes are flagged in its hidden delete-sign column
            routed = routed.map(new DorisDeleteSign()).name("doris delete sign").uid(DORIS_DELETE_SIGN_UID);
        }
        PipelineSink.attach(routed, sinkOptions, schemaApplier(config), tableCreator(config))
                .name(sinkName(target))
                .uid(SINK_UID);
    }

    /** @return the step that renames {@code topic} to {@code source}, or {@code null} when they are the same */
    private static SourceIdentity identity(String topic, String source) {
        return source.equals(topic) ? null : new SourceIdentity(topic, source);
    }

    /**
     * Decode and assemble ({@link TransactionStreams#assemble}); with a {@link PipelineConfig#topicLayout()} the
     * decoded events pass the cross-topic rebuild first, so every transaction is whole and in commit order before it
     * is assembled (docs/sources.md#debeziums-default-layout-one-topic-per-table).
     */
    private static DataStream<SinkInput> assemble(DataStream<SourceRecord> records, PipelineConfig config,
            TableRouter router, AssemblerOptions options, ColumnReader columns) {
        TopicLayout layout = config.topicLayout();
        if (layout == null) {
            return TransactionStreams.assemble(records, config.format(), config.format().decoder(config.keyColumns()),
                    router, options, columns);
        }
        return TransactionStreams.assemble(records, config.format(), config.format().decoder(config.keyColumns()),
                router, options, columns, layout);
    }

    /**
     * @param layout Debezium's default layout
     * @return e.g. {@code pg.transaction and 2 table topics} or {@code pg.transaction and the topics matching 'REGEX'},
     *     for the source's name and the start line
     */
    public static String describeTopics(TopicLayout layout) {
        return layout.transactionTopic() + " and " + (layout.tableTopicPattern() != null
                ? "the table topics matching '" + layout.tableTopicPattern() + "'"
                : layout.tableTopics().size() + " table topic" + (layout.tableTopics().size() == 1 ? "" : "s"));
    }

    /**
     * @return what reads the target tables' columns for the assembler's checks (docs/schema-changes.md,
     *     docs/dead-letter.md): with {@link PipelineConfig#jdbcUrl()} {@code DESC} through it (names, types,
     *     nullability; StarRocks and Doris), else on StarRocks {@code information_schema.columns} through the HTTP
     *     SQL API (the same), on Doris {@code GET /api/{db}/{table}/_schema} (names and types without CHAR/VARCHAR
     *     length or nullability, said in one INFO line)
     */
    private static ColumnReader columnReader(PipelineConfig config, SinkConfig sinkOptions) {
        if (config.jdbcUrl() != null) {
            return new JdbcColumnReader(config.jdbcUrl(), config.username(), config.password());
        }
        if (sinkOptions.getTarget().hasHttpSqlApi()) {
            return new HttpSqlColumnReader(sinkOptions);
        }
        LOG.info("Doris columns are read through GET /api/{db}/{table}/_schema (no --jdbc-url): values are checked "
                + "for type, range, DECIMAL precision and scale and dates before loading; CHAR/VARCHAR lengths and "
                + "NULL into NOT NULL columns are not, and strict mode refuses such a load as a whole (give "
                + "--jdbc-url to check them too)");
        return new DorisSchemaColumnReader(sinkOptions);
    }

    /** @return the sink operator's name on {@code target}: {@link #SINK_NAME} or {@link #DORIS_SINK_NAME} */
    static String sinkName(Target target) {
        return switch (target) {
            case STARROCKS -> SINK_NAME;
            case DORIS -> DORIS_SINK_NAME;
        };
    }

    /**
     * @return the applier of {@code --schema-changes apply} (through {@link PipelineConfig#jdbcUrl()}), or
     *     {@code null} in the other modes or without a JDBC URL
     */
    private static SchemaApplier schemaApplier(PipelineConfig config) {
        return config.assembler().schemaChangeMode() == SchemaChangeMode.APPLY && config.jdbcUrl() != null
                ? new SchemaApplier(config.jdbcUrl(), config.username(), config.password(), SCHEMA_CHANGE_TIMEOUT_MS)
                : null;
    }

    /**
     * @return the sink's creator of tables while the job runs ({@code --create-tables}, through
     *     {@link PipelineConfig#jdbcUrl()}), or {@code null} without table creation or a JDBC URL
     */
    private static MidStreamTableCreator tableCreator(PipelineConfig config) {
        TableCreation creation = config.assembler().tableCreation();
        return creation == null || config.jdbcUrl() == null ? null : new MidStreamTableCreator(new TableCreator(
                config.jdbcUrl(), config.username(), config.password(), MidStreamTableCreator.VISIBLE_TIMEOUT_MS),
                creation.options());
    }

    /**
     * The sink's typed configuration for {@code config}, built with {@link SinkConfig#builder()} (the options of
     * docs/options.md): {@code database-name} and {@code table-name} {@code *} (each row names its table), JSON rows,
     * the commit interval, and by target ({@link Target#hasMultiTableTransactions()}):
     * <ul>
     *   <li>StarRocks: {@code sink.version=V2} and multi-table transactions; in the exactly-once mode
     *       ({@link ExactlyOnceAcrossTables}) {@code database-name} is the fixed {@link PipelineConfig#database()}, where the progress table
     *       lives (a multi-table transaction spans one database);</li>
     *   <li>Doris: {@code sink.target=doris}, {@code sink.semantic=exactly-once} (per table) and
     *       {@code sink.properties.hidden_columns=__DORIS_DELETE_SIGN__}, so Doris reads the delete sign that
     *       {@link DorisDeleteSign} writes (docs/doris.md).</li>
     * </ul>
     * Both targets load with the sinks' default {@code strict_mode=true}, so the server refuses a bad value instead
     * of storing NULL (docs/dead-letter.md). Then {@link PipelineConfig#semantic()} as {@code sink.semantic} and
     * {@link PipelineConfig#jobId()} as {@code sink.transaction.multi-table.job-id} where set, and last
     * {@link PipelineConfig#sinkProperties()} as given (the user's {@code --sink-option}, which win).
     *
     * @throws io.lockstep.flink.options.InvalidSinkOptionException naming the invalid option
     */
    public static SinkConfig sinkOptions(PipelineConfig config) {
        SinkConfigBuilder builder = SinkConfig.builder()
                .loadUrl(config.loadUrl())
                .database(ExactlyOnceAcrossTables.enabled(config) ? config.database() : SinkOptionDefinitions.WILDCARD)
                .table(SinkOptionDefinitions.WILDCARD)
                .username(config.username())
                .password(config.password())
                .streamLoadFormat(StreamLoadFormat.JSON)
                .commitIntervalMs(config.commitIntervalMs());
        Target target = config.target();
        if (target.hasMultiTableTransactions()) {
            builder.sinkVersion(SinkVersion.V2).multiTable(true);
        } else {
            builder.target(target)
                    .semantic(SinkSemantic.EXACTLY_ONCE)
                    .streamLoadProperty("hidden_columns", target.deleteColumn());
        }
        if (config.jdbcUrl() != null) {
            builder.jdbcUrl(config.jdbcUrl());
        }
        if (config.labelPrefix() != null) {
            builder.labelPrefix(config.labelPrefix());
        }
        if (config.semantic() != null) {
            builder.semantic(config.semantic().sinkSemantic());
        }
        if (config.jobId() != null) {
            builder.multiTableJobId(config.jobId());
        }
        builder.options(config.sinkProperties()); // the user's --sink-option k=v, as given: they win
        SinkConfig options = builder.build();
        if (options.getStreamLoadFormat() != StreamLoadFormat.JSON) {
            // a CSV load names one column list per table, fixed by its first row; this job's rows change columns
            throw new io.lockstep.flink.options.InvalidSinkOptionException("sink.properties.format", "Invalid sink "
                    + "option 'sink.properties.format' = '" + options.getStreamLoadFormat().headerValue() + "': "
                    + "lockstep run loads JSON rows, whose columns follow each table's schema changes, while a CSV "
                    + "load carries one fixed column list per table; expected 'json'");
        }
        return options;
    }
}
