package io.lockstep.app.cli;

import static io.lockstep.app.testing.StarRocksEmulatorExtension.progressTableDdl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.app.kafka.EmbeddedKafkaExtension;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.app.testing.Samples;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import io.lockstep.app.testing.TopicWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run} end to end on a local MiniCluster: messages in the in-JVM Kafka broker (one per class),
 * the job started through the command line, rows in the in-JVM StarRocks-compatible server (one per test).
 * Bounded runs check final tables; unbounded runs check that bad input fails the job with a one-line error
 * naming topic, partition and offset, after which everything committed before it is still there.
 */
class RunCommandIT {
    private static final String BANK_DDL = StarRocksEmulatorExtension.BANK_DDL
            + "CREATE TABLE bank.transfers (id BIGINT NOT NULL, from_id BIGINT, to_id BIGINT, amount DECIMAL(12, 2))"
            + " PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;" + progressTableDdl("bank");
    @TempDir
    static Path stateDirs;
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();
    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();

    @Test
    void maxwellSampleFileLoadsTheFinalProductTable() throws Exception {
        starRocks.start("CREATE DATABASE inventory; CREATE TABLE inventory.product ("
                + "id INT NOT NULL, name VARCHAR(255), description VARCHAR(512), weight DECIMAL(10, 3))"
                + " PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;" + progressTableDdl("inventory"));
        KAFKA.createTopic("maxwell.test", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "maxwell.test")) {
            writer.sendAll(Samples.lines(Samples.MAXWELL)); // apache/flink's maxwell-data.txt
        }

