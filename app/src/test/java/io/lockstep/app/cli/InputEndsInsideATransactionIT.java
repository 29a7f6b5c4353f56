package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.kafka.EmbeddedKafkaExtension;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import io.lockstep.app.testing.TopicWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded input whose last source transaction has a BEGIN and rows but no END. {@code lockstep run --input}: the
 * transactions before it load, and the job fails in one line naming it, instead of ending as if it were complete.
 * Kafka {@code --bounded}: the run ends well without it, and the next run loads it once its END is written.
 */
class InputEndsInsideATransactionIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();
    @TempDir
    Path workDir;

    @Test
    void aFileEndingInsideATransactionFailsInOneLineAfterLoadingTheOnesBeforeIt() throws Exception {
        starRocks.startBankSample();
        List<String> lines = Files.readAllLines(Path.of("..", "examples", "bank.jsonl"));
        assertThat(lines.get(lines.size() - 1)).contains("\"status\":\"END\"").contains("\"id\":\"tx-8\"");
        Path cut = workDir.resolve("cut.jsonl");
        Files.write(cut, lines.subList(0, lines.size() - 1)); // tx-8 without its END

        CliRun run = CliRun.of("run", "--input", cut.toString(), "--format", "debezium", "--load-url",
                starRocks.feUrl(), "--database", "bank", "--commit-interval", "300ms");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("lockstep run: job failed: ").contains("transaction 'tx-8' on source "
                + "partition 0 (started at topic 'file:cut.jsonl' partition 0 offset 36, 3 events received) has no "
                + "END at the end of the input");
        assertThat(run.err().strip().lines()).as("one line, no stack trace").hasSize(1);
        // tx-1 .. tx-7 loaded; tx-8 (ada +24.50, cy deleted) did not
        assertThat(starRocks.rows("SELECT id, balance FROM bank.accounts ORDER BY id"))
                .containsExactly("1|79.25", "2|56.25", "3|24.50");
        assertThat(starRocks.runningTransactions("bank")).isZero();
    }

    @Test
    void aBoundedKafkaRunEndingInsideATransactionLeavesItToTheNextRun() throws Exception {
        starRocks.start(StarRocksEmulatorExtension.BANK_DDL + StarRocksEmulatorExtension.progressTableDdl("bank"));
        KAFKA.createTopic("eoi.bounded", 1);
        List<String> open = new DebeziumTxn("t2").insert("accounts", account(2)).messages();
        String[] args = {"run", "--kafka-bootstrap", KAFKA.bootstrapServers(), "--topic", "eoi.bounded",
            "--format", "debezium", "--load-url", starRocks.feUrl(), "--database", "bank", "--group-id",
            "eoi-bounded", "--bounded", "--commit-interval", "300ms", "--restart-attempts", "0"};
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "eoi.bounded")) {
            writer.sendAll(new DebeziumTxn("t1").insert("accounts", account(1)).messages());
            writer.sendAll(open.subList(0, open.size() - 1)); // t2 without its END, not written yet

            CliRun first = CliRun.of(args);

            assertThat(first.exitCode()).as(first.err()).isZero();
            assertThat(first.out()).contains("summary: 1 source transaction read, 1 committed");
            assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1");
            writer.sendAll(open.subList(open.size() - 1, open.size()));
        }

        CliRun next = CliRun.of(args);

        assertThat(next.exitCode()).as(next.err()).isZero();
        assertThat(next.out()).contains("summary: 1 source transaction read, 1 committed");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1", "2");
    }

    private static String account(int id) {
        return "{\"id\":" + id + ",\"owner\":\"o" + id + "\",\"balance\":\"1.00\"}";
    }
}
