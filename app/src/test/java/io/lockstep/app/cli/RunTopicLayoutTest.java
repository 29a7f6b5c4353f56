package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.job.JobIdentity;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.kafka.EmbeddedKafkaExtension;
import io.lockstep.app.rebuild.TopicLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code lockstep run} on Debezium's default layout (docs/sources.md#debeziums-default-layout-one-topic-per-table):
 * {@code --transaction-topic} switches it on, {@code --topic} lists the table topics or {@code --topic-pattern} matches
 * them, and every combination that cannot work is refused in one line: as a usage error (exit 2) when the options say
 * so, after asking the brokers (exit 1) when the topics do. Nothing here starts a job.
 */
class RunTopicLayoutTest {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    private static final String[] BASE = {"run", "--kafka-bootstrap", "localhost:9092", "--load-url",
        "127.0.0.1:8030", "--database", "shop"};

    @Test
    void aTransactionTopicSwitchesTheLayoutOnWithTheTableTopicsAndBounds() {
        RunCommand command = parse(args("--format", "debezium", "--topic", "pg.public.accounts, pg.public.orders",
                "--transaction-topic", "pg.transaction", "--max-pending-bytes", "1048576", "--max-topic-drift", "5s"));
        PipelineConfig config = command.config();

        TopicLayout layout = config.topicLayout();
        assertThat(layout.transactionTopic()).isEqualTo("pg.transaction");
        assertThat(layout.tableTopics()).containsExactly("pg.public.accounts", "pg.public.orders");
        assertThat(layout.tableTopicPattern()).isNull();
        assertThat(layout.maxPendingBytes()).isEqualTo(1_048_576L);
        assertThat(layout.committedRebuiltPosition()).isEqualTo(-1L);
        assertThat(config.maxTopicDriftMs()).isEqualTo(5_000L);
        assertThat(config.topic()).as("the job is named by its transaction topic").isEqualTo("pg.transaction");
        assertThat(config.jobId()).isEqualTo("lockstep-pg_transaction");
    }

    @Test
    void withoutATransactionTopicTheOneTopicLayoutIsAsBefore() {
        PipelineConfig config = parse(args("--format", "debezium", "--topic", "shop.cdc")).config();

        assertThat(config.topicLayout()).isNull();
        assertThat(config.topic()).isEqualTo("shop.cdc");
        assertThat(config.jobId()).isEqualTo("lockstep-shop_cdc");
    }

    @Test
    void aPatternNamesTheTableTopicsAndTheDefaultsApply() {
        PipelineConfig config = parse(args("--format", "debezium", "--topic-pattern", "pg\\.public\\..*",
                "--transaction-topic", "pg.transaction")).config();

        assertThat(config.topicLayout().tableTopics()).isEmpty();
        assertThat(config.topicLayout().tableTopicPattern()).isEqualTo("pg\\.public\\..*");
        assertThat(config.topicLayout().maxPendingBytes()).isEqualTo(TopicLayout.DEFAULT_MAX_PENDING_BYTES);
        assertThat(config.maxTopicDriftMs()).isEqualTo(PipelineConfig.DEFAULT_MAX_TOPIC_DRIFT_MS);
    }

    @Test
    void theStartLineNamesTheLayout() {
        RunCommand listed = parse(args("--format", "debezium", "--topic", "pg.public.accounts,pg.public.orders",
                "--transaction-topic", "pg.transaction"));
        assertThat(RunStartLine.of(listed, listed.restartPolicy(), Optional.empty()))
                .contains("reading debezium from topics 'pg.public.accounts', 'pg.public.orders' and "
                        + "'pg.transaction' at localhost:9092, rebuilding transactions from 2 table topics and "
                        + "pg.transaction, writing starrocks");
        RunCommand matched = parse(args("--format", "debezium", "--topic-pattern", "pg\\.public\\..*",
                "--transaction-topic", "pg.transaction"));
        assertThat(RunStartLine.of(matched, matched.restartPolicy(), Optional.empty()))
                .contains("rebuilding transactions from the table topics matching 'pg\\.public\\..*' and "
                        + "pg.transaction");
    }

