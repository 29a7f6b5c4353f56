package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run} on values their columns would not take (docs/dead-letter.md, "Bad values"): the job checks
 * the values itself against the column types it reads (through {@code --jdbc-url}, or by default through the HTTP SQL
 * API), so a wrong-type, over-long, out-of-range or unparsable-date value sends its source transaction to the dead
 * letter and every other row loads unchanged, or, without a dead letter, stops the job in one line at the transaction
 * boundary.
 */
class RunBadValuesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DDL = "CREATE DATABASE bank; CREATE TABLE bank.accounts (id BIGINT NOT NULL, "
            + "owner VARCHAR(8), opened DATE, visits INT) PRIMARY KEY (id);";

    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();
    @TempDir
    Path dir;

    /** Seven transactions: 1, 3 and 7 good; 2, 4, 5, 6 each with one bad value. */
    private Path input() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.addAll(txn("t1", "{\"id\":1,\"owner\":\"ann\",\"opened\":\"2026-01-02\",\"visits\":5}"));
        lines.addAll(new DebeziumTxn("t2").insert("accounts", "{\"id\":2,\"owner\":\"bob\",\"visits\":1}")
                .insert("accounts", "{\"id\":3,\"owner\":\"cy\",\"visits\":\"many\"}").messages());
        lines.addAll(txn("t3", "{\"id\":4,\"owner\":\"dee\",\"opened\":\"2026-03-04\",\"visits\":0}"));
        lines.addAll(txn("t4", "{\"id\":5,\"owner\":\"" + "e".repeat(200) + "\",\"visits\":1}"));
        lines.addAll(txn("t5", "{\"id\":6,\"owner\":\"fay\",\"visits\":3000000000}"));
        lines.addAll(txn("t6", "{\"id\":7,\"owner\":\"gus\",\"opened\":\"2026-02-30\"}"));
        lines.addAll(txn("t7", "{\"id\":8,\"owner\":\"hal\",\"opened\":\"2026-12-31\",\"visits\":9}"));
        Path input = dir.resolve("values.jsonl");
        Files.write(input, lines);
        return input;
    }

    private static List<String> txn(String id, String row) {
        return new DebeziumTxn(id).insert("accounts", row).messages();
    }

    private List<String> args(Path input, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--format", "debezium",
                "--load-url", starRocks.feUrl(), "--database", "bank", "--semantic", "at-least-once",
                "--commit-interval", "5m", "--checkpoint-interval", "5m", "--restart-attempts", "0",
                "--state-dir", dir.resolve("state").toString()));
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void badTransactionsGoToTheDeadLetterWithTheirReasonsAndEveryOtherRowLoadsUnchanged() throws Exception {
        starRocks.start(DDL);
        Path letters = dir.resolve("letters.jsonl");

        CliRun run = CliRun.of(args(input(), "--jdbc-url", starRocks.jdbcUrl(), "--dead-letter", "file:" + letters)
                .toArray(String[]::new));

        assertDeadLettered(run, letters);
    }

    @Test
    void withoutJdbcUrlTheTypesComeThroughTheHttpSqlApiAndBadTransactionsGoToTheDeadLetterAlike() throws Exception {
        starRocks.start(DDL);
        Path letters = dir.resolve("letters.jsonl");

        CliRun run = CliRun.of(args(input(), "--dead-letter", "file:" + letters).toArray(String[]::new));

        assertDeadLettered(run, letters);
        assertThat(starRocks.emulator().queryPortLogins()).as("nothing asked the query port").isZero();
    }

    private void assertDeadLettered(CliRun run, Path letters) throws Exception {
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("summary: 3 source transactions read").contains(", 4 dead letters,");
        assertThat(starRocks.rows("SELECT id, owner, opened, visits FROM bank.accounts ORDER BY id"))
                .as("nothing NULLed, nothing of a bad transaction loaded")
                .containsExactly("1|ann|2026-01-02|5", "4|dee|2026-03-04|0", "8|hal|2026-12-31|9");
        List<String> reasons = new ArrayList<>();
        for (String line : Files.readAllLines(letters)) {
            JsonNode letter = JSON.readTree(line);
            if (letter.get("event").asInt() == 1) {
                reasons.add(letter.get("transaction").asText() + ": " + letter.get("reason").asText());
            }
        }
        assertThat(reasons).hasSize(4);
        assertThat(reasons.get(0)).startsWith("t2: topic 'file:values.jsonl' partition 0 offset ")
                .endsWith(": column 'visits' of target table bank.accounts (source table src.accounts): value 'many' "
                        + "is not an integer (column type int(11))");
        assertThat(reasons.get(1)).startsWith("t4: ").contains("column 'owner' ")
                .endsWith("is 200 bytes long in UTF-8, over the column's 8 (column type varchar(8))");
        assertThat(reasons.get(2)).startsWith("t5: ")
                .endsWith("value '3000000000' is out of range (column type int(11))");
        assertThat(reasons.get(3)).startsWith("t6: ")
                .endsWith("value '2026-02-30' is not a valid date (column type date)");
    }

    @Test
    void withoutADeadLetterTheJobStopsInOneLineAtTheTransactionBoundary() throws Exception {
        starRocks.start(DDL);

        CliRun run = CliRun.of(args(input(), "--jdbc-url", starRocks.jdbcUrl()).toArray(String[]::new));

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().strip().lines()).as("one line, no stack trace").hasSize(1);
        assertThat(run.err()).startsWith("lockstep run: job failed: ")
                .contains("topic 'file:values.jsonl' partition 0 offset ")
                .contains("column 'visits' of target table bank.accounts (source table src.accounts)")
                .doesNotContain("many");
        assertThat(starRocks.rows("SELECT id, visits FROM bank.accounts ORDER BY id")).containsExactly("1|5");
    }
}
