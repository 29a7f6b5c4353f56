package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.testing.StarRocksEmulatorExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code lockstep run --input} on a file it already loaded (the default exactly-once mode, the job id from the file
 * name): nothing loads twice, and the summary says how many source transactions were skipped as committed.
 */
class InputAgainIT {

    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();

    @Test
    void aFileLoadedAgainSaysItsTransactionsWereSkippedAsCommitted() throws Exception {
        starRocks.startBankSample();
        String[] args = {"run", "--input", Path.of("..", "examples", "bank.jsonl").toString(), "--format",
            "debezium", "--load-url", starRocks.feUrl(), "--database", "bank", "--commit-interval", "300ms"};

        CliRun first = CliRun.of(args);
        CliRun again = CliRun.of(args);

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains("summary: 8 source transactions read, 8 committed")
                .doesNotContain("skipped");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).contains("summary: 8 source transactions read, 8 skipped as committed by an "
                + "earlier run, 0 committed, 0 rows committed");
        assertThat(starRocks.rows("SELECT id, balance FROM bank.accounts ORDER BY id"))
                .containsExactly("1|103.75", "2|56.25");
    }
}
