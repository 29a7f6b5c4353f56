package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.StarRocksEmulator;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code lockstep run --input} on a file it already loaded (the default exactly-once mode, the job id from the file
 * name): nothing loads twice, and the summary says how many source transactions were skipped as committed.
 */
class InputAgainIT {

    @Test
    void aFileLoadedAgainSaysItsTransactionsWereSkippedAsCommitted() throws Exception {
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder()
                .ddlFile(Path.of("..", "examples", "bank.sql")).build().start()) {
            String[] args = {"run", "--input", Path.of("..", "examples", "bank.jsonl").toString(), "--format",
                "debezium", "--load-url", starRocks.feUrl(), "--database", "bank", "--commit-interval", "300ms"};

            CliRun first = CliRun.of(args);
            CliRun again = CliRun.of(args);

            assertThat(first.exitCode()).as(first.err()).isZero();
            assertThat(first.out()).contains("summary: 8 source transactions read, 8 committed")
                    .doesNotContain("skipped");
            assertThat(again.exitCode()).as(again.err()).isZero();
            assertThat(again.out()).contains("summary: 8 source transactions read, 8 skipped as committed by an "
                    + "earlier run, 0 committed");
            assertThat(starRocks.query("SELECT id, balance FROM bank.accounts ORDER BY id").rows().stream()
                    .map(row -> row.stream().map(String::valueOf).collect(Collectors.joining("|"))).toList())
                    .containsExactly("1|103.75", "2|56.25");
        }
    }
}
