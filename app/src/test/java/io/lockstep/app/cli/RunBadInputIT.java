package io.lockstep.app.cli;

import static io.lockstep.app.testing.StarRocksEmulatorExtension.BANK_DDL;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.kafka.EmbeddedKafkaExtension;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import io.lockstep.app.testing.TopicWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run} on input it cannot load, end to end (in-JVM Kafka, the emulator, bounded runs through the
 * command line): a dead letter receives the bad transaction whole while the transactions around it load; a table
 * the target lacks is skipped on its own ({@code --unknown-table skip}) or stops the job in one line naming table and
 * position after committing what came before; the pre-flight check names every problem of the target, one line
 * each, before any job starts.
 */
class RunBadInputIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();
    @TempDir
    Path workDir;
    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();

    @Test
    void aTransactionWithAnUndecodableEventGoesWholeToTheDeadLetterFileAndTheOthersLoad() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("bad.dl.file", 1);
        List<String> bad = new ArrayList<>(new DebeziumTxn("t2").insert("accounts", account(2))
                .insert("accounts", account(22)).messages());
        bad.set(2, "{\"payload\":{\"op\":\"c\",\"after\":"); // the second data event, cut off
        long firstBad;
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "bad.dl.file")) {
            writer.sendAll(insert("t1", 1));
            firstBad = writer.sendAll(bad) - bad.size() + 1;
            writer.sendAll(insert("t3", 3));
        }
        Path letters = workDir.resolve("letters.jsonl");

        CliRun run = CliRun.of(args("bad.dl.file", "--bounded", "--dead-letter", "file:" + letters));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("summary: 2 source transactions read").contains(", 1 dead letter,");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "3");
        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(letters)) {
            records.add(JSON.readTree(line));
        }
        assertWholeTransaction(records, bad, "bad.dl.file", firstBad, "t2");
        assertThat(records.get(0).get("reason").asText()).startsWith("topic 'bad.dl.file' partition 0 offset "
                + (firstBad + 2) + ": malformed JSON");
    }

    @Test
    void aTransactionTouchingATableTheTargetLacksGoesWholeToTheDeadLetterTopic() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("bad.dl.topic", 1);
        KAFKA.createTopic("bad.dl.letters", 1);
        List<String> bad = new DebeziumTxn("t2").insert("accounts", account(2)).insert("ledger", "{\"id\":1}")
                .messages();
        long firstBad;
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "bad.dl.topic")) {
            writer.sendAll(insert("t1", 1));
            firstBad = writer.sendAll(bad) - bad.size() + 1;
            writer.sendAll(insert("t3", 3));
        }

        CliRun run = CliRun.of(args("bad.dl.topic", "--bounded", "--dead-letter", "topic:bad.dl.letters"));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "3");
        List<JsonNode> records = new ArrayList<>();
        for (ConsumerRecord<String, String> record : consume("bad.dl.letters", bad.size())) {
            records.add(JSON.readTree(record.value()));
        }
        assertWholeTransaction(records, bad, "bad.dl.topic", firstBad, "t2");
        assertThat(records.get(0).get("reason").asText()).isEqualTo("topic 'bad.dl.topic' partition 0 offset "
                + (firstBad + 2) + ": target table 'bank.ledger' of source table 'src.ledger' does not exist; "
                + "create it, or skip unknown tables (--unknown-table skip)");
    }

    @Test
    void unknownTableSkipAloneSkipsTablesTheTargetLacks() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("bad.skip", 1);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "bad.skip")) {
            writer.sendAll(new DebeziumTxn("t1").insert("accounts", account(1)).insert("ledger", "{\"id\":1}")
                    .insert("ledger", "{\"id\":2}").messages());
            writer.sendAll(insert("t2", 2));
        }

        CliRun run = CliRun.of(args("bad.skip", "--bounded", "--unknown-table", "skip"));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("summary: 2 source transactions read").contains(", 2 rows of unknown tables "
                + "skipped,");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2");
    }

    @Test
    void aTableTheTargetLacksStopsTheJobInOneLineAfterCommittingTheTransactionsBeforeIt() throws Exception {
        starRocks.startBank();
        KAFKA.createTopic("bad.unknown", 1);
        long offset;
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "bad.unknown")) {
            writer.sendAll(insert("t1", 1));
            List<String> ledger = new DebeziumTxn("t2").insert("accounts", account(2)).insert("ledger", "{\"id\":1}")
                    .messages();
            offset = writer.sendAll(ledger) - 1; // the ledger event, before END
            writer.sendAll(insert("t3", 3));
        }

        // neither the commit interval nor a checkpoint comes before the end: only the stop at bad input commits
        CliRun run = CliRun.of(args("bad.unknown", "--bounded", "--commit-interval", "5m",
                "--checkpoint-interval", "5m"));

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("lockstep run: job failed: ").contains("topic 'bad.unknown' partition 0 "
                + "offset " + offset + ": target table 'bank.ledger' of source table 'src.ledger' does not exist");
        assertThat(run.err().strip().lines()).as("one line, no stack trace").hasSize(1);
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1");
        assertThat(starRocks.runningTransactions("bank")).isZero();
    }

    @Test
    void thePreFlightCheckNamesEveryProblemOfTheTargetInOneLineEach() throws Exception {
        starRocks.start(b -> b.ddl(BANK_DDL).user("root", "secret"));
        KAFKA.createTopic("bad.preflight", 1);

        CliRun refused = CliRun.of(args("bad.preflight", "--password", "wrong"));
        CliRun missing = CliRun.of(args("bad.preflight", "--password", "secret", "--semantic", "exactly-once",
                "--table-map", "src.accounts=bank.accounts,src.ledger=bank.ledger,src.audit=audit.log"));

        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err().strip().lines()).containsExactly("lockstep run: target " + starRocks.feUrl()
                + " refuses user 'root' (HTTP 401/403): check --user and --password");
        assertThat(refused.out()).as("no job started").isEmpty();
        assertThat(missing.exitCode()).isEqualTo(1);
        List<String> lines = missing.err().strip().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("lockstep run: target database 'audit' does not exist at "
                + starRocks.feUrl() + " (check --database or --table-map)");
        assertThat(lines.get(1)).isEqualTo("lockstep run: target table 'bank.ledger' does not exist at "
                + starRocks.feUrl() + " (check --table-map)");
        assertThat(lines.get(2)).startsWith("lockstep run: progress table bank.lockstep_progress does not exist at "
                + starRocks.feUrl()).contains("create it with: CREATE TABLE IF NOT EXISTS bank.lockstep_progress (");
        assertThat(missing.out()).as("no job started").isEmpty();
    }

    /** The records are the transaction's events in order, with their coordinates, values and one reason. */
    private static void assertWholeTransaction(List<JsonNode> records, List<String> sent, String topic, long first,
            String transaction) {
        assertThat(records).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            JsonNode record = records.get(i);
            assertThat(record.get("topic").asText()).isEqualTo(topic);
            assertThat(record.get("partition").asInt()).isZero();
            assertThat(record.get("offset").asLong()).isEqualTo(first + i);
            assertThat(record.get("value").asText()).isEqualTo(sent.get(i));
            assertThat(record.get("transaction").asText()).isEqualTo(transaction);
            assertThat(record.get("event").asInt()).isEqualTo(i + 1);
            assertThat(record.get("events").asInt()).isEqualTo(sent.size());
            assertThat(record.get("reason").asText()).isEqualTo(records.get(0).get("reason").asText());
        }
    }

    private static List<ConsumerRecord<String, String>> consume(String topic, int count) {
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
        }
        return records;
    }

    private String[] args(String topic, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--kafka-bootstrap", KAFKA.bootstrapServers(),
                "--topic", topic, "--format", "debezium", "--load-url", starRocks.feUrl(), "--database", "bank",
                "--group-id", "bad-" + topic, "--restart-attempts", "0"));
        List<String> given = List.of(more);
        Map<String, String> defaults = new LinkedHashMap<>();
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

    private static String account(int id) {
        return "{\"id\":" + id + ",\"owner\":\"o" + id + "\",\"balance\":\"1.00\"}";
    }

    private static List<String> insert(String txn, int id) {
        return new DebeziumTxn(txn).insert("accounts", account(id)).messages();
    }
}
