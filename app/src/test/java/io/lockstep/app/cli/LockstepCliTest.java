package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.job.DeliverySemantic;
import io.lockstep.app.job.ExactlyOnceAcrossTables;
import io.lockstep.app.job.JobIdentity;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.options.SinkSemantic;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

/**
 * Usage errors of the {@code lockstep} command line: exit code 2 and one line on stderr naming the option,
 * never a stack trace. Nothing here starts a job or a server.
 */
class LockstepCliTest {
    private static final String[] VALID_RUN = {"run", "--kafka-bootstrap", "localhost:9092", "--topic", "t",
            "--format", "debezium", "--load-url", "127.0.0.1:8030", "--database", "shop"};

    @Test
    void withoutACommandItAsksForOne() {
        CliRun run = CliRun.of();
        assertUsageError(run, "lockstep: missing command: run, demo, kafka or emulator");
    }

    @Test
    void runNamesTheMissingRequiredOptions() {
        CliRun run = CliRun.of("run", "--topic", "t");
        assertUsageError(run, "lockstep run: Missing required options:");
        assertThat(run.err()).contains("--format", "--load-url", "--database");
        CliRun noSource = CliRun.of("run", "--topic", "t", "--format", "debezium", "--load-url", "h:1", "--database",
                "d");
        assertUsageError(noSource, "lockstep run: Missing required options: --kafka-bootstrap and --topic (or "
                + "--input FILE.jsonl)");
    }

    @Test
    void runNamesAnInvalidFormat() {
        CliRun run = CliRun.of(with("--format", "canal"));
        assertUsageError(run, "--format");
        assertThat(run.err()).contains("canal").contains("MAXWELL").contains("DEBEZIUM");
    }

    @Test
    void formatAndModesAreCaseInsensitive() {
        CliRun run = CliRun.of("run", "--kafka-bootstrap", "localhost:9092", "--topic", "t", "--format", "Maxwell",
                "--load-url", "127.0.0.1:8030", "--database", "shop", "--bad-input", "skip", "--unknown-table", "SKIP",
                "--on-bound", "Emit", "--parallelism", "0");
        assertUsageError(run, "lockstep run: --parallelism must be positive, got 0");
    }

    @Test
    void runNamesANonNumericParallelismAndABadDuration() {
        assertUsageError(CliRun.of(with("--parallelism", "two")), "--parallelism");
        assertUsageError(CliRun.of(with("--checkpoint-interval", "soon")), "--checkpoint-interval");
    }

    @Test
    void runNamesAMalformedTableMap() {
        CliRun run = CliRun.of(with("--table-map", "orders=shop.orders"));
        assertUsageError(run, "lockstep run: --table-map: invalid table map entry 'orders=shop.orders'");
    }

    @Test
    void runNamesAMalformedKeyColumnsEntry() {
        assertUsageError(CliRun.of(with("--key-columns", "orders=id")), "lockstep run: --key-columns must be");
    }

    @Test
    void runNamesAnUnknownSinkOptionBeforeStartingAnything() {
        CliRun run = CliRun.of(with("--sink-option", "sink.buffer-flush.interval-msec=5"));
        assertUsageError(run, "lockstep run: ");
        assertThat(run.err()).contains("sink.buffer-flush.interval-msec").contains("sink.buffer-flush.interval-ms");
    }

    @Test
    void runNamesASinkOptionTheSinkCannotLoadBeforeAskingTheTarget() {
        // the options build, but the sink refuses them when it maps them (load format, strip_outer_array): still a
        // usage error in one line, before Kafka or the target is asked (nothing listens on the addresses above)
        CliRun csv = CliRun.of(with("--sink-option", "sink.properties.format=csv"));
        assertUsageError(csv, "lockstep run: ");
        assertThat(csv.err()).contains("sink.properties.format").contains("csv")
                .doesNotContain("InvalidSinkOptionException").doesNotContain("cannot be checked");
        CliRun array = CliRun.of(with("--sink-option", "sink.properties.strip_outer_array=false"));
        assertUsageError(array, "lockstep run: ");
        assertThat(array.err()).contains("strip_outer_array").doesNotContain("InvalidSinkOptionException");
    }