        CliRun run = CliRun.of(runArgs("maxwell.test", "maxwell", "inventory", "--bounded"));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        // The sample: 9 inserts (xid 7125), updates of 106, 107, 110, 111, 101+102, inserts of 110 and 111, and
        // deletes of 111 and 102+103. What is left, as the sample's last state:
        assertThat(starRocks.rows("SELECT id, name, description, weight FROM inventory.product ORDER BY id")).containsExactly(
                "101|scooter|Small 2-wheel scooter|5.170",
                "104|hammer|12oz carpenter's hammer|0.750",
                "105|hammer|14oz carpenter's hammer|0.875",
                "106|hammer|18oz carpenter hammer|1.000",
                "107|rocks|box of assorted rocks|5.100",
                "108|jacket|water resistent black wind breaker|0.100",
                "109|spare tire|24 inch spare tire|22.200",
                "110|jacket|new water resistent white wind breaker|0.500");
    }

    @Test
    void debeziumTransactionsWithDeletesAndAPrimaryKeyChangeGiveTheFinalState() throws Exception {
        starRocks.start(BANK_DDL);
        KAFKA.createTopic("debezium.bank", 1);
        List<String> messages = new ArrayList<>();
        messages.addAll(new DebeziumTxn("t1").insert("accounts", "{\"id\":1,\"owner\":\"ada\",\"balance\":\"100.00\"}")
                .insert("accounts", "{\"id\":2,\"owner\":\"bob\",\"balance\":\"50.00\"}")
                .insert("accounts", "{\"id\":3,\"owner\":\"cy\",\"balance\":\"10.00\"}").messages());
        messages.addAll(new DebeziumTxn("t2")
                .update("accounts", "{\"id\":1,\"owner\":\"ada\",\"balance\":\"100.00\"}",
                        "{\"id\":1,\"owner\":\"ada\",\"balance\":\"70.00\"}")
                .update("accounts", "{\"id\":2,\"owner\":\"bob\",\"balance\":\"50.00\"}",
                        "{\"id\":2,\"owner\":\"bob\",\"balance\":\"80.00\"}")
                .insert("transfers", "{\"id\":1,\"from_id\":1,\"to_id\":2,\"amount\":\"30.00\"}").messages());
        messages.addAll(new DebeziumTxn("t3").delete("accounts", "{\"id\":3,\"owner\":\"cy\",\"balance\":\"10.00\"}")
                .insert("transfers", "{\"id\":2,\"from_id\":3,\"to_id\":1,\"amount\":\"0.00\"}")
                .delete("transfers", "{\"id\":2,\"from_id\":3,\"to_id\":1,\"amount\":\"0.00\"}").messages());
        // The key changes from 2 to 20 in one update event (no record key: --key-columns names the key).
        messages.addAll(new DebeziumTxn("t4").update("accounts", "{\"id\":2,\"owner\":\"bob\",\"balance\":\"80.00\"}",
                "{\"id\":20,\"owner\":\"bob\",\"balance\":\"80.00\"}").messages());
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "debezium.bank")) {
            writer.sendAll(messages);
        }

        CliRun run = CliRun.of(runArgs("debezium.bank", "debezium", "bank", "--bounded",
                "--key-columns", "src.accounts=id"));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(starRocks.rows("SELECT id, owner, balance FROM bank.accounts ORDER BY id"))
                .containsExactly("1|ada|70.00", "20|bob|80.00");
        assertThat(starRocks.rows("SELECT id, from_id, to_id, amount FROM bank.transfers ORDER BY id"))
                .containsExactly("1|1|2|30.00");
    }

    @Test
    void anUnknownTopicIsNamedBeforeAnyJobStarts() throws Exception {
        starRocks.start(BANK_DDL);
        CliRun run = CliRun.of(runArgs("no.such.topic", "debezium", "bank", "--kafka-check-timeout", "20s"));

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().strip()).isEqualTo("lockstep run: topic 'no.such.topic' does not exist at "
                + KAFKA.bootstrapServers() + " (check --topic; Lockstep does not create it)");
    }

    @Test
    void malformedEventFailsNamingTheOffsetAndKeepsWhatWasCommitted() throws Exception {
        starRocks.start(BANK_DDL);
        KAFKA.createTopic("bad.json", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "bad.json")) {
            writer.sendAll(firstTransaction());
            CompletableFuture<CliRun> job = startUnbounded(runArgs("bad.json", "debezium", "bank"));
            awaitFirstTransactionVisible();
            long offset = writer.send("{\"status\":\"BEGIN\",\"id\":\"t2\""); // cut off
            CliRun run = job.get(120, TimeUnit.SECONDS);

            assertThat(run.exitCode()).isEqualTo(1);
            assertOneLine(run.err(), "topic 'bad.json' partition 0 offset " + offset + ": malformed JSON");
        }
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2");
    }

    @Test
    void unknownTableFailsNamingTheOffsetAndKeepsWhatWasCommitted() throws Exception {
        starRocks.start(BANK_DDL);
        KAFKA.createTopic("bad.table", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "bad.table")) {
            writer.sendAll(firstTransaction());
            CompletableFuture<CliRun> job = startUnbounded(runArgs("bad.table", "debezium", "bank",
                    "--table-map", "src.accounts=bank.accounts,src.transfers=bank.transfers"));
            awaitFirstTransactionVisible();
            List<String> audit = new DebeziumTxn("t2").insert("audit", "{\"id\":1}").messages();
            long offset = writer.sendAll(audit) - 1; // the data event, before END
            CliRun run = job.get(120, TimeUnit.SECONDS);

            assertThat(run.exitCode()).isEqualTo(1);
            assertOneLine(run.err(), "topic 'bad.table' partition 0 offset " + offset
                    + ": source table 'src.audit' is not in the table map");
        }
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2");
    }

    @Test
    void transactionWithoutEndFailsNamingBothPositionsAndKeepsWhatWasCommitted() throws Exception {
        starRocks.start(BANK_DDL);
        KAFKA.createTopic("bad.end", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "bad.end")) {
            writer.sendAll(firstTransaction());
            CompletableFuture<CliRun> job = startUnbounded(runArgs("bad.end", "debezium", "bank"));
            awaitFirstTransactionVisible();
            List<String> unfinished = new DebeziumTxn("t2").insert("accounts", "{\"id\":9,\"owner\":\"eve\"}").messages();
            long begin = writer.send(unfinished.get(0));
            writer.send(unfinished.get(1)); // its END never comes
            long nextBegin = writer.send(DebeziumMessages.beginJson("t3"));
            CliRun run = job.get(120, TimeUnit.SECONDS);

            assertThat(run.exitCode()).isEqualTo(1);
            assertOneLine(run.err(), "(started at topic 'bad.end' partition 0 offset " + begin + ") has no END: "
                    + "BEGIN of transaction 't3' arrived at topic 'bad.end' partition 0 offset " + nextBegin);
        }
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2");
    }

    /**
     * A topic deleted and created again under the same name starts its offsets over: the positions committed for
     * the old topic must not be resumed on it (they would skip the new topic's first messages), so the command
     * refuses to start, naming the topic, the job and both topic ids.
     */
    @Test
    void aRecreatedTopicIsRefusedNamingTheTopicTheJobAndBothTopicIds() throws Exception {
        starRocks.start(BANK_DDL);
        KAFKA.createTopic("recreated", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "recreated")) {
            writer.sendAll(firstTransaction());
        }
        CliRun first = CliRun.of(runArgs("recreated", "debezium", "bank", "--bounded"));
        assertThat(first.exitCode()).as(first.err()).isZero();
        String oldId = topicId("recreated");

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()))) {
            admin.deleteTopics(List.of("recreated")).all().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
                KAFKA.createTopic("recreated", 1);
                return true;
            });
        }
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "recreated")) {
            writer.sendAll(firstTransaction());
        }
        String newId = topicId("recreated");
        CliRun second = CliRun.of(runArgs("recreated", "debezium", "bank", "--bounded"));

        assertThat(oldId).isNotEqualTo(newId);
        assertThat(second.exitCode()).isEqualTo(1);
        assertThat(second.err().strip()).startsWith("lockstep run: topic 'recreated' changed identity: job "
                + "'it-recreated-recreated' committed positions for topic id " + oldId + " (partitions 0@3) but the "
                + "topic now has id " + newId);
        assertThat(second.err().strip().lines()).as("one line").hasSize(1);
    }

    /**
     * A backfill run twice on one state directory: the second run must not restore the first one's final checkpoint
     * (its Kafka split would keep the old end and never stop); it starts at the committed positions and ends.
     */
    @Test
    void aSecondBoundedRunStartsAtTheCommittedPositionsAndEnds() throws Exception {
        starRocks.start(BANK_DDL);
        KAFKA.createTopic("backfill.again", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "backfill.again")) {
            writer.sendAll(firstTransaction());
        }
        CliRun first = CliRun.of(runArgs("backfill.again", "debezium", "bank", "--bounded"));
        assertThat(first.exitCode()).as(first.err()).isZero();
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "backfill.again")) {
            writer.sendAll(new DebeziumTxn("t2").insert("accounts",
                    "{\"id\":3,\"owner\":\"cy\",\"balance\":\"7.00\"}").messages());
        }

        CliRun second = CliRun.of(runArgs("backfill.again", "debezium", "bank", "--bounded"));

        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.out()).contains("no state kept (--bounded)")
                .contains("summary: 1 source transaction read, 1 committed, 1 row committed, ");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2", "3");
    }

    private static String topicId(String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()))) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId()
                    .toString();
        }
    }

    private String[] runArgs(String topic, String format, String database, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--kafka-bootstrap", KAFKA.bootstrapServers(),
                "--topic", topic, "--format", format, "--load-url", starRocks.feUrl(), "--database", database,
                "--parallelism", "1", "--checkpoint-interval", "1s", "--commit-interval", "300ms",
                "--restart-attempts", "0", "--group-id", "it-" + topic,
                "--state-dir", stateDirs.resolve(topic).toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static List<String> firstTransaction() {
        return new DebeziumTxn("t1").insert("accounts", "{\"id\":1,\"owner\":\"ada\",\"balance\":\"100.00\"}")
                .insert("accounts", "{\"id\":2,\"owner\":\"bob\",\"balance\":\"50.00\"}").messages();
    }

    private static CompletableFuture<CliRun> startUnbounded(String[] args) {
        CompletableFuture<CliRun> job = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                job.complete(CliRun.of(args));
            } catch (Throwable t) {
                job.completeExceptionally(t);
            }
        }, "lockstep-run-it");
        thread.setDaemon(true);
        thread.start();
        return job;
    }

    private void awaitFirstTransactionVisible() {
        await().atMost(Duration.ofSeconds(90)).until(() -> starRocks.rowCount("bank", "accounts") == 2);
    }

    private static void assertOneLine(String err, String expected) {
        assertThat(err).startsWith("lockstep run: job failed: ").contains(expected);
        assertThat(err.strip().lines()).as("one line, no stack trace").hasSize(1);
    }
}
