package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.testing.StarRocksEmulatorExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run --input} on a file whose last source transaction has a BEGIN and rows but no END: the
 * transactions before it load, and the job fails in one line naming it, instead of ending as if it were complete.
 */
class InputEndsInsideATransactionIT {

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
}