    @Test
    void runTargetsDorisWithTheDorisSinkRules() {
        CliRun refused = CliRun.of(with("--target", "Doris", "--sink-option",
                "sink.properties.group_commit=async_mode"));
        assertUsageError(refused, "lockstep run: ");
        assertThat(refused.err()).contains("group_commit");
        CliRun unknown = CliRun.of(with("--target", "oracle"));
        assertUsageError(unknown, "--target");
        assertThat(unknown.err()).contains("oracle").contains("DORIS");
    }

    @Test
    void runLoadsStarRocksExactlyOnceAcrossTablesByDefaultUnderTheGroupAndTopicAsJobId() {
        RunCommand command = parse(VALID_RUN);
        PipelineConfig config = command.config();

        assertThat(config.semantic()).isEqualTo(DeliverySemantic.EXACTLY_ONCE);
        assertThat(config.jobId()).isEqualTo("lockstep-t");
        assertThat(config.sinkProperties()).as("only the user's --sink-option").isEmpty();
        assertThat(ExactlyOnceAcrossTables.enabled(config)).isTrue();
        SinkConfig options = LockstepPipeline.sinkOptions(config);
        assertThat(options.getSemantic()).isEqualTo(SinkSemantic.EXACTLY_ONCE);
        assertThat(options.getMultiTableJobId()).isEqualTo("lockstep-t");
        assertThat(options.getDatabaseName()).as("the progress table's database is fixed").isEqualTo("shop");

        PipelineConfig named = parse(with("--job-id", "orders-to-shop", "--group-id", "g")).config();
        assertThat(named.jobId()).isEqualTo("orders-to-shop");
        assertThat(LockstepPipeline.sinkOptions(named).getMultiTableJobId()).isEqualTo("orders-to-shop");
        assertThat(parse(with("--group-id", "g")).config().jobId()).isEqualTo("g-t");
    }

    @Test
    void theDefaultJobIdKeepsToTheCharactersAndLengthTheSinkAccepts() {
        assertThat(ExactlyOnceAcrossTables.defaultJobId("lockstep", "shop.cdc")).isEqualTo("lockstep-shop_cdc");
        String longId = ExactlyOnceAcrossTables.defaultJobId("g", "x".repeat(100));
        assertThat(longId).hasSize(64).matches("g-x{53}-[0-9a-f]{8}");
        assertThat(longId).isNotEqualTo(ExactlyOnceAcrossTables.defaultJobId("g", "x".repeat(101)));
    }

    @Test
    void runAtLeastOnceKeepsTheMultiTableModeWithoutPositions() {
        PipelineConfig config = parse(with("--semantic", "at-least-once")).config();

        assertThat(config.semantic()).isEqualTo(DeliverySemantic.AT_LEAST_ONCE);
        assertThat(config.jobId()).isNull();
        assertThat(ExactlyOnceAcrossTables.enabled(config)).isFalse();
        SinkConfig options = LockstepPipeline.sinkOptions(config);
        assertThat(options.getDatabaseName()).isEqualTo("*");
        assertThat(options.getSemantic()).isEqualTo(SinkSemantic.AT_LEAST_ONCE);
        assertThat(options.getMultiTableJobId()).isNull();
    }

