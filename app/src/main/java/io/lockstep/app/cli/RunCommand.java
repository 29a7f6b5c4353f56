package io.lockstep.app.cli;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.BoundMode;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.job.DeliverySemantic;
import io.lockstep.app.job.ExactlyOnceAcrossTables;
import io.lockstep.app.job.JobFailures;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.job.StartFromCommitted;
import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.app.kafka.TopicCheck;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.options.SinkTarget;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep run}: the main job ({@link LockstepPipeline}) from the options. With {@code java -jar} it runs
 * on a local MiniCluster in this JVM; under {@code flink run -c io.lockstep.app.cli.LockstepMain lockstep.jar run
 * ...} the same code submits it to the cluster ({@code getExecutionEnvironment()} picks the environment). With
 * {@code --target doris} it loads Apache Doris through the per-table exactly-once sink (docs/doris.md).
 *
 * <p>StarRocks loads in the exactly-once multi-table mode by default (docs/exactly-once.md): the job id is
 * {@code --job-id}, else {@code <group id>-<topic>} ({@link ExactlyOnceAcrossTables#defaultJobId}); without a checkpoint each Kafka partition starts right after
 * the position the job committed ({@link CommittedStartOffsets}). {@code --semantic at-least-once} keeps the
 * multi-table transactions without positions (a restart replays from the last checkpoint).
 *
 * <p>Exit codes: 0 when the job ends (bounded input, or a detached submission); 1 when it fails, with one line
 * naming the cause (bad input names topic, partition and offset); 2 for an invalid option, naming it.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run the job: CDC events from Kafka, source transactions rebuilt, loaded atomically "
                + "across tables. Local MiniCluster by default; also submittable with `flink run`.")
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--kafka-bootstrap", required = true, paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap.servers.")
    String kafkaBootstrap;

    @Option(names = "--topic", required = true, description = "The CDC topic (Debezium: data topics and the "
            + "transaction topic routed into this one topic).")
    String topic;

    @Option(names = "--format", required = true, paramLabel = "maxwell|debezium",
            description = "Input format: ${COMPLETION-CANDIDATES}.")
    CdcFormat format;

    @Option(names = "--group-id", description = "Kafka consumer group (default: ${DEFAULT-VALUE}).")
    String groupId = PipelineConfig.DEFAULT_GROUP_ID;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
            description = "Further Kafka consumer setting (repeatable), e.g. security.protocol=SSL.")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    @Option(names = "--kafka-check-timeout", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Before starting the job, wait this long for the brokers to describe --topic; "
                    + "0 skips the check, e.g. when this client cannot reach Kafka but the cluster can (default: 30s).")
    long kafkaCheckTimeoutMs = 30_000L;

    @Option(names = "--bounded", description = "Stop at the end offsets seen at start (a backfill); the job "
            + "then ends and the command exits 0.")
    boolean bounded;

    @Option(names = "--target", paramLabel = "starrocks|doris",
            description = "The server family: starrocks (multi-table transactions) or doris (exactly-once per "
                    + "table with Doris two-phase commit; deletes become __DORIS_DELETE_SIGN__) (default: starrocks).")
    SinkTarget target = SinkTarget.STARROCKS;

    @Option(names = "--semantic", paramLabel = "exactly-once|at-least-once", converter = SemanticConverter.class,
            description = "StarRocks: exactly-once (each transaction also commits the Kafka offsets it covers into "
                    + "the progress table; a restart resumes right after them) or at-least-once (a restart replays "
                    + "from the last checkpoint) (default: exactly-once). Doris is always exactly-once per table.")
    DeliverySemantic semantic;

    @Option(names = "--job-id", description = "Job id of the exactly-once mode: the progress table keeps the "
            + "committed positions under it; two jobs must never share one; letters, digits, '_' and '-', at most 64 (default: <group id>-<topic>, other characters as '_').")
    String jobId;

    @Option(names = "--load-url", required = true, paramLabel = "HOST:PORT[;...]",
            description = "FE HTTP addresses (StarRocks, or Doris fenodes), separated by ';'.")
    String loadUrl;

    @Option(names = "--jdbc-url", paramLabel = "jdbc:mysql://HOST:PORT",
            description = "StarRocks MySQL-protocol URL (optional; used for probes only).")
    String jdbcUrl;

    @Option(names = "--database", required = true,
            description = "Target database: every source table loads into the table of the same name there "
                    + "(unless --table-map is given).")
    String database;

    @Option(names = "--table-map", paramLabel = "SRC_DB.T=DB.T[,...]",
            description = "Explicit routing; only mapped tables load, others follow --unknown-table.")
    String tableMap;

    @Option(names = "--unknown-table", paramLabel = "fail|skip",
            description = "A source table missing from --table-map: fail the job or skip its rows "
                    + "(default: ${DEFAULT-VALUE}).")
    UnknownTableMode unknownTable = UnknownTableMode.FAIL;

    @Option(names = "--key-columns", paramLabel = "SRC_DB.T=COL[+COL...]",
            description = "Primary-key columns of a source table (repeatable), to detect key-changing updates "
                    + "when the messages do not carry the key.")
    Map<String, String> keyColumns = new LinkedHashMap<>();

    @Option(names = "--user", description = "StarRocks user (default: ${DEFAULT-VALUE}).")
    String user = "root";

    @Option(names = "--password", arity = "0..1", interactive = true, defaultValue = "${env:LOCKSTEP_PASSWORD:-}",
            description = "StarRocks password; without a value it is prompted for; default: the environment "
                    + "variable LOCKSTEP_PASSWORD, else empty. Never logged.")
    String password;

    @Option(names = "--label-prefix", description = "Stream load label prefix (default: the sink's).")
    String labelPrefix;

    @Option(names = "--parallelism", description = "Parallelism of every operator; more than the topic's "
            + "partitions adds nothing (default: ${DEFAULT-VALUE}).")
    int parallelism = 1;

    @Option(names = "--checkpoint-interval", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Flink checkpoint interval, e.g. 10s; the sink commits everything at each checkpoint "
                    + "and a restart replays from the last one (default: 10s).")
    long checkpointIntervalMs = PipelineConfig.DEFAULT_CHECKPOINT_INTERVAL_MS;

    @Option(names = "--commit-interval", converter = DurationMs.class, paramLabel = "DURATION",
            description = "The sink's commit interval (sink.buffer-flush.interval-ms): visibility latency "
                    + "between checkpoints (default: 2s).")
    long commitIntervalMs = PipelineConfig.DEFAULT_COMMIT_INTERVAL_MS;

    @Option(names = "--restart-attempts", description = "Restarts after a failure before the job fails "
            + "(default: ${DEFAULT-VALUE}).")
    int restartAttempts = 3;

    @Option(names = "--restart-delay", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Wait before each restart (default: 5s).")
    long restartDelayMs = 5_000L;

    @Option(names = "--bad-input", paramLabel = "fail|skip",
            description = "A malformed event or one outside a transaction: fail the job naming topic, partition "
                    + "and offset, or skip it with a warning (default: ${DEFAULT-VALUE}).")
    BadInputMode badInput = BadInputMode.FAIL;

    @Option(names = "--max-transaction-rows", description = "Most rows one source transaction may buffer "
            + "(default: ${DEFAULT-VALUE}).")
    long maxTransactionRows = AssemblerOptions.DEFAULT_MAX_ROWS;

    @Option(names = "--max-transaction-bytes", description = "Most bytes one source transaction may buffer "
            + "(default: ${DEFAULT-VALUE}).")
    long maxTransactionBytes = AssemblerOptions.DEFAULT_MAX_SIZE_BYTES;

    @Option(names = "--max-transaction-open", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Longest time a source transaction may stay open (default: 10m).")
    long maxTransactionOpenMs = AssemblerOptions.DEFAULT_MAX_OPEN_MS;

    @Option(names = "--on-bound", paramLabel = "fail|emit",
            description = "A source transaction over a bound: fail the job naming it, or load it in parts "
                    + "(default: ${DEFAULT-VALUE}).")
    BoundMode onBound = BoundMode.FAIL;

    @Option(names = "--sink-option", paramLabel = "KEY=VALUE",
            description = "Any further sink option of docs/options.md (repeatable), applied last.")
    Map<String, String> sinkOptions = new LinkedHashMap<>();

    @Override
    public Integer call() {
        PipelineConfig config = config();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        try {
            LockstepPipeline.sinkOptions(config); // invalid options are usage errors, before Kafka is asked
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter err = spec.commandLine().getErr();
        if (kafkaCheckTimeoutMs > 0) {
            try {
                TopicCheck.partitions(kafkaBootstrap, topic, config.kafkaProperties(), kafkaCheckTimeoutMs);
            } catch (IllegalStateException e) {
                err.println("lockstep run: " + e.getMessage());
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        CommittedStartOffsets.Plan start = CommittedStartOffsets.Plan.configured(topic);
        if (ExactlyOnceAcrossTables.enabled(config) && kafkaCheckTimeoutMs > 0) {
            try {
                start = StartFromCommitted.plan(config, kafkaCheckTimeoutMs);
            } catch (IllegalStateException e) {
                err.println("lockstep run: " + e.getMessage());
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        try {
            LockstepPipeline.define(env, config, UnaryOperator.identity(), start);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        try {
            env.execute("lockstep " + topic);
            return 0;
        } catch (Exception e) {
            err.println("lockstep run: job failed: " + JobFailures.describe(e));
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    /**
     * @return the job's settings
     * @throws ParameterException naming the option whose value is out of range or malformed
     */
    PipelineConfig config() {
        requirePositive("--parallelism", parallelism);
        requirePositive("--checkpoint-interval", checkpointIntervalMs);
        requirePositive("--commit-interval", commitIntervalMs);
        requirePositive("--max-transaction-rows", maxTransactionRows);
        requirePositive("--max-transaction-bytes", maxTransactionBytes);
        requirePositive("--max-transaction-open", maxTransactionOpenMs);
        if (restartAttempts < 0) {
            throw usage("--restart-attempts must not be negative, got " + restartAttempts);
        }
        try {
            TableRouter.parse(tableMap, database, unknownTable);
        } catch (IllegalArgumentException e) {
            throw usage("--table-map: " + e.getMessage());
        }
        Properties kafka = new Properties();
        kafka.putAll(kafkaProperties);
        Map<String, List<String>> keys = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : keyColumns.entrySet()) {
            List<String> columns = Arrays.stream(entry.getValue().split("\\+")).map(String::trim).toList();
            if (!entry.getKey().contains(".") || columns.stream().anyMatch(String::isEmpty)) {
                throw usage("--key-columns must be SRC_DB.TABLE=COL[+COL...], got " + entry.getKey() + "="
                        + entry.getValue());
            }
            keys.put(entry.getKey(), columns);
        }
        AssemblerOptions assembler = new AssemblerOptions(maxTransactionRows, maxTransactionBytes,
                maxTransactionOpenMs, onBound, badInput);
        return new PipelineConfig(kafkaBootstrap, topic, groupId, kafka, bounded, format, keys, loadUrl, jdbcUrl,
                database, tableMap, unknownTable, user, password, labelPrefix, parallelism, checkpointIntervalMs,
                commitIntervalMs, restartAttempts, restartDelayMs, assembler, semanticSinkOptions(), target);
    }

    /** @return the sink options of {@code --semantic} and {@code --job-id}, then {@code --sink-option} */
    private Map<String, String> semanticSinkOptions() {
        if (target == SinkTarget.DORIS) {
            if (semantic == DeliverySemantic.AT_LEAST_ONCE || jobId != null) {
                throw usage("--semantic and --job-id apply to --target starrocks; Doris always loads exactly-once "
                        + "per table (docs/doris.md)");
            }
            return sinkOptions;
        }
        DeliverySemantic chosen = semantic == null ? DeliverySemantic.EXACTLY_ONCE : semantic;
        if (chosen == DeliverySemantic.AT_LEAST_ONCE && jobId != null) {
            throw usage("--job-id applies to --semantic exactly-once only");
        }
        if (jobId != null && jobId.isBlank()) {
            throw usage("--job-id must not be blank");
        }
        Map<String, String> options = new LinkedHashMap<>(ExactlyOnceAcrossTables.sinkOptions(chosen,
                jobId != null ? jobId : ExactlyOnceAcrossTables.defaultJobId(groupId, topic)));
        options.putAll(sinkOptions);
        return options;
    }

    /** Reads {@code exactly-once} / {@code at-least-once}. */
    static final class SemanticConverter implements CommandLine.ITypeConverter<DeliverySemantic> {
        @Override
        public DeliverySemantic convert(String value) {
            for (DeliverySemantic s : DeliverySemantic.values()) {
                if (s.optionValue().equalsIgnoreCase(value.trim())) {
                    return s;
                }
            }
            throw new CommandLine.TypeConversionException("expected exactly-once or at-least-once, got '" + value
                    + "'");
        }
    }

    private void requirePositive(String option, long value) {
        if (value <= 0) {
            throw usage(option + " must be positive, got " + value);
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
