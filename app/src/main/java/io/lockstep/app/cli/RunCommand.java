package io.lockstep.app.cli;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.BoundMode;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.file.InputFileStamp;
import io.lockstep.app.file.JsonLinesInput;
import io.lockstep.app.job.DeliverySemantic;
import io.lockstep.app.job.ExactlyOnceAcrossTables;
import io.lockstep.app.job.JobFailures;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.job.RestartPolicy;
import io.lockstep.app.job.StateDirectory;
import io.lockstep.app.job.StartFromCommitted;
import io.lockstep.app.job.StateRestore;
import io.lockstep.app.demo.DemoMetricsReporter;
import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.core.server.Target;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
 * <p>This class holds the options and runs the steps; the option checks are {@link RunOptionCheck}, the job's
 * settings {@link RunPipelineConfig}, the steps before the job is defined {@link RunPreflight}, and the local run
 * {@link RunSession}.
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

    @Option(names = "--topic", paramLabel = "TOPIC[,TOPIC...]", description = "The CDC topic (Debezium: data "
            + "topics and the transaction topic routed into this one topic; required unless --input or "
            + "--topic-pattern); with --transaction-topic the table topics, comma-separated.")
    String topic;

    @Mixin
    RunTopicLayout topicLayout = new RunTopicLayout();

    @Mixin
    RunTableCreation tableCreation = new RunTableCreation();

    @Option(names = "--input", paramLabel = "FILE.jsonl",
            description = "Read this JSON-lines file (one CDC message per line, as the topic would hold them) "
                    + "instead of Kafka; the job ends at its last line. For trying the job; errors name the line "
                    + "as the offset of topic 'file:NAME' partition 0.")
    Path input;

    @Option(names = "--format", required = true, paramLabel = "maxwell|debezium", converter = FormatConverter.class,
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
    Target target = Target.STARROCKS;

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

    /**
     * Runs the job as a short sequence of steps: the settings ({@link RunPipelineConfig}, checked by
     * {@link RunOptionCheck}), the Flink environment, the pre-flight steps ({@link RunPreflight}), the job graph, and
     * the run (a local {@link RunSession}, or a submission).
     *
     * @return the exit code: 0, 1 ({@link CommandLine.ExitCode#SOFTWARE}) or 130
     */
    @Override
    public Integer call() throws Exception {
        PipelineConfig config = config();
        RestartPolicy restarts = restartPolicy();
        Configuration settings = new Configuration();
        restarts.applyTo(settings);
        DemoMetricsReporter.enable(settings);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(settings);
        boolean local = env instanceof LocalStreamEnvironment;
        RunPreflight preflight = new RunPreflight(this);
        try {
            Optional<StateRestore.Plan> plan = preflight.restorePlan(config, local, settings);
            if (plan.isPresent()) {
                env = StreamExecutionEnvironment.getExecutionEnvironment(settings);
            }
            preflight.checkSinkOptions(config);
            preflight.checkTopics(config);
            preflight.createTables(config);
            config = preflight.checkTarget(config);
            StartFromCommitted.Start start = preflight.startOffsets(config);
            config = config.withAssembler(config.assembler().withCommittedPositions(start.commitPositions()));
            if (config.topicLayout() != null) { // the rebuild continues above the committed rebuilt position
                config = config.withTopicLayout(config.topicLayout()
                        .withCommittedRebuiltPosition(start.rebuiltPosition()), config.maxTopicDriftMs());
            }
            define(env, config, start.offsets());
            if (input != null && plan.isPresent()) { // what the checkpoints of this start will have read
                InputFileStamp.write(plan.get().directory().root(), input);
            }
            env.configure(restarts.applyTo(new Configuration()));
            String deduplication = RunStartLine.deduplication(config, start);
            if (!start.keepsCommitPositions()) {
                PrintWriter err = spec.commandLine().getErr();
                err.println("lockstep run: warning: the progress table has no commit_position column, so re-sent "
                        + "source transactions are recognised only within this job's state, not across a start "
                        + "without it; upgrade it while the job is stopped: " + start.upgradeSql());
                err.flush();
            }
            return local ? runHere(env, config, restarts, plan, deduplication) : submit(env, config);
        } catch (RunRefusedException e) {
            PrintWriter err = spec.commandLine().getErr();
            e.problems().forEach(problem -> err.println("lockstep run: " + problem));
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    /** Defines the job graph; an option the pipeline refuses is a usage error. */
    private void define(StreamExecutionEnvironment env, PipelineConfig config, CommittedStartOffsets.Plan start) {
        try {
            if (input != null) {
                LockstepPipeline.define(env, config, e -> JsonLinesInput.stream(e, input), UnaryOperator.identity());
            } else {
                LockstepPipeline.define(env, config, UnaryOperator.identity(), start);
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** Runs the job on a MiniCluster in this JVM, printing the start line, progress and the summary. */
    private int runHere(StreamExecutionEnvironment env, PipelineConfig config, RestartPolicy restarts,
            Optional<StateRestore.Plan> plan, String deduplication) throws Exception {
        RunSession session = new RunSession(spec.commandLine().getOut(), spec.commandLine().getErr(),
                progress ? progressIntervalMs : 0, stopTimeoutMs);
        return session.run(env, jobName(config), RunStartLine.of(this, restarts, plan) + ", " + deduplication, target);
    }

    /** Submits the job to the cluster of {@code flink run}; a failure is one line. */
    private int submit(StreamExecutionEnvironment env, PipelineConfig config) {
        try {
            env.execute(jobName(config));
            return 0;
        } catch (Exception e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("lockstep run: job failed: " + JobFailures.describe(e));
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    private static String jobName(PipelineConfig config) {
        return "lockstep " + config.topic();
    }

    /**
     * @return the restart policy from the options
     * @throws ParameterException naming the option whose value is out of range
     */
    RestartPolicy restartPolicy() {
        return new RunOptionCheck(this).restartPolicy();
    }

    /**
     * @return the job's settings
     * @throws ParameterException naming the option whose value is out of range or malformed
     */
    PipelineConfig config() {
        return RunPipelineConfig.of(this);
    }
}