    @Test
    void aSinkOptionThatRunSetsItselfIsRefusedNamingTheFlagToUse() {
        // given as --sink-option these used to win over the flags: at-least-once under --job-id, rows routed to
        // another database than the one whose progress was read, non-key columns loaded as NULL
        CliRun semantic = CliRun.of(with("--job-id", "j", "--sink-option", "sink.semantic=at-least-once"));
        assertUsageError(semantic, "lockstep run: --sink-option sink.semantic=at-least-once: lockstep run sets this "
                + "option itself; use --semantic");
        assertUsageError(CliRun.of(with("--sink-option", "sink.transaction.multi-table.job-id=mine")),
                "lockstep run: --sink-option sink.transaction.multi-table.job-id=mine: lockstep run sets this option "
                        + "itself; use --job-id");
        assertUsageError(CliRun.of(with("--sink-option", "sink.transaction.multi-table.enabled=false")),
                "lockstep run: --sink-option sink.transaction.multi-table.enabled=false");
        CliRun database = CliRun.of(with("--sink-option", "database-name=bank"));
        assertUsageError(database, "lockstep run: --sink-option database-name=bank");
        assertThat(database.err()).contains("use --database");
        assertThat(CliRun.of(with("--sink-option", "table-name=accounts")).err())
                .contains("each event goes to its own table");
        CliRun columns = CliRun.of(with("--sink-option", "sink.properties.columns=id"));
        assertUsageError(columns, "lockstep run: --sink-option sink.properties.columns=id");
        assertThat(columns.err()).contains("every column of each event");
        CliRun password = CliRun.of(with("--sink-option", "Password=s3cret"));
        assertUsageError(password, "lockstep run: --sink-option Password=***");
        assertThat(password.err()).doesNotContain("s3cret").contains("use --password");

        // on Doris --semantic is refused and sink.semantic stays the documented way to plain stream loads
        PipelineConfig doris = parse(with("--target", "doris", "--sink-option", "sink.semantic=at-least-once"))
                .config();
        assertThat(ExactlyOnceAcrossTables.enabled(doris)).isFalse();
        assertThat(LockstepPipeline.sinkOptions(doris).getSemantic()).isEqualTo(SinkSemantic.AT_LEAST_ONCE);
        assertThat(parse(with("--sink-option", "sink.max-retries=5")).config().sinkProperties())
                .as("other options pass as given").containsExactly(Map.entry("sink.max-retries", "5"));
    }

    @Test
    void runNamesSemanticOptionsThatDoNotApply() {
        assertUsageError(CliRun.of(with("--semantic", "twice")), "--semantic");
        assertUsageError(CliRun.of(with("--semantic", "at-least-once", "--job-id", "j")),
                "lockstep run: --job-id applies to --semantic exactly-once only");
        assertUsageError(CliRun.of(with("--target", "doris", "--semantic", "at-least-once")),
                "lockstep run: --semantic and --job-id apply to --target starrocks; Doris always loads exactly-once "
                        + "per table");
    }

    @Test
    void demoNamesAnUnknownTarget() {
        CliRun run = CliRun.of("demo", "--target", "mysql");
        assertUsageError(run, "--target");
        assertThat(run.err()).contains("STARROCKS").contains("DORIS");
    }

    @Test
    void unknownOptionsAreNamedWithTheClosestKnownOne() {
        assertUsageError(CliRun.of(with("--paralelism", "2")),
                "lockstep run: unknown option '--paralelism', did you mean --parallelism?");
    }

    @Test
    void anUnknownCommandIsNamedWithTheClosestKnownOne() {
        assertUsageError(CliRun.of("rn", "--topic", "t"), "lockstep: unknown command 'rn', did you mean run?");
        assertUsageError(CliRun.of("emultor"), "lockstep: unknown command 'emultor', did you mean emulator?");
        assertUsageError(CliRun.of("replicate"), "lockstep: unknown command 'replicate' (commands: run, demo, kafka, "
                + "emulator)");
    }

    @Test
    void aMisspeltRequiredOptionIsNamedAsUnknownNotAsMissing() {
        CliRun run = CliRun.of("run", "--kafka-bootstrap", "localhost:9092", "--topic", "t", "--format", "debezium",
                "--load-ulr", "127.0.0.1:8030", "--database", "shop");
        assertUsageError(run, "lockstep run: unknown option '--load-ulr', did you mean --load-url?");
        assertThat(run.err()).doesNotContain("Missing");

        CliRun kafka = CliRun.of("run", "--kafka-bootstrap-servers=localhost:9092", "--topic", "t", "--format",
                "debezium", "--load-url", "127.0.0.1:8030", "--database", "shop");
        assertUsageError(kafka, "unknown option '--kafka-bootstrap-servers', did you mean --kafka-bootstrap?");

        CliRun kafkaWords = CliRun.of("run", "--bootstrap-server", "localhost:9092", "--topic", "t", "--format",
                "debezium", "--load-url", "127.0.0.1:8030", "--database", "shop");
        assertUsageError(kafkaWords, "unknown option '--bootstrap-server', did you mean --kafka-bootstrap?");
    }

