package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.app.cli.LockstepMain;
import io.lockstep.e2e.check.TableContents;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpSchema.Table;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.emulator.StarRocksEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.time.Duration;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.client.JobStatusMessage;

/** What the database end-to-end tests share: running {@code lockstep run}, comparing tables, stopping jobs. */
final class EndToEndChecks {

    private EndToEndChecks() {
    }

    /**
     * Runs {@code lockstep run} on the test's MiniCluster (the context environment) until the job ends.
     *
     * @return the exit code and what the command printed on stderr
     */
    static String runJob(String bootstrap, String topic, StarRocksEmulator target) {
        StringWriter err = new StringWriter();
        var cli = LockstepMain.commandLine();
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute("run", "--kafka-bootstrap", bootstrap, "--topic", topic,
                "--format", "debezium", "--load-url", target.feUrl(), "--database", OltpSchema.TARGET_DATABASE,
                "--parallelism", "2", "--checkpoint-interval", "1s", "--commit-interval", "300ms",
                "--restart-attempts", "0", "--group-id", "it-" + topic);
        return code + " " + err;
    }

    /** Commits the warm-up transaction and waits until the target shows it (the connector is streaming). */
    static void warmUp(OltpWorkload.ConnectionFactory source, io.lockstep.e2e.workload.TxnLedger ledger,
            StarRocksEmulator target) throws Exception {
        try (Connection connection = source.open()) {
            OltpWorkload.warmUp(connection, ledger);
        }
        await().atMost(Duration.ofMinutes(2))
                .until(() -> target.rowCount(OltpSchema.TARGET_DATABASE, "customers") == 1);
    }

    /** Waits (up to 2 minutes) until every target table equals its source table value by value. */
    static void awaitTablesEqual(OltpWorkload.ConnectionFactory source, StarRocksEmulator target) {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .untilAsserted(() -> {
                    try (Connection connection = source.open()) {
                        for (Table table : OltpSchema.TABLES) {
                            assertThat(TableContents.target(target, table)).as("table %s", table.name())
                                    .containsExactlyEntriesOf(TableContents.source(connection, table));
                        }
                    }
                });
    }

    /** Cancels every job of the MiniCluster that has not ended. */
    static void cancelJobs(ClusterClient<?> flink) throws Exception {
        for (JobStatusMessage job : flink.listJobs().get()) {
            if (!job.getJobState().isGloballyTerminalState()) {
                flink.cancel(job.getJobId()).get();
            }
        }
    }
}
