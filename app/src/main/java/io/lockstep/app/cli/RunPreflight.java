package io.lockstep.app.cli;

import io.lockstep.app.create.TableCreation;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.job.ExactlyOnceAcrossTables;
import io.lockstep.app.job.JobIdentity;
import io.lockstep.app.job.JobStateMismatchException;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.job.StartFromCommitted;
import io.lockstep.app.job.StateRestore;
import io.lockstep.app.job.TemporaryCheckpointStorage;
import io.lockstep.app.job.TargetCheck;
import io.lockstep.app.file.InputFileStamp;
import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.app.kafka.TopicCheck;
import io.lockstep.app.rebuild.TopicLayout;
import io.lockstep.app.route.TableRouter;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.sink.SinkMode;
import io.lockstep.flink.sink.SinkSettings;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.ParameterException;

/**
 * The steps of {@code lockstep run} before the job is defined, in the order the command takes them: the state
 * to restore ({@link StateRestore}), the sink options, the Kafka topics ({@link TopicCheck},
 * {@code --kafka-check-timeout}), with {@code --create-tables} the target's database and tables ({@link RunCreateTables}),
 * the target ({@link TargetCheck}, {@code --target-check}) and, exactly-once, where each Kafka partition starts
 * ({@link StartFromCommitted}). A step that cannot go on throws {@link RunRefusedException} with one line per problem
 * (exit 1), or a {@link ParameterException} for an option the step found invalid (exit 2).
 *
 * <p>Reads the option fields of one {@link RunCommand} on the thread running the command; not thread safe.
 */
final class RunPreflight {

    private final RunCommand command;

    /** @param command the parsed options of one {@code lockstep run} */
    RunPreflight(RunCommand command) {
        this.command = Objects.requireNonNull(command, "command");
    }

