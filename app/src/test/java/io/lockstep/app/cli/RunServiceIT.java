package io.lockstep.app.cli;

import static io.lockstep.app.testing.StarRocksEmulatorExtension.BANK_DDL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.app.job.StateDirectory;
import io.lockstep.app.file.JsonLinesInput;
import io.lockstep.app.kafka.EmbeddedKafkaExtension;
import io.lockstep.app.kafka.JsonLinesLoader;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import io.lockstep.app.testing.JobProcess;
import io.lockstep.app.testing.TopicWriter;
import io.lockstep.emulator.fault.FaultOp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run} as a long-running service: killed and started again it continues from its last
 * checkpoint; Ctrl-C rolls back the open transaction and prints the summary; transient outages far apart are
 * each survived; errors that cannot heal end the run at once in one line. The job runs in a JVM of its own
 * ({@link JobProcess}) where a test kills or signals it, otherwise through the command line in this JVM.
 */
class RunServiceIT {
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();
    @TempDir
    Path workDir;
    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();

    @Test
    void aKilledProcessResumesFromItsLastCheckpointNotFromOffsetZero() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("svc.resume", 1);
        Path stateDir = workDir.resolve("state");
        StateDirectory state = new StateDirectory(stateDir);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "svc.resume")) {
            writer.sendAll(account("t1", 1, "100.00"));
            writer.sendAll(account("t2", 2, "50.00"));
            try (JobProcess first = JobProcess.start(workDir, args("svc.resume", "--state-dir", stateDir.toString()))) {
                awaitWhileRunning(first, () -> starRocks.rowCount("bank", "accounts") == 2);
                // two checkpoints completed after both transactions were visible: their offsets are past them
                Optional<Path> atVisibility = state.latestCheckpoint();
                Path next = awaitCheckpointOtherThan(state, atVisibility);
                awaitCheckpointOtherThan(state, Optional.of(next));
                first.signal("KILL");
                assertThat(first.awaitExit(30)).isEqualTo(137);
            }
            writer.sendAll(account("t3", 3, "10.00"));

            // a restored Kafka split keeps the stopping offset it had (none): the second run is stopped by Ctrl-C
            try (JobProcess second = JobProcess.start(workDir, args("svc.resume", "--state-dir", stateDir.toString()))) {
                awaitWhileRunning(second, () -> starRocks.rowCount("bank", "accounts") == 3);
                second.signal("INT");

                assertThat(second.awaitExit(60)).isEqualTo(RunSession.EXIT_STOPPED);
                assertThat(second.out()).contains("restoring " + stateDir.toAbsolutePath())
                        .contains("summary: 1 source transaction read, 1 committed, 1 row committed, ");
            }
        }
        assertThat(starRocks.rows("SELECT id, owner, balance FROM bank.accounts ORDER BY id"))
                .containsExactly("1|o1|100.00", "2|o2|50.00", "3|o3|10.00");
    }

    @Test
    void ctrlCRollsBackTheOpenTransactionAndPrintsTheSummary() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("svc.stop", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "svc.stop");
                JobProcess job = JobProcess.start(workDir, args("svc.stop", "--commit-interval", "5m",
                        "--checkpoint-interval", "5m", "--stop-timeout", "20s"))) {
            writer.sendAll(account("t1", 1, "100.00"));
            // loaded under the open shared transaction, not committed before the 5 minute commit interval
            // the sink begins a transaction only once it has rows to load (docs/sinks.md)
            awaitWhileRunning(job, () -> starRocks.runningTransactions("bank") == 1);

            job.signal("INT");

            assertThat(job.awaitExit(60)).isEqualTo(RunSession.EXIT_STOPPED);
            assertThat(job.out()).contains("SIGINT: stopping")
                    // the transaction read was rolled back, and the row loaded under it does not count
                    .containsPattern("summary: 1 source transaction read, 0 committed, 1 rolled back, 0 rows "
                            + "committed, .*; stopped by signal");
        }
        assertThat(starRocks.runningTransactions("bank")).as("no transaction left open").isZero();
        assertThat(starRocks.rowCount("bank", "accounts")).isZero();
    }

    @Test
    void theFourthTransientOutageOfALongRunIsSurvived() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("svc.outages", 1);
        // one restart allowed between healthy periods of 2 s: without the reset the second outage would end it
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "svc.outages");
                JobProcess job = JobProcess.start(workDir, args("svc.outages", "--restart-attempts", "1",
                        "--restart-delay", "200ms", "--restart-max-delay", "200ms", "--restart-reset-after", "2s",
                        "--sink-option", "sink.max-retries=0"))) {
            for (int outage = 1; outage <= 4; outage++) {
                starRocks.faults().failNextHttp(FaultOp.COMMIT, 1, 503);
                writer.sendAll(account("t" + outage, outage, "1.00"));
                int expected = outage;
                awaitWhileRunning(job, () -> starRocks.rowCount("bank", "accounts") == expected);
                assertThat(starRocks.faults().pending(FaultOp.COMMIT)).as("outage %d hit the job", outage).isZero();
                assertThat(job.isAlive()).isTrue();
                Thread.sleep(3_000); // a healthy period longer than --restart-reset-after
            }
            job.signal("INT");

            assertThat(job.awaitExit(60)).isEqualTo(RunSession.EXIT_STOPPED);
            assertThat(job.out()).contains(" 4 restarts in ");
        }
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2", "3", "4");
    }

    @Test
    void aWrongPasswordAndAMissingDatabaseAreNamedBeforeAnyJobStarts() throws Exception {
        starRocks.start(b -> b.ddl(BANK_DDL).user("root", "secret"));
        KAFKA.createTopic("svc.preflight", 1);

        CliRun refused = CliRun.of(args("svc.preflight", "--password", "wrong"));
        CliRun missing = CliRun.of(args("svc.preflight", "--password", "secret", "--table-map",
                "src.accounts=bank.accounts,src.audit=audit.log"));

        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err().strip()).isEqualTo("lockstep run: target " + starRocks.feUrl()
                + " refuses user 'root' (HTTP 401/403): check --user and --password");
        assertThat(refused.out()).as("no job started").isEmpty();
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err().strip()).isEqualTo("lockstep run: target database 'audit' does not exist at "
                + starRocks.feUrl() + " (check --database or --table-map)");
    }

    @Test
    void aWrongPasswordInTheRunningJobFailsItAtOnceInOneLine() throws Exception {
        starRocks.start(b -> b.ddl(BANK_DDL).user("root", "secret"));
        KAFKA.createTopic("svc.auth", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "svc.auth")) {
            writer.sendAll(account("t1", 1, "100.00"));
        }

        // past the pre-flight check, as when the password changes while the job runs
        CliRun run = CliRun.of(args("svc.auth", "--password", "wrong", "--no-target-check", "--restart-attempts", "3",
                "--restart-delay", "2s"));

        assertThat(run.exitCode()).isEqualTo(1);
        // the first to ask the target is the column check (it reads the table's columns before any row is loaded)
        assertOneLine(run.err(), "Access denied for user 'root'");
        assertThat(run.err()).doesNotContain("wrong");
        assertThat(run.out()).contains(" 0 restarts in ");
    }

    @Test
    void aTableMissingInTheTargetFailsAtOnceInOneLine() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("svc.table", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "svc.table")) {
            writer.sendAll(new DebeziumTxn("t1").insert("ledger", "{\"id\":1}").messages());
        }

        CliRun run = CliRun.of(args("svc.table", "--restart-attempts", "3", "--restart-delay", "2s"));

        assertThat(run.exitCode()).isEqualTo(1);
        assertOneLine(run.err(), "ledger");
        assertThat(run.out()).contains(" 0 restarts in ");
    }

    /** Waits up to 2 minutes for {@code condition}; fails at once with the job's output when the job exits. */
    private static void awaitWhileRunning(JobProcess job, Callable<Boolean> condition) {
        await().atMost(Duration.ofSeconds(120)).until(() -> {
            if (!job.isAlive()) {
                throw new AssertionError("lockstep exited; stdout:\n" + job.out() + "\nstderr:\n" + job.err());
            }
            return condition.call();
        });
    }

    @Test
    void aBoundedBackfillCommitsTheTransactionsBeforeAMalformedEventThenFailsInOneLine() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("svc.backfill", 1);
        long offset;
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "svc.backfill")) {
            writer.sendAll(account("t1", 1, "100.00"));
            writer.sendAll(account("t2", 2, "50.00"));
            offset = writer.send("{\"status\":\"BEGIN\",\"id\":\"t3\""); // cut off
            writer.sendAll(account("t4", 4, "1.00"));
        }

        // neither the commit interval nor a checkpoint comes before the end: only the stop at bad input commits
        CliRun run = CliRun.of(args("svc.backfill", "--bounded", "--commit-interval", "5m",
                "--checkpoint-interval", "5m"));

        assertThat(run.exitCode()).isEqualTo(1);
        assertOneLine(run.err(), "topic 'svc.backfill' partition 0 offset " + offset + ": malformed JSON");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2");
        assertThat(starRocks.runningTransactions("bank")).isZero();
    }

    @Test
    void anAddColumnUpstreamStopsAfterTheTransactionsBeforeItWithTheTableAndTheDdl() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("svc.ddl", 1);
        long offset;
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "svc.ddl")) {
            writer.sendAll(account("t1", 1, "100.00"));
            offset = writer.send("{\"source\":{\"server\":\"oltp\"},\"databaseName\":\"src\","
                    + "\"ddl\":\"ALTER TABLE accounts ADD COLUMN email VARCHAR(128)\",\"tableChanges\":"
                    + "[{\"type\":\"ALTER\",\"id\":\"\\\"src\\\".\\\"accounts\\\"\"}]}");
            writer.sendAll(new DebeziumTxn("t2").insert("accounts",
                    "{\"id\":2,\"owner\":\"o2\",\"balance\":\"1.00\",\"email\":\"o2@example.com\"}").messages());
        }

        CliRun run = CliRun.of(args("svc.ddl", "--bounded", "--commit-interval", "5m", "--checkpoint-interval", "5m"));

        assertThat(run.exitCode()).isEqualTo(1);
        assertOneLine(run.err(), "topic 'svc.ddl' partition 0 offset " + offset + ": schema change of table "
                + "'src.accounts': ALTER TABLE accounts ADD COLUMN email VARCHAR(128); the transactions before it are "
                + "committed, the target was not changed");
        assertThat(run.err()).contains("--schema-changes ignore");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1");
    }

    @Test
    void theSampleFileLoadsWithoutKafka() throws Exception {
        starRocks.startBankSample();

        CliRun run = CliRun.of("run", "--input", Path.of("..", "examples", "bank.jsonl").toString(), "--format",
                "debezium", "--load-url", starRocks.feUrl(), "--database", "bank", "--commit-interval", "300ms");

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("reading debezium from file ")
                .contains("re-sends recognised by source commit position (PostgreSQL commit LSN; MySQL GTID set, "
                        + "else binlog file and position) where the events carry one, else Kafka offset, committed "
                        + "with the data")
                .contains("summary: 8 source transactions read, "
                + "8 committed, 24 rows committed, "); // not the progress table's rows
        assertThat(starRocks.rows("SELECT id, owner, balance FROM bank.accounts ORDER BY id"))
                .containsExactly("1|ada|103.75", "2|bob|56.25");
        assertThat(starRocks.rows("SELECT SUM(amount), COUNT(*) FROM bank.transfers")).containsExactly("95.25|7");
    }

    @Test
    void theSampleFileLoadedIntoKafkaByLockstepKafkaLoadsInABoundedRun() throws Exception {
        starRocks.startBankSample();
        KAFKA.createTopic("svc.bank", 1);
        long messages = JsonLinesLoader.load(KAFKA.bootstrapServers(), "svc.bank",
                JsonLinesInput.read(Path.of("..", "examples", "bank.jsonl")));

        CliRun run = CliRun.of(args("svc.bank", "--bounded"));

        assertThat(messages).isEqualTo(40);
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(starRocks.rows("SELECT id, owner, balance FROM bank.accounts ORDER BY id"))
                .containsExactly("1|ada|103.75", "2|bob|56.25");
    }

    private static Path awaitCheckpointOtherThan(StateDirectory state, Optional<Path> known) {
        return await().atMost(Duration.ofSeconds(60)).until(state::latestCheckpoint,
                latest -> latest.isPresent() && !latest.equals(known)).orElseThrow();
    }

    private String[] args(String topic, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--kafka-bootstrap", KAFKA.bootstrapServers(),
                "--topic", topic, "--format", "debezium", "--load-url", starRocks.feUrl(), "--database", "bank",
                "--group-id", "svc-" + topic));
        List<String> given = List.of(more);
        Map<String, String> defaults = new LinkedHashMap<>();
        // the service behaviour under test is the same in both modes; exactly-once restarts are covered by
        // ProcessKillChaosTest, and theSampleFileLoadsWithoutKafka runs the default mode
        defaults.put("--semantic", "at-least-once");
        defaults.put("--checkpoint-interval", "500ms");
        defaults.put("--commit-interval", "300ms");
        defaults.put("--state-dir", workDir.resolve("state-" + topic).toString());
        defaults.forEach((option, value) -> {
            if (!given.contains(option)) {
                args.addAll(List.of(option, value));
            }
        });
        args.addAll(given);
        return args.toArray(String[]::new);
    }

    private static List<String> account(String txn, int id, String balance) {
        return new DebeziumTxn(txn).insert("accounts",
                "{\"id\":" + id + ",\"owner\":\"o" + id + "\",\"balance\":\"" + balance + "\"}").messages();
    }

    private static void assertOneLine(String err, String expected) {
        assertThat(err).startsWith("lockstep run: job failed: ").contains(expected);
        assertThat(err.strip().lines()).as("one line, no stack trace").hasSize(1);
    }
}
