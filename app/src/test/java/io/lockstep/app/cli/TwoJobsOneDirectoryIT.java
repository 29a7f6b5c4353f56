package io.lockstep.app.cli;

import static io.lockstep.app.testing.StarRocksEmulatorExtension.progressTableDdl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.app.demo.DemoMetricsReporter;
import io.lockstep.app.job.CheckpointOwner;
import io.lockstep.app.job.JobIdentity;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.job.StateDirectory;
import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.app.kafka.EmbeddedKafkaExtension;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.app.testing.JobProcess;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import io.lockstep.app.testing.TopicWriter;
import io.lockstep.core.server.Target;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Two {@code lockstep run} jobs in one working directory with the default options (one consumer group, different
 * topics) each load exactly their own topic into a DUPLICATE KEY ledger (a row loaded twice would show): the state
 * directory is per job id, a checkpoint of job a left under the directory of earlier versions
 * ({@code lockstep-state/<group id>}, written here by the job run in this JVM) is picked up by job a only, and a restore of another job's checkpoint is
 * refused in one line, before submitting ({@code --from-savepoint}) and by the job itself (as under
 * {@code flink run -s}), once, without restarts, also with {@code --adopt-state} (another topic). One Kafka broker
 * and one emulator for all of it.
 */
class TwoJobsOneDirectoryIT {
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();
    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();
    @TempDir
    Path workDir;

    private static final String LEDGER_DDL = "CREATE DATABASE lab; CREATE TABLE lab.ledger (id BIGINT NOT NULL, "
            + "topic VARCHAR(32)) DUPLICATE KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;";

