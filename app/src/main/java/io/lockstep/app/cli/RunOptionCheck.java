package io.lockstep.app.cli;

import io.lockstep.app.assemble.BoundMode;

import io.lockstep.app.create.TableCreation;
import io.lockstep.app.create.TableCreationOptions;
import io.lockstep.app.create.TableSelection;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.job.DeliverySemantic;
import io.lockstep.app.job.ExactlyOnceAcrossTables;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.job.RestartPolicy;
import io.lockstep.app.rebuild.TopicLayout;
import io.lockstep.app.route.TableRouter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The checks of {@code lockstep run}'s options that picocli cannot make: combinations, ranges and the values that are
 * parsed here ({@code --key-columns}, {@code --dead-letter}, {@code --semantic} with {@code --job-id},
 * {@code --restart-*}). Each failure is a {@link ParameterException} naming the option and the value, which the
 * command line prints as one usage line and exits 2 for ({@link LockstepMain}).
 *
 * <p>Reads the option fields of one {@link RunCommand} on the thread running the command; not thread safe.
 */
final class RunOptionCheck {

    private final RunCommand options;

    /** @param options the parsed options of one {@code lockstep run} */
    RunOptionCheck(RunCommand options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Checks the combinations and ranges of the options.
     *
     * @throws ParameterException naming the first option that is missing, out of range or malformed
     */
    void check() {
        if (options.input == null && (options.kafkaBootstrap == null
                || options.topic == null && options.topicLayout.topicPattern == null)) {
            throw usage("Missing required options: --kafka-bootstrap and --topic (or --input FILE.jsonl)");
        }
        if (options.input != null && (options.kafkaBootstrap != null || options.topic != null || options.bounded)) {
            throw usage("--input reads a file: it goes without --kafka-bootstrap, --topic and --bounded");
        }
        if (options.bounded && options.fromSavepoint != null) {
            // a restored Kafka split keeps the stopping offset (or none) it was checkpointed with, not this run's
            throw usage("--bounded reads up to the end offsets seen at start and cannot restore --from-savepoint "
                    + "(a restored Kafka split keeps the end it was saved with): use one of them");
        }
        if (options.input != null && !Files.isReadable(options.input)) {
            throw usage("--input " + options.input + ": no such readable file");
        }
        if (options.schemaChanges == SchemaChangeMode.APPLY
                && (options.jdbcUrl == null || !options.target.hasMultiTableTransactions())) {
            throw usage("--schema-changes apply needs --jdbc-url (the StarRocks MySQL-protocol port, e.g. "
                    + "jdbc:mysql://fe1:9030) and --target starrocks");
        }
        topicLayout();
        requirePositive("--parallelism", options.parallelism);
        requirePositive("--checkpoint-interval", options.checkpointIntervalMs);
        requirePositive("--commit-interval", options.commitIntervalMs);
        requirePositive("--max-transaction-rows", options.maxTransactionRows);
        requirePositive("--max-transaction-bytes", options.maxTransactionBytes);
        requirePositive("--max-transaction-open", options.maxTransactionOpenMs);
        if (options.restartAttempts < 0) {
            throw usage("--restart-attempts must not be negative, got " + options.restartAttempts);
        }
        try {
            TableRouter.parse(options.tableMap, options.database, options.unknownTable);
        } catch (IllegalArgumentException e) {
            throw usage("--table-map: " + e.getMessage());
        }
        try {
            RunOwnedSinkOptions.check(options.sinkOptions, options.target);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * @return Debezium's default layout of {@code --transaction-topic} ({@link RunTopicLayout}), or {@code null} for
     *     the one-topic layout
     * @throws ParameterException for a combination that cannot work: {@code --transaction-topic} with
     *     {@code --format maxwell} or {@code --input}, several topics without it, the transaction topic also listed
     *     or matched as a table topic, a pattern that is no regular expression, a bound that is not positive,
     *     {@code --on-bound emit}, {@code --bad-input skip}
     */
    TopicLayout topicLayout() {
        ParseResult parsed = options.spec.commandLine().getParseResult();
        boolean layoutOption = parsed != null
                && (parsed.hasMatchedOption("--max-pending-bytes") || parsed.hasMatchedOption("--max-topic-drift"));
        TopicLayout layout;
        try {
            layout = options.topicLayout.layout(options.topic, options.format, options.input, layoutOption);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (layout != null && options.badInput == BadInputMode.SKIP) {
            // a skipped event of a transaction leaves it incomplete for ever, and every later one waits behind it
            throw usage("--bad-input skip cannot be used with --transaction-topic: a skipped event would leave its "
                    + "transaction incomplete and every later transaction waiting behind it (use --bad-input fail, "
                    + "the default, or --dead-letter)");
        }
        if (layout != null && options.onBound == BoundMode.EMIT) {
            // a part emitted at a bound would leave before its transaction is whole and in commit order
            throw usage("--on-bound emit cannot be used with --transaction-topic: the rebuild releases a transaction "
                    + "only whole and in commit order (use --on-bound fail, the default)");
        }
        return layout;
    }

    /**
     * @return how missing target tables are created ({@link RunTableCreation}), or {@code null} without
     *     {@code --create-tables}
     * @throws ParameterException for a combination that cannot work (Doris, no {@code --jdbc-url}, {@code --table-map},
     *     a creation option without {@code --create-tables}) or a pattern that is no regular expression
     */
    TableCreation tableCreation() {
        RunTableCreation creation = options.tableCreation;
        try {
            creation.check(options.target, options.jdbcUrl, options.tableMap);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (!creation.createTables) {
            return null;
        }
        try {
            return new TableCreation(TableSelection.of(creation.includeTables, creation.excludeTables,
                    options.database, creation.tablePrefix, creation.tableSuffix),
                    new TableCreationOptions(creation.tableBuckets, creation.tableProperties, creation.columnTypes,
                            keyColumns(), TableCreationOptions.DEFAULT_PRIMARY_KEY_LIMIT_BYTES),
                    creation.sourceJdbcUrl, creation.sourceUser, creation.sourcePassword);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * @return the restart policy from the options
     * @throws ParameterException naming the option whose value is out of range
     */
    RestartPolicy restartPolicy() {
        try {
            return new RestartPolicy(options.restartAttempts, options.restartDelayMs, options.restartMaxDelayMs,
                    options.restartResetAfterMs);
        } catch (IllegalArgumentException e) {
            throw usage("--restart-*: " + e.getMessage());
        }
    }

    /**
     * @return {@code --key-columns}: the key columns per source table {@code db.table}, in the order given
     * @throws ParameterException for an entry that is not {@code SRC_DB.TABLE=COL[+COL...]}
     */
    Map<String, List<String>> keyColumns() {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : options.keyColumns.entrySet()) {
            List<String> columns = Arrays.stream(entry.getValue().split("\\+")).map(String::trim).toList();
            if (!entry.getKey().contains(".") || columns.stream().anyMatch(String::isEmpty)) {
                throw usage("--key-columns must be SRC_DB.TABLE=COL[+COL...], got " + entry.getKey() + "="
                        + entry.getValue());
            }
            keys.put(entry.getKey(), columns);
        }
        return keys;
    }

    /**
     * @param kafka the Kafka consumer settings, for a topic on the source's brokers
     * @return {@code --dead-letter}, a topic on the source's brokers, or {@code null}
     * @throws ParameterException for a malformed value, or a topic without Kafka input
     */
    DeadLetterTarget deadLetterTarget(Properties kafka) {
        if (options.deadLetter == null) {
            return null;
        }
        DeadLetterTarget target;
        try {
            target = DeadLetterTarget.parse(options.deadLetter);
        } catch (IllegalArgumentException e) {
            throw usage("--dead-letter: " + e.getMessage());
        }
        if (target.kind() == DeadLetterTarget.Kind.FILE) {
            Path parent = Path.of(target.name()).toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
                throw usage("--dead-letter " + options.deadLetter + ": directory " + parent + " does not exist or is "
                        + "not writable");
            }
            return target;
        }
        if (options.input != null) {
            throw usage("--dead-letter topic:NAME writes to the source's Kafka brokers; with --input use file:PATH");
        }
        return target.onBrokers(options.kafkaBootstrap, kafka);
    }

    /**
     * The delivery semantic and job id of {@code --semantic} and {@code --job-id}: on StarRocks exactly-once by
     * default, under {@link ExactlyOnceAcrossTables#defaultJobId} of the group and the topic (the transaction topic with
     * {@code --transaction-topic}, {@code file:NAME} with {@code --input});
     * none on Doris. A {@code --sink-option} naming {@code sink.semantic} or
     * {@code sink.transaction.multi-table.job-id} never gets here: {@link #check()} refuses it
     * ({@link RunOwnedSinkOptions}).
     *
     * @return the {@link PipelineConfig#semantic()} and {@link PipelineConfig#jobId()} of the job
     * @throws ParameterException for {@code --semantic}/{@code --job-id} with Doris, {@code --job-id} with
     *     at-least-once, or a blank {@code --job-id}
     */
    Semantic semantic() {
        if (!options.target.hasMultiTableTransactions()) { // Doris: one 2PC load per table and flush
            if (options.semantic == DeliverySemantic.AT_LEAST_ONCE || options.jobId != null) {
                throw usage("--semantic and --job-id apply to --target starrocks; Doris always loads exactly-once "
                        + "per table (docs/doris.md)");
            }
            return new Semantic(null, null);
        }
        DeliverySemantic chosen = options.semantic == null ? DeliverySemantic.EXACTLY_ONCE : options.semantic;
        if (chosen == DeliverySemantic.AT_LEAST_ONCE && options.jobId != null) {
            throw usage("--job-id applies to --semantic exactly-once only");
        }
        if (options.jobId != null && options.jobId.isBlank()) {
            throw usage("--job-id must not be blank");
        }
        String jobId = chosen != DeliverySemantic.EXACTLY_ONCE ? null : options.jobId != null ? options.jobId
                : ExactlyOnceAcrossTables.defaultJobId(options.groupId, options.input != null
                        ? "file:" + options.input.getFileName()
                        : options.topicLayout.transactionTopic != null ? options.topicLayout.transactionTopic
                        : options.topic);
        return new Semantic(chosen, jobId);
    }

    /**
     * The delivery semantic and job id {@code lockstep run} gives the job.
     *
     * @param semantic the semantic, or {@code null} on Doris
     * @param jobId the job id, or {@code null}
     */
    record Semantic(DeliverySemantic semantic, String jobId) {

        /** @return {@code config} with this semantic and job id */
        PipelineConfig applyTo(PipelineConfig config) {
            return config.withSemantic(semantic, jobId);
        }
    }

    /** @return a usage error of the command with {@code message} */
    ParameterException usage(String message) {
        return new ParameterException(options.spec.commandLine(), message);
    }

    private void requirePositive(String option, long value) {
        if (value <= 0) {
            throw usage(option + " must be positive, got " + value);
        }
    }
}