    @Test
    void anUnreachableTargetIsNamedInOneLineWithWhatToCheckAndNoRetryWarnings(@TempDir Path dir) throws Exception {
        Path input = Files.write(dir.resolve("in.jsonl"), List.of("{}"));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        PrintStream systemErr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        CliRun run;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            run = CliRun.of("run", "--input", input.toString(), "--format", "debezium", "--load-url",
                    "127.0.0.1:" + port, "--database", "bank");
        } finally {
            System.setErr(systemErr);
        }

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().strip()).isEqualTo("lockstep run: cannot reach StarRocks FE at http://127.0.0.1:" + port
                + ": connection refused (check --load-url and that the FE is up)");
        assertThat(log.toString(StandardCharsets.UTF_8)).as("the log before it").doesNotContainIgnoringCase("retry");
        assertThat(run.out()).as("no job started").isEmpty();
    }

    @Test
    void demoNamesAnInvalidRate() {
        assertUsageError(CliRun.of("demo", "--rate", "0"), "lockstep demo: rate must be positive, got 0.0");
        assertUsageError(CliRun.of("demo", "--duration", "forever"), "--duration");
        assertUsageError(CliRun.of("demo", "--rate", "1e9"),
                "lockstep demo: rate 1000000000/s for 45 s would write 45000000000 transactions; the demo writes at "
                        + "most 5,000,000 (lower --rate or --duration)");
    }

    @Test
    void demoRefusesAKillCountThatIsNotPositive() {
        assertUsageError(CliRun.of("demo", "--kill-task-after", "0"),
                "lockstep demo: kill-task-after must be a positive number of transactions, got 0");
        assertUsageError(CliRun.of("demo", "--kill-task-after", "-5"),
                "lockstep demo: kill-task-after must be a positive number of transactions, got -5");
    }

    @Test
    void emulatorDelegatesToTheEmulatorsOwnCommand() {
        CliRun run = CliRun.of("emulator", "--fe-port", "70000");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("lockstep emulator: --fe-port must be 0-65535 (0 = random), got 70000");
        CliRun help = CliRun.of("emulator", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("--ddl").contains("--fe-port").contains("Usage: lockstep emulator ")
                .doesNotContain("lockstep-emulator");
    }

    @Test
    void helpListsTheCommands() {
        CliRun run = CliRun.of("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("run").contains("demo").contains("emulator");
    }

    @Test
    void durationsTakeUnits() {
        DurationMs converter = new DurationMs();
        assertThat(converter.convert("250")).isEqualTo(250L);
        assertThat(converter.convert("250ms")).isEqualTo(250L);
        assertThat(converter.convert("10s")).isEqualTo(10_000L);
        assertThat(converter.convert("2m")).isEqualTo(120_000L);
        assertThat(converter.convert("1h")).isEqualTo(3_600_000L);
        assertThatThrownBy(() -> converter.convert("-1s")).isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("'-1s' is not a duration");
        assertThatThrownBy(() -> converter.convert("99999999999999999999")).isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("too large");
    }

    private static RunCommand parse(String... args) {
        CommandLine.ParseResult parsed = LockstepMain.commandLine().parseArgs(args);
        return (RunCommand) parsed.subcommand().commandSpec().userObject();
    }

    private static String[] with(String... more) {
        String[] args = new String[VALID_RUN.length + more.length];
        System.arraycopy(VALID_RUN, 0, args, 0, VALID_RUN.length);
        System.arraycopy(more, 0, args, VALID_RUN.length, more.length);
        return args;
    }

    @Test
    void aBoundedRunCannotRestoreASavepoint() {
        String[] args = Stream.concat(Stream.of(VALID_RUN), Stream.of("--bounded", "--from-savepoint",
                "/tmp/savepoint-1")).toArray(String[]::new);
        assertUsageError(CliRun.of(args),
                "lockstep run: --bounded reads up to the end offsets seen at start and cannot restore "
                        + "--from-savepoint");
    }

    private static void assertUsageError(CliRun run, String expected) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains(expected);
        assertThat(run.err().strip().lines()).as("one line, no stack trace: %s", run.err()).hasSize(1);
    }
}