    @Test
    void twoJobsInOneDirectoryEachLoadTheirOwnTopicAndRefuseTheOthersState() throws Exception {
        starRocks.start(LEDGER_DDL + progressTableDdl("lab"));
        KAFKA.createTopic("lab.a", 1);
        KAFKA.createTopic("lab.b", 1);
        // job a as an earlier version left it: its checkpoint under the group's directory, lockstep-state/lockstep
        StateDirectory legacy = new StateDirectory(workDir.resolve("lockstep-state").resolve("lockstep"));
        StateDirectory bState = new StateDirectory(workDir.resolve("lockstep-state").resolve("lockstep-lab_b"));
        StateDirectory aState = new StateDirectory(workDir.resolve("lockstep-state").resolve("lockstep-lab_a"));
        try (TopicWriter a = new TopicWriter(KAFKA.bootstrapServers(), "lab.a");
                TopicWriter b = new TopicWriter(KAFKA.bootstrapServers(), "lab.b")) {
            ledger(a, "a", 1, 2);
            JobClient first = start(args("lab.a", "--state-dir", legacy.root().toString()), Optional.empty());
            await().atMost(Duration.ofSeconds(60)).until(() -> starRocks.rowCount("lab", "ledger") == 2);
            Path next = awaitCheckpointOtherThan(legacy, legacy.latestCheckpoint());
            awaitCheckpointOtherThan(legacy, Optional.of(next)); // completed after both were visible
            first.cancel().get();
            await().atMost(Duration.ofSeconds(30)).until(() -> first.getJobExecutionResult().isDone());
            Path aLegacy = legacy.latestCheckpoint().orElseThrow();
            ledger(a, "a", 3, 4, 5);
            ledger(b, "b", 101, 102);

            // job b and job a again, both with the default options, side by side: b in its own directory, leaving
            // a's checkpoint in the old one alone; a finds its own checkpoint there and goes on from it
            try (JobProcess jobB = JobProcess.start(workDir, args("lab.b"));
                    JobProcess again = JobProcess.start(workDir, args("lab.a"))) {
                awaitWhileRunning(List.of(jobB, again), () -> ids("b").size() == 2 && ids("a").size() == 5);
                awaitCheckpointOtherThan(bState, Optional.empty());
                awaitCheckpointOtherThan(aState, Optional.empty());
                jobB.signal("INT");
                again.signal("INT");
                assertThat(stopped(jobB)).contains("no state to restore (state dir " + bState.root() + ")")
                        .contains("summary: 2 source transactions read, 2 committed");
                assertThat(stopped(again)).contains("restoring " + aLegacy + " (this job's, from the state "
                        + "directory of earlier versions; next checkpoints in " + aState.root() + ")")
                        .contains("summary: 3 source transactions read, 3 committed");
            }
            assertThat(ids("b")).as("b loaded its own topic only").containsExactly("101", "102");
            assertThat(ids("a")).as("a loaded each of its transactions once").containsExactly("1", "2", "3", "4", "5");
            Path aCheckpoint = aState.latestCheckpoint().orElseThrow();
            CheckpointOwner.Owner owner = CheckpointOwner.read(aCheckpoint);
            assertThat(owner.identity()).contains(new JobIdentity("starrocks", "lab", "lab.a", "debezium",
                    "lockstep-lab_a"));
            assertThat(owner.kafkaTopics()).containsExactly("lab.a");

            // b asked to restore a's checkpoint: refused before submitting, in one line naming both
            CliRun refused = CliRun.of(args("lab.b", "--from-savepoint", aCheckpoint.toString()));
            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.out()).as("no job started").isEmpty();
            assertThat(refused.err().strip()).isEqualTo("lockstep run: --from-savepoint " + aCheckpoint
                    + " belongs to job 'lockstep-lab_a' (debezium from topic 'lab.a' into starrocks database 'lab'), "
                    + "not to this job 'lockstep-lab_b' (debezium from topic 'lab.b' into starrocks database 'lab'): "
                    + "refusing to restore another job's state (give this job its own --state-dir or savepoint; "
                    + "--adopt-state takes over only a state of the same topic or input)");

            // the same restore asked of the job itself (as `flink run -s` does): it fails once, without restarts
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = runWithRestoreOf(aCheckpoint, args("lab.b"), new PrintWriter(out), new PrintWriter(err));
            assertThat(code).isEqualTo(1);
            assertThat(err.toString().strip().lines()).as("one line").hasSize(1);
            assertThat(err.toString()).startsWith("lockstep run: job failed: JobStateMismatchException: the "
                    + "restored checkpoint or savepoint belongs to job 'lockstep-lab_a' ").contains("--adopt-state");
            assertThat(out.toString()).contains(" 0 restarts in ");

            // --adopt-state does not take a's state over for b either: b's source would resume a's topic under b's id
            CliRun adopting = CliRun.of(args("lab.b", "--from-savepoint", aCheckpoint.toString(), "--adopt-state"));
            assertThat(adopting.exitCode()).isEqualTo(1);
            assertThat(adopting.out()).as("no job started").isEmpty();
            assertThat(adopting.err().strip().lines()).as("one line").hasSize(1);
            assertThat(adopting.err()).startsWith("lockstep run: --from-savepoint " + aCheckpoint + " belongs to job "
                    + "'lockstep-lab_a' (debezium from topic 'lab.a' into starrocks database 'lab'), which reads topic "
                    + "'lab.a', not this job 'lockstep-lab_b' (debezium from topic 'lab.b' into starrocks database "
                    + "'lab')'s topic 'lab.b': refusing --adopt-state").contains("a new topic or input needs a fresh "
                    + "--state-dir");
            StringWriter adoptOut = new StringWriter();
            StringWriter adoptErr = new StringWriter();
            int adoptCode = runWithRestoreOf(aCheckpoint, args("lab.b", "--adopt-state"), new PrintWriter(adoptOut),
                    new PrintWriter(adoptErr));
            assertThat(adoptCode).as("refused by the job itself, as under flink run -s").isEqualTo(1);
            assertThat(adoptErr.toString().strip().lines()).as("one line").hasSize(1);
            assertThat(adoptErr.toString()).startsWith("lockstep run: job failed: JobStateMismatchException: the "
                    + "restored checkpoint or savepoint belongs to job 'lockstep-lab_a' ")
                    .contains("which reads topic 'lab.a'").contains("refusing --adopt-state");
            assertThat(adoptOut.toString()).contains(" 0 restarts in ");
        }
        assertThat(ids()).containsExactly("1", "2", "3", "4", "5", "101", "102");
    }

    /** The job of {@code args} on a local MiniCluster restoring {@code checkpoint}, without the command's own check. */
    private static int runWithRestoreOf(Path checkpoint, String[] args, PrintWriter out, PrintWriter err)
            throws Exception {
        RunCommand command = parse(args);
        Configuration settings = new Configuration();
        DemoMetricsReporter.enable(settings);
        settings.set(StateRecoveryOptions.SAVEPOINT_PATH, checkpoint.toUri().toString());
        StreamExecutionEnvironment env = define(command, settings);
        return new RunSession(out, err, 0, 30_000).run(env, "lockstep " + command.config().topic(), "restore test",
                Target.STARROCKS);
    }

    /** Starts the job of {@code args} on a local MiniCluster with the checkpoints in its {@code --state-dir}. */
    private static JobClient start(String[] args, Optional<Path> restore) throws Exception {
        RunCommand command = parse(args);
        Configuration settings = new Configuration();
        new StateDirectory(command.stateDir).configure(settings, restore, true);
        return define(command, settings).executeAsync("lockstep " + command.config().topic());
    }

    private static StreamExecutionEnvironment define(RunCommand command, Configuration settings) {
        PipelineConfig config = command.config();
        command.restartPolicy().applyTo(settings);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(settings);
        LockstepPipeline.define(env, config, UnaryOperator.identity(),
                CommittedStartOffsets.Plan.configured(config.topic()));
        env.configure(command.restartPolicy().applyTo(new Configuration()));
        return env;
    }

    private static RunCommand parse(String[] args) {
        CommandLine.ParseResult parsed = LockstepMain.commandLine().parseArgs(args);
        return (RunCommand) parsed.subcommand().commandSpec().userObject();
    }

    private static void ledger(TopicWriter writer, String topic, int... ids) throws Exception {
        for (int id : ids) {
            for (String message : new DebeziumTxn(topic + id).insert("ledger",
                    "{\"id\":" + id + ",\"topic\":\"" + topic + "\"}").messages()) {
                writer.send(message);
            }
        }
    }

    private List<String> ids() {
        return starRocks.rows("SELECT id FROM lab.ledger ORDER BY id");
    }

    private List<String> ids(String topic) {
        return starRocks.rows("SELECT id FROM lab.ledger WHERE topic = '" + topic + "' ORDER BY id");
    }

    /** After Ctrl-C: the exit code 130 and what the job printed on stdout. */
    private static String stopped(JobProcess job) throws Exception {
        assertThat(job.awaitExit(60)).as(job.err()).isEqualTo(RunSession.EXIT_STOPPED);
        return job.out();
    }

    /** {@code run} of {@code topic} with the default options but quick checkpoints and commits, then {@code more}. */
    private String[] args(String topic, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--kafka-bootstrap", KAFKA.bootstrapServers(),
                "--topic", topic, "--format", "debezium", "--load-url", starRocks.feUrl(), "--database", "lab",
                "--checkpoint-interval", "300ms", "--commit-interval", "200ms", "--restart-attempts", "5",
                "--restart-delay", "100ms"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static void awaitWhileRunning(List<JobProcess> jobs, Callable<Boolean> condition) {
        await().atMost(Duration.ofSeconds(90)).until(() -> {
            for (JobProcess job : jobs) {
                if (!job.isAlive()) {
                    throw new AssertionError("lockstep exited; stdout:\n" + job.out() + "\nstderr:\n" + job.err());
                }
            }
            return condition.call();
        });
    }

    private static Path awaitCheckpointOtherThan(StateDirectory state, Optional<Path> known) {
        return await().atMost(Duration.ofSeconds(60)).until(state::latestCheckpoint,
                latest -> latest.isPresent() && !latest.equals(known)).orElseThrow();
    }
}
