package io.lockstep.app.cli;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.BoundMode;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.file.JsonLinesInput;
import io.lockstep.app.job.DeliverySemantic;
import io.lockstep.app.job.ExactlyOnceAcrossTables;
import io.lockstep.app.job.JobFailures;
import io.lockstep.app.job.JobIdentity;
import io.lockstep.app.job.JobStateMismatchException;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.job.RestartPolicy;
import io.lockstep.app.job.StartFromCommitted;
import io.lockstep.app.job.StateDirectory;
import io.lockstep.app.job.StateRestore;
import io.lockstep.app.job.TargetCheck;
import io.lockstep.app.demo.DemoMetricsReporter;
import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.app.kafka.TopicCheck;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.options.SinkTarget;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
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
 * <p>Locally it prints a start line, a progress line with {@code --progress}, and a summary when the job ends;
 * checkpoints go to {@code --state-dir} (default one per job id) and a new start restores the newest one there when
 * it is this job's ({@link StateRestore}, {@link StateDirectory}).
 * Failures that may heal restart the job with exponential delays ({@link RestartPolicy}); failures that cannot
 * (access denied, data errors, bad input) fail it at once.
 *
 * <p>Exit codes: 0 when the job ends (bounded input, or a detached submission); 1 when it fails, with one line
 * naming the cause (bad input names topic, partition and offset); 2 for an invalid option, naming it; 130 when
 * Ctrl-C or SIGTERM stopped it (the open transaction rolled back).
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run the job: CDC events from Kafka, source transactions rebuilt, loaded atomically "
                + "across tables. Local MiniCluster by default; also submittable with `flink run`.")
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap.servers (required unless --input).")
    String kafkaBootstrap;

    @Option(names = "--topic", description = "The CDC topic (Debezium: data topics and the "
            + "transaction topic routed into this one topic; required unless --input).")
    String topic;

    @Option(names = "--input", paramLabel = "FILE.jsonl",
            description = "Read this JSON-lines file (one CDC message per line, as the topic would hold them) "
                    + "instead of Kafka; the job ends at its last line. For trying the job; errors name the line "
                    + "as the offset of topic 'file:NAME' partition 0.")
    Path input;

    @Option(names = "--format", required = true, paramLabel = "maxwell|debezium",
            description = "Input format: ${COMPLETION-CANDIDATES}.")
    CdcFormat format;

    @Option(names = "--group-id", description = "Kafka consumer group (default: ${DEFAULT-VALUE}).")
    String groupId = PipelineConfig.DEFAULT_GROUP_ID;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
            description = "Further Kafka consumer setting (repeatable), e.g. security.protocol=SSL.")
    Map<String, String> kafkaProperties = new LinkedHashMap<>();

    @Option(names = "--kafka-check-timeout", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Before starting the job, wait up to this long for the brokers to describe --topic; an "
                    + "address where nothing listens, or that does not resolve, and an unknown topic fail at once; 0 "
                    + "skips the check, e.g. when this client cannot reach Kafka but the cluster can (default: 30s).")
    long kafkaCheckTimeoutMs = 30_000L;

    @Option(names = "--target-check", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Before starting the job, check that the target can be reached and accepts "
                    + "--user/--password and that every target database exists; on StarRocks also every --table-map "
                    + "table and (exactly-once) the progress table (one line per problem); --no-target-check skips it "
                    + "(default: on).")
    boolean targetCheck = true;

    @Option(names = "--bounded", description = "Stop at the end offsets seen at start (a backfill); the job "
            + "then ends and the command exits 0. Starts without state (exactly-once: at the committed positions).")
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
            + "committed positions under it; two jobs must never share one; letters, digits, '_' and '-', at most 64 (default: <group id>-<topic>, or <group id>-file_<name> with --input; other characters as '_').")
    String jobId;

    @Option(names = "--load-url", required = true, paramLabel = "HOST:PORT[;...]",
            description = "FE HTTP addresses (StarRocks, or Doris fenodes), separated by ';'.")
    String loadUrl;

    @Option(names = "--jdbc-url", paramLabel = "jdbc:mysql://HOST:PORT",
            description = "StarRocks or Doris MySQL-protocol URL; the target's column types are read through it "
                    + "(DESC), so bad values are caught before loading, and --schema-changes apply issues ALTER "
                    + "TABLE through it (otherwise optional).")
    String jdbcUrl;

    @Option(names = "--database", required = true,
            description = "Target database: every source table loads into the table of the same name there "
                    + "(unless --table-map is given).")
    String database;

    @Option(names = "--table-map", paramLabel = "SRC_DB.T=DB.T[,...]",
            description = "Explicit routing; only mapped tables load, others follow --unknown-table.")
    String tableMap;

    @Option(names = "--unknown-table", paramLabel = "fail|skip",
            description = "A source table missing from --table-map, or whose target table does not exist in the "
                    + "target database: fail the job or skip its rows (default: ${DEFAULT-VALUE}).")
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

    @Option(names = "--restart-attempts", description = "Restarts after failures that may heal (an outage) "
            + "before the job fails; the count starts over after --restart-reset-after without a failure; 0 "
            + "never restarts (default: ${DEFAULT-VALUE}).")
    int restartAttempts = RestartPolicy.DEFAULT_ATTEMPTS;

    @Option(names = "--restart-delay", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Wait before the first restart; each further one waits twice as long (default: 5s).")
    long restartDelayMs = RestartPolicy.DEFAULT_INITIAL_DELAY_MS;

    @Option(names = "--restart-max-delay", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Longest wait between restarts (default: 5m).")
    long restartMaxDelayMs = RestartPolicy.DEFAULT_MAX_DELAY_MS;

    @Option(names = "--restart-reset-after", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Running this long without a failure gives the job its whole restart budget and the "
                    + "first delay again (default: 30m).")
    long restartResetAfterMs = RestartPolicy.DEFAULT_RESET_AFTER_MS;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where checkpoints are kept; a new start restores the newest one found there, so the "
                    + "job continues where the last process stopped; a checkpoint of another job (job id, topic or "
                    + "input, format, target, database) is refused (default: lockstep-state/JOB_ID in the working "
                    + "directory, one per job; a checkpoint of this job under lockstep-state/GROUP_ID, the default of "
                    + "earlier versions, is restored once). Local runs only; on a cluster use its checkpoint storage "
                    + "and `flink run -s`.")
    Path stateDir;

    @Option(names = "--from-savepoint", paramLabel = "PATH",
            description = "Restore this savepoint or retained checkpoint directory instead of the newest "
                    + "checkpoint in --state-dir (it is never deleted); another job's is refused.")
    Path fromSavepoint;

    @Option(names = "--adopt-state", description = "Restore a checkpoint or savepoint another job of the same topic "
            + "or input wrote (another job id, format, target or database), taking it over under this job's identity: "
            + "e.g. after changing --job-id (exactly-once: the old id's progress rows are not seen). Another topic's "
            + "or input's state is refused even so (the Kafka source resumes the topics in its state: a new topic "
            + "needs a fresh --state-dir). Without it any other job's state is refused in one line (also under "
            + "`flink run -s`).")
    boolean adoptState;

    @Option(names = "--progress", description = "Print a progress line every --progress-interval.")
    boolean progress;

    @Option(names = "--progress-interval", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Period of the progress line (default: 10s).")
    long progressIntervalMs = 10_000L;

    @Option(names = "--stop-timeout", converter = DurationMs.class, paramLabel = "DURATION",
            description = "On Ctrl-C or SIGTERM, longest wait for the job to roll back and stop (default: 30s).")
    long stopTimeoutMs = 30_000L;

    @Option(names = "--bad-input", paramLabel = "fail|skip",
            description = "A malformed event or one outside a transaction: fail the job naming topic, partition "
                    + "and offset, or skip it with a warning (default: ${DEFAULT-VALUE}).")
    BadInputMode badInput = BadInputMode.FAIL;

    @Option(names = "--dead-letter", paramLabel = "topic:NAME|file:PATH",
            description = "Send source transactions the job cannot load (an undecodable event, a row of an unknown "
                    + "table, a row over --max-transaction-bytes) whole to this Kafka topic (on the source's "
                    + "brokers) or JSON-lines file, with their coordinates and the reason, and go on; without it "
                    + "such input stops the job after the complete transactions before it (docs/dead-letter.md).")
    String deadLetter;

    @Option(names = "--schema-changes", paramLabel = "fail|ignore|apply",
            description = "A schema change in the input (a Debezium/Maxwell DDL event, or a row with a column the "
                    + "target table lacks): fail = stop after committing the transactions before it, naming the "
                    + "table and the DDL or column; ignore = go on with a warning (such columns are not loaded); apply "
                    + "= commit what came before, ADD/DROP COLUMN through --jdbc-url, go on (default: ${DEFAULT-VALUE}).")
    SchemaChangeMode schemaChanges = SchemaChangeMode.FAIL;

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
    public Integer call() throws Exception {
        PipelineConfig config = config();
        RestartPolicy restarts = restartPolicy();
        Configuration settings = new Configuration();
        restarts.applyTo(settings);
        DemoMetricsReporter.enable(settings);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(settings);
        boolean local = env instanceof LocalStreamEnvironment;
        Optional<StateRestore.Plan> plan = Optional.empty();
        // a file is read whole each time unless a state directory is asked for explicitly; a bounded run neither
        // restores nor keeps state: a restored Kafka split keeps the stopping offset (or none) it was saved with, so
        // it would never end, and its own final checkpoint would stop a later unbounded run
        boolean keepState = local && !bounded && (input == null || stateDir != null || fromSavepoint != null);
        if (keepState) {
            try {
                plan = Optional.of(StateRestore.plan(stateDir, fromSavepoint, groupId, JobIdentity.of(config),
                        adoptState));
            } catch (JobStateMismatchException e) {
                err().println("lockstep run: " + e.getMessage());
                err().flush();
                return CommandLine.ExitCode.SOFTWARE;
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
            plan.get().directory().configure(settings, plan.get().checkpoint(), plan.get().claim());
            env = StreamExecutionEnvironment.getExecutionEnvironment(settings);
        }
        try {
            LockstepPipeline.sinkOptions(config); // invalid options are usage errors, before Kafka is asked
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter err = spec.commandLine().getErr();
        if (input == null && kafkaCheckTimeoutMs > 0) {
            try {
                TopicCheck.partitions(kafkaBootstrap, topic, config.kafkaProperties(), kafkaCheckTimeoutMs);
                DeadLetterTarget letters = config.assembler().deadLetter();
                if (letters != null && letters.kind() == DeadLetterTarget.Kind.TOPIC) {
                    try {
                        TopicCheck.partitions(kafkaBootstrap, letters.name(), config.kafkaProperties(),
                                kafkaCheckTimeoutMs);
                    } catch (IllegalStateException e) {
                        throw new IllegalStateException("--dead-letter: " + e.getMessage()
                                .replace("check --topic;", "check --dead-letter;"), e);
                    }
                }
            } catch (IllegalStateException e) {
                err.println("lockstep run: " + e.getMessage());
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CommandLine.ExitCode.SOFTWARE;
            }
        }
        if (targetCheck) {
            SinkConfig options = LockstepPipeline.sinkOptions(config);
            TargetCheck.Result checked = TargetCheck.check(options, TableRouter.parse(tableMap, database, unknownTable),
                    ExactlyOnceAcrossTables.enabled(config)
                            ? new ProgressTable(database, options.getMultiTableProgressTable()) : null);
            if (!checked.problems().isEmpty()) {
                checked.problems().forEach(problem -> err.println("lockstep run: " + problem));
                err.flush();
                return CommandLine.ExitCode.SOFTWARE;
            }
            config = config.withTargetTables(checked.tables());
        }
        CommittedStartOffsets.Plan start = CommittedStartOffsets.Plan.configured(topic);
        if (input == null && ExactlyOnceAcrossTables.enabled(config) && kafkaCheckTimeoutMs > 0) {
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
            if (input != null) {
                LockstepPipeline.define(env, config, e -> JsonLinesInput.stream(e, input), UnaryOperator.identity());
            } else {
                LockstepPipeline.define(env, config, UnaryOperator.identity(), start);
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        env.configure(restarts.applyTo(new Configuration()));
        String jobName = "lockstep " + config.topic();
        if (local) {
            RunSession session = new RunSession(spec.commandLine().getOut(), err, progress ? progressIntervalMs : 0,
                    stopTimeoutMs);
            return session.run(env, jobName, startLine(restarts, plan), target);
        }
        try {
            env.execute(jobName);
            return 0;
        } catch (Exception e) {
            err.println("lockstep run: job failed: " + JobFailures.describe(e));
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    /** @return what the job reads, where it writes, how, and from which state it starts */
    private String startLine(RestartPolicy restarts, Optional<StateRestore.Plan> plan) {
        Optional<Path> restored = plan.flatMap(StateRestore.Plan::checkpoint);
        boolean legacy = plan.map(StateRestore.Plan::legacy).orElse(false);
        String source = input != null ? "file " + input
                : "topic '" + topic + "' at " + kafkaBootstrap + (bounded ? " up to its end offsets" : "");
        return "reading " + format.name().toLowerCase(Locale.ROOT) + " from " + source + ", writing " + target.optionValue() + " " + loadUrl
                + " database '" + database + "' as " + user
                + (deadLetter != null ? ", dead letters to " + deadLetter : "")
                + ", parallelism " + parallelism + ", checkpoint every "
                + checkpointIntervalMs + " ms, restarts " + restarts.describe() + ", "
                + restored.map(path -> "restoring " + path + (legacy ? " (this job's, from the state directory of "
                        + "earlier versions; next checkpoints in " + plan.get().directory().root() + ")" : ""))
                .orElse(bounded ? "no state kept (--bounded)"
                        : input != null && stateDir == null ? "no state kept"
                        : "no state to restore (state dir " + plan.map(p -> p.directory().root().toString())
                                .orElse("none") + ")");
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * @return the restart policy from the options
     * @throws ParameterException naming the option whose value is out of range
     */
    RestartPolicy restartPolicy() {
        try {
            return new RestartPolicy(restartAttempts, restartDelayMs, restartMaxDelayMs, restartResetAfterMs);
        } catch (IllegalArgumentException e) {
            throw usage("--restart-*: " + e.getMessage());
        }
    }

    /**
     * @return the job's settings
     * @throws ParameterException naming the option whose value is out of range or malformed
     */
    PipelineConfig config() {
        if (input == null && (kafkaBootstrap == null || topic == null)) {
            throw usage("Missing required options: --kafka-bootstrap and --topic (or --input FILE.jsonl)");
        }
        if (input != null && (kafkaBootstrap != null || topic != null || bounded)) {
            throw usage("--input reads a file: it goes without --kafka-bootstrap, --topic and --bounded");
        }
        if (bounded && fromSavepoint != null) {
            // a restored Kafka split keeps the stopping offset (or none) it was checkpointed with, not this run's
            throw usage("--bounded reads up to the end offsets seen at start and cannot restore --from-savepoint "
                    + "(a restored Kafka split keeps the end it was saved with): use one of them");
        }
        if (input != null && !Files.isReadable(input)) {
            throw usage("--input " + input + ": no such readable file");
        }
        if (schemaChanges == SchemaChangeMode.APPLY && (jdbcUrl == null || target != SinkTarget.STARROCKS)) {
            throw usage("--schema-changes apply needs --jdbc-url (the StarRocks MySQL-protocol port, e.g. "
                    + "jdbc:mysql://fe1:9030) and --target starrocks");
        }
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
                maxTransactionOpenMs, onBound, badInput, schemaChanges).withDeadLetter(deadLetterTarget(kafka));
        // with --input the Kafka settings are unused; the topic names the file in positions and the job name
        PipelineConfig config = new PipelineConfig(input != null ? "none" : kafkaBootstrap,
                input != null ? JsonLinesInput.topicOf(input) : topic, groupId, kafka, input != null || bounded,
                format, keys, loadUrl, jdbcUrl,
                database, tableMap, unknownTable, user, password, labelPrefix, parallelism, checkpointIntervalMs,
                commitIntervalMs, restartAttempts, restartDelayMs, assembler, semanticSinkOptions(), target);
        return adoptState ? config.withAdoptedState() : config;
    }

    /**
     * @return {@code --dead-letter}, a topic on the source's brokers, or {@code null}
     * @throws ParameterException for a malformed value, or a topic without Kafka input
     */
    private DeadLetterTarget deadLetterTarget(Properties kafka) {
        if (deadLetter == null) {
            return null;
        }
        DeadLetterTarget target;
        try {
            target = DeadLetterTarget.parse(deadLetter);
        } catch (IllegalArgumentException e) {
            throw usage("--dead-letter: " + e.getMessage());
        }
        if (target.kind() == DeadLetterTarget.Kind.FILE) {
            Path parent = Path.of(target.name()).toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
                throw usage("--dead-letter " + deadLetter + ": directory " + parent + " does not exist or is not "
                        + "writable");
            }
            return target;
        }
        if (input != null) {
            throw usage("--dead-letter topic:NAME writes to the source's Kafka brokers; with --input use file:PATH");
        }
        return target.onBrokers(kafkaBootstrap, kafka);
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
                jobId != null ? jobId : ExactlyOnceAcrossTables.defaultJobId(groupId,
                        input != null ? "file:" + input.getFileName() : topic)));
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