    /**
     * The state a local run restores and keeps: a file is read whole each time unless a state directory is asked for
     * explicitly; a bounded run neither restores nor keeps state: a restored Kafka split keeps the stopping offset (or
     * none) it was saved with, so it would never end, and its own final checkpoint would stop a later unbounded run.
     *
     * @param local whether the job runs in this JVM
     * @param settings the Flink settings, given the checkpoint storage and the checkpoint to restore when state is kept
     * @return the plan, or empty when no state is kept (a local run then checkpoints into a temporary directory,
     *     {@link TemporaryCheckpointStorage})
     * @throws RunRefusedException when the state found is another job's
     * @throws ParameterException for an unusable {@code --state-dir} or {@code --from-savepoint}
     */
    Optional<StateRestore.Plan> restorePlan(PipelineConfig config, boolean local, Configuration settings)
            throws RunRefusedException {
        boolean keepState = local && !command.bounded
                && (command.input == null || command.stateDir != null || command.fromSavepoint != null);
        if (!keepState) {
            if (local) { // not in the JobManager's memory, which refuses a subtask's state over 5 MiB
                TemporaryCheckpointStorage.configure(settings);
            }
            return Optional.empty();
        }
        StateRestore.Plan plan;
        try {
            plan = StateRestore.plan(command.stateDir, command.fromSavepoint, command.groupId, JobIdentity.of(config),
                    command.adoptState);
        } catch (JobStateMismatchException e) {
            throw new RunRefusedException(List.of(e.getMessage()));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.spec.commandLine(), e.getMessage());
        }
        if (command.input != null && plan.checkpoint().isPresent()) {
            Optional<String> changed = InputFileStamp.changeSince(plan.directory().root(), command.input);
            if (changed.isPresent()) {
                throw new RunRefusedException(List.of(changed.get()));
            }
        }
        plan.directory().configure(settings, plan.checkpoint(), plan.claim());
        return Optional.of(plan);
    }

    /**
     * Invalid sink options are usage errors, found before Kafka or the target is asked: the options must build
     * ({@code SinkConfig}), select a sink ({@link SinkMode#select}) and map onto the core's settings
     * ({@link SinkSettings#from}: e.g. the load format), exactly as the job's sink will check them.
     *
     * @throws ParameterException naming the option
     */
    void checkSinkOptions(PipelineConfig config) {
        try {
            SinkConfig sinkConfig = LockstepPipeline.sinkOptions(config);
            SinkMode.select(sinkConfig);
            SinkSettings.from(sinkConfig);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.spec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * Waits up to {@code --kafka-check-timeout} for the brokers to describe {@code --topic} and a dead-letter topic
     * (nothing with {@code --input} or a timeout of 0).
     *
     * @throws RunRefusedException naming the topic and the problem, or empty when interrupted
     */
    void checkTopics(PipelineConfig config) throws RunRefusedException {
        if (command.input != null || command.kafkaCheckTimeoutMs <= 0) {
            return;
        }
        try {
            if (config.topicLayout() != null) {
                checkLayoutTopics(config.topicLayout(), config);
            } else {
                TopicCheck.partitions(command.kafkaBootstrap, command.topic, config.kafkaProperties(),
                        command.kafkaCheckTimeoutMs);
            }
            DeadLetterTarget letters = config.assembler().deadLetter();
            if (letters != null && letters.kind() == DeadLetterTarget.Kind.TOPIC) {
                try {
                    TopicCheck.partitions(command.kafkaBootstrap, letters.name(), config.kafkaProperties(),
                            command.kafkaCheckTimeoutMs);
                } catch (IllegalStateException e) {
                    throw new IllegalStateException("--dead-letter: " + e.getMessage()
                            .replace("check --topic;", "check --dead-letter;"), e);
                }
            }
        } catch (IllegalStateException e) {
            throw new RunRefusedException(List.of(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunRefusedException(List.of());
        }
    }

    /**
     * Debezium's default layout: every listed table topic exists (or the pattern matches at least one topic) and the
     * transaction topic exists with exactly one partition. END events on several partitions would come in no commit
     * order, and an idle partition could not prove that no earlier commit is still coming, so the rebuild needs them
     * in one (docs/sources.md#debeziums-default-layout-one-topic-per-table).
     *
     * @throws IllegalStateException naming the topic and the problem
     */
    private void checkLayoutTopics(TopicLayout layout, PipelineConfig config) throws InterruptedException {
        List<String> topics = new ArrayList<>(layout.tableTopics());
        topics.add(layout.transactionTopic());
        Map<String, Integer> partitions = TopicCheck.partitions(command.kafkaBootstrap, topics,
                config.kafkaProperties(), command.kafkaCheckTimeoutMs);
        int transactionPartitions = partitions.get(layout.transactionTopic());
        if (transactionPartitions != 1) {
            throw new IllegalStateException("transaction topic '" + layout.transactionTopic() + "' has "
                    + transactionPartitions + " partitions: the rebuild needs it in one, where END events come in "
                    + "commit order (recreate it with one partition, or route Debezium's transaction metadata to a "
                    + "one-partition topic; docs/sources.md#debeziums-default-layout-one-topic-per-table)");
        }
        if (layout.tableTopicPattern() != null && TopicCheck.matching(command.kafkaBootstrap,
                Pattern.compile(layout.tableTopicPattern()), config.kafkaProperties(),
                command.kafkaCheckTimeoutMs).isEmpty()) {
            throw new IllegalStateException("no topic at " + command.kafkaBootstrap + " matches --topic-pattern "
                    + layout.tableTopicPattern() + " (check it; Lockstep does not create topics)");
        }
    }

    /**
     * With {@code --create-tables} ({@link RunCreateTables}): creates the target database, the progress table
     * (exactly-once) and, with {@code --source-jdbc-url}, every included source table, then prints one summary line.
     * Runs before {@link #checkTarget}, which then finds them.
     *
     * @throws RunRefusedException one line per table that cannot be created, or naming what the source or the
     *     target refused; empty when interrupted
     */
    void createTables(PipelineConfig config) throws RunRefusedException {
        TableCreation creation = config.assembler().tableCreation();
        if (creation == null) {
            return;
        }
        ProgressTable progress = ExactlyOnceAcrossTables.enabled(config)
                ? new ProgressTable(config.database(), LockstepPipeline.sinkOptions(config).getMultiTableProgressTable())
                : null;
        String summary;
        try {
            summary = new RunCreateTables(creation, RunCreateTables.creator(config.jdbcUrl(), config.username(),
                    config.password())).run(config.database(), progress);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunRefusedException(List.of());
        }
        PrintWriter out = command.spec.commandLine().getOut();
        out.println("lockstep run: " + summary);
        out.flush();
    }

    /**
     * With {@code --target-check}: checks that the target can be reached, accepts the user and has the databases
     * and tables the job loads (and, exactly-once, the progress table).
     *
     * @return {@code config} with the target tables found, or as it was without the check or with
     *     {@code --create-tables} (a table the target lacks is then created at its first row, not skipped)
     * @throws RunRefusedException with one line per problem found
     */
    PipelineConfig checkTarget(PipelineConfig config) throws RunRefusedException {
        if (!command.targetCheck) {
            return config;
        }
        SinkConfig options = LockstepPipeline.sinkOptions(config);
        TargetCheck.Result checked = TargetCheck.check(options,
                TableRouter.parse(command.tableMap, command.database, command.unknownTable),
                ExactlyOnceAcrossTables.enabled(config)
                        ? new ProgressTable(command.database, options.getMultiTableProgressTable()) : null);
        if (!checked.problems().isEmpty()) {
            throw new RunRefusedException(checked.problems());
        }
        return config.assembler().tableCreation() != null ? config : config.withTargetTables(checked.tables());
    }

    /**
     * Exactly-once from Kafka: where each partition starts when no checkpoint is restored, right after the position
     * the job committed, and the source commit positions committed with the data ({@link StartFromCommitted});
     * otherwise as configured, with no committed commit positions.
     *
     * @throws RunRefusedException naming the problem, or empty when interrupted
     */
    StartFromCommitted.Start startOffsets(PipelineConfig config) throws RunRefusedException {
        if (config.topicLayout() != null && ExactlyOnceAcrossTables.enabled(config)) {
            // the rebuilt positions continue above the committed one: started without it, the sink would take every
            // rebuilt transaction for one it already committed
            if (command.kafkaCheckTimeoutMs <= 0) {
                throw new RunRefusedException(List.of("--transaction-topic with --semantic exactly-once reads where "
                        + "the job stopped from the progress table and Kafka at start: give --kafka-check-timeout a "
                        + "positive value (0 skips it)"));
            }
            try {
                return StartFromCommitted.plan(config, config.topicLayout(), command.kafkaCheckTimeoutMs);
            } catch (IllegalStateException e) {
                throw new RunRefusedException(List.of(e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RunRefusedException(List.of());
            }
        }
        if (command.input == null && ExactlyOnceAcrossTables.enabled(config) && command.kafkaCheckTimeoutMs > 0) {
            try {
                return StartFromCommitted.plan(config, command.kafkaCheckTimeoutMs);
            } catch (IllegalStateException e) {
                throw new RunRefusedException(List.of(e.getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RunRefusedException(List.of());
            }
        }
        return new StartFromCommitted.Start(CommittedStartOffsets.Plan.configured(config.topic()), Map.of(), null);
    }
}
