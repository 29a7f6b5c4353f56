package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.emulator.DorisEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run --target doris} without {@code --jdbc-url} (docs/dead-letter.md, "Bad values"): the columns and
 * their types are read through the FE's {@code GET /api/{db}/{table}/_schema}, so a wrong-type, out-of-range or
 * unparsable-date value sends its source transaction to the dead letter and every other row loads unchanged.
 */
class RunDorisColumnCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void dorisWithoutAJdbcUrlChecksValuesThroughTheSchemaActionAndDivertsBadTransactions() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().ddl("CREATE DATABASE bank; CREATE TABLE bank.accounts "
                + "(id BIGINT NOT NULL, owner VARCHAR(8), opened DATE, visits INT) UNIQUE KEY (id);").build().start()) {
            List<String> lines = new ArrayList<>();
            lines.addAll(txn("t1", "{\"id\":1,\"owner\":\"ann\",\"opened\":\"2026-01-02\",\"visits\":5}"));
            lines.addAll(txn("t2", "{\"id\":2,\"owner\":\"bob\",\"visits\":\"many\"}"));
            lines.addAll(txn("t3", "{\"id\":3,\"owner\":\"fay\",\"visits\":3000000000}"));
            lines.addAll(txn("t4", "{\"id\":4,\"owner\":\"gus\",\"opened\":\"2026-02-30\"}"));
            lines.addAll(txn("t5", "{\"id\":5,\"owner\":\"hal\",\"opened\":\"2026-12-31\",\"visits\":9}"));
            Path input = dir.resolve("values.jsonl");
            Files.write(input, lines);
            Path letters = dir.resolve("letters.jsonl");

            CliRun run = CliRun.of("run", "--input", input.toString(), "--format", "debezium", "--target", "doris",
                    "--load-url", doris.feUrl(), "--database", "bank",
                    "--commit-interval", "5m", "--checkpoint-interval", "5m", "--restart-attempts", "0",
                    "--state-dir", dir.resolve("state").toString(), "--dead-letter", "file:" + letters);

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains(", 3 dead letters,");
            assertThat(doris.query("SELECT id, owner, opened, visits FROM bank.accounts ORDER BY id").rows().stream()
                    .map(row -> row.stream().map(String::valueOf).collect(Collectors.joining("|"))))
                    .containsExactly("1|ann|2026-01-02|5", "5|hal|2026-12-31|9");
            List<String> reasons = new ArrayList<>();
            for (String line : Files.readAllLines(letters)) {
                JsonNode letter = JSON.readTree(line);
                if (letter.get("event").asInt() != 1) {
                    continue; // the transaction's other events carry the same reason
                }
                reasons.add(letter.get("transaction").asText() + ": " + letter.get("reason").asText());
            }
            assertThat(reasons).hasSize(3);
            assertThat(reasons.get(0)).startsWith("t2: ").endsWith("value 'many' is not an integer (column type int)");
            assertThat(reasons.get(1)).startsWith("t3: ").endsWith("is out of range (column type int)");
            assertThat(reasons.get(2)).startsWith("t4: ").endsWith("is not a valid date (column type date)");
            assertThat(doris.queryPortLogins()).as("nothing asked the query port").isZero();
        }
    }

    private static List<String> txn(String id, String row) {
        return new DebeziumTxn(id).insert("accounts", row).messages();
    }
}