    @Test
    void maxwellHasNoTransactionTopic() {
        assertUsageError(CliRun.of(args("--format", "maxwell", "--topic", "a,b", "--transaction-topic", "tx")),
                "lockstep run: --transaction-topic reads Debezium's transaction metadata topic: it goes with --format "
                        + "debezium (maxwell writes every event to one topic)");
    }

    @Test
    void partsEmittedAtABoundCannotBeRebuilt() {
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "a,b", "--transaction-topic", "tx",
                        "--on-bound", "emit")),
                "lockstep run: --on-bound emit cannot be used with --transaction-topic: the rebuild releases a "
                        + "transaction only whole and in commit order (use --on-bound fail, the default)");
    }

    @Test
    void skippedBadInputWouldStallTheRebuild() {
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "a,b", "--transaction-topic", "tx",
                        "--bad-input", "skip")),
                "lockstep run: --bad-input skip cannot be used with --transaction-topic: a skipped event would leave "
                        + "its transaction incomplete and every later transaction waiting behind it (use --bad-input "
                        + "fail, the default, or --dead-letter)");
    }

    @Test
    void aFileHasNoTransactionTopic(@TempDir Path dir) throws Exception {
        Path input = Files.writeString(dir.resolve("in.jsonl"), "{}\n");
        assertUsageError(CliRun.of("run", "--input", input.toString(), "--transaction-topic", "tx", "--format",
                        "debezium", "--load-url", "h:1", "--database", "d"),
                "lockstep run: --input reads one file in the one-topic layout: it goes without --transaction-topic");
    }

    @Test
    void severalTopicsNeedATransactionTopic() {
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "pg.public.a,pg.public.b")),
                "lockstep run: --topic lists 2 topics: several table topics need --transaction-topic");
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic-pattern", "pg\\..*")),
                "lockstep run: --topic-pattern reads table topics: it needs --transaction-topic");
    }

    @Test
    void theTransactionTopicIsNoTableTopic() {
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "pg.public.a,pg.transaction",
                        "--transaction-topic", "pg.transaction")),
                "lockstep run: --topic lists the transaction topic pg.transaction: list only the table topics");
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic-pattern", "pg\\..*",
                        "--transaction-topic", "pg.transaction")),
                "lockstep run: --topic-pattern pg\\..* matches the transaction topic pg.transaction: narrow it");
    }

    @Test
    void tableTopicsComeAsAListOrAPatternAndTheBoundsArePositive() {
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "a", "--topic-pattern", "b.*",
                "--transaction-topic", "tx")), "give only one of --topic T1,T2,... or --topic-pattern REGEX");
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "a,,b", "--transaction-topic", "tx")),
                "--topic a,,b: an empty topic name in the list");
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "a,b,a", "--transaction-topic", "tx")),
                "--topic a,b,a: a topic is named twice");
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic-pattern", "pg.(", "--transaction-topic",
                "tx")), "--topic-pattern pg.( is not a regular expression");
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "a", "--transaction-topic", "tx",
                "--max-pending-bytes", "0")), "--max-pending-bytes must be positive, got 0");
        assertUsageError(CliRun.of(args("--format", "debezium", "--topic", "a", "--max-topic-drift", "5s")),
                "--max-pending-bytes and --max-topic-drift apply to --transaction-topic only");
    }

    @Test
    void aTransactionTopicWithSeveralPartitionsIsRefusedInOneLine() throws Exception {
        KAFKA.createTopic("two.public.a", 1);
        KAFKA.createTopic("two.transaction", 2);
        CliRun run = CliRun.of(kafkaArgs("--topic", "two.public.a", "--transaction-topic", "two.transaction"));
        assertRefused(run, "lockstep run: transaction topic 'two.transaction' has 2 partitions: the rebuild needs it "
                + "in one, where END events come in commit order");
    }

    @Test
    void aListedTopicThatDoesNotExistIsRefusedInOneLine() throws Exception {
        KAFKA.createTopic("miss.public.a", 1);
        KAFKA.createTopic("miss.transaction", 1);
        CliRun run = CliRun.of(kafkaArgs("--topic", "miss.public.a,miss.public.b", "--transaction-topic",
                "miss.transaction"));
        assertRefused(run, "lockstep run: topic 'miss.public.b' does not exist at " + KAFKA.bootstrapServers());
    }

    @Test
    void aPatternMatchingNoTopicIsRefusedInOneLine() throws Exception {
        KAFKA.createTopic("none.transaction", 1);
        CliRun run = CliRun.of(kafkaArgs("--topic-pattern", "none\\.public\\..*", "--transaction-topic",
                "none.transaction"));
        assertRefused(run, "lockstep run: no topic at " + KAFKA.bootstrapServers() + " matches --topic-pattern "
                + "none\\.public\\..*");
    }

    @Test
    void theIdentityOfAMultiTopicJobNamesItsTopicsSoAOneTopicJobsStateIsRefused() {
        JobIdentity listed = JobIdentity.of(parse(args("--format", "debezium", "--topic", "pg.public.b,pg.public.a",
                "--transaction-topic", "pg.transaction", "--job-id", "j")).config());
        JobIdentity reordered = JobIdentity.of(parse(args("--format", "debezium", "--topic",
                "pg.public.a,pg.public.b", "--transaction-topic", "pg.transaction", "--job-id", "j")).config());
        JobIdentity oneTopic = JobIdentity.of(parse(args("--format", "debezium", "--topic", "pg.transaction",
                "--job-id", "j")).config());
        JobIdentity matched = JobIdentity.of(parse(args("--format", "debezium", "--topic-pattern", "pg\\.public\\..*",
                "--transaction-topic", "pg.transaction", "--job-id", "j")).config());

        assertThat(listed).as("the table topics are sorted").isEqualTo(reordered);
        assertThat(listed.source()).isEqualTo("layout:pg.transaction|topics:pg.public.a,pg.public.b");
        assertThat(matched.source()).isEqualTo("layout:pg.transaction|pattern:pg\\.public\\..*");
        assertThat(JobIdentity.decode(listed.encode())).contains(listed);
        assertThat(JobIdentity.decode(matched.encode())).contains(matched);
        assertThat(listed).isNotEqualTo(oneTopic).isNotEqualTo(matched);
        assertThat(listed.describe()).contains("from transaction topic 'pg.transaction' with table topics "
                + "'pg.public.a', 'pg.public.b' into");
        assertThat(JobIdentity.describeSource(matched.source()))
                .isEqualTo("transaction topic 'pg.transaction' with the table topics matching 'pg\\.public\\..*'");
    }

    private static String[] kafkaArgs(String... more) {
        return Stream.concat(Stream.of("run", "--kafka-bootstrap", KAFKA.bootstrapServers(), "--load-url",
                "127.0.0.1:8030", "--database", "shop", "--format", "debezium", "--bounded",
                "--kafka-check-timeout", "10s"), Stream.of(more)).toArray(String[]::new);
    }

    private static String[] args(String... more) {
        return Stream.concat(Stream.of(BASE), Stream.of(more)).toArray(String[]::new);
    }

    private static RunCommand parse(String... args) {
        CommandLine.ParseResult parsed = LockstepMain.commandLine().parseArgs(args);
        return (RunCommand) parsed.subcommand().commandSpec().userObject();
    }

    private static void assertUsageError(CliRun run, String expected) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains(expected);
        assertThat(run.err().strip().lines()).as("one line, no stack trace: %s", run.err()).hasSize(1);
    }

    private static void assertRefused(CliRun run, String expected) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).contains(expected);
        assertThat(run.err().strip().lines()).as("one line, no stack trace: %s", run.err()).hasSize(1);
        assertThat(List.of(run.out())).as("no job started").allMatch(out -> !out.contains("reading debezium"));
    }
}
