package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.app.cli.LockstepMain;
import io.lockstep.e2e.check.TableContents;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpSchema.Table;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.workload.TxnLedger;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.client.JobStatusMessage;

/**
 * What the database end-to-end tests share: running {@code lockstep run} and the workload, the opening transaction of
 * the crash runs, comparing tables and the transaction log, stopping jobs.
 */
final class EndToEndChecks {

    private EndToEndChecks() {
    }

    /**
     * Runs {@code lockstep run} on the test's MiniCluster (the context environment) until the job ends.
     *
     * @return the exit code and what the command printed on stderr
     */
    static String runJob(String bootstrap, String topic, StarRocksEmulator target) {
        return runJob(bootstrap, target, "it-" + topic, "--topic", topic);
    }

    /**
     * Runs {@code lockstep run} on the test's MiniCluster (the context environment) until the job ends.
     *
     * @param groupId the Kafka consumer group
     * @param inputOptions the options naming what the job reads, e.g. {@code --topic a,b --transaction-topic t}
     * @return the exit code and what the command printed on stderr
     */
    static String runJob(String bootstrap, StarRocksEmulator target, String groupId, String... inputOptions) {
        return runJobInto(bootstrap, target, OltpSchema.TARGET_DATABASE, groupId, inputOptions);
    }

    /**
     * As {@link #runJob(String, StarRocksEmulator, String, String...)}, into another target database.
     *
     * @param database the target database ({@code --database})
     * @param options the options naming what the job reads, and any further ones (e.g. {@code --create-tables})
     * @return the exit code and what the command printed on stderr
     */
    static String runJobInto(String bootstrap, StarRocksEmulator target, String database, String groupId,
            String... options) {
        StringWriter err = new StringWriter();
        var cli = LockstepMain.commandLine();
        cli.setErr(new PrintWriter(err, true));
        List<String> args = new ArrayList<>(List.of("run", "--kafka-bootstrap", bootstrap));
        args.addAll(List.of(options));
        args.addAll(List.of("--format", "debezium", "--load-url", target.feUrl(), "--database", database,
                "--parallelism", "2", "--checkpoint-interval", "1s", "--commit-interval",
                "300ms", "--restart-attempts", "0", "--group-id", groupId));
        int code = cli.execute(args.toArray(String[]::new));
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

    /**
     * Waits (up to 60 s) until the MiniCluster runs a job (every task deployed and running), or {@code job} ended.
     *
     * @param job the {@link #runJob} future of the job waited for
     * @throws AssertionError with the job's output when it ended first, or after 60 s
     */
    static void awaitJobRunning(ClusterClient<?> flink, CompletableFuture<String> job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (flink.listJobs().get().stream().noneMatch(j -> j.getJobState().name().equals("RUNNING"))) {
            if (job.isDone()) {
                throw new AssertionError("the job ended before it ran: " + job.join());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited 60 s for the job to run");
            }
            Thread.sleep(50);
        }
    }

    /** Cancels every job of the MiniCluster that has not ended. */
    static void cancelJobs(ClusterClient<?> flink) throws Exception {
        for (JobStatusMessage job : flink.listJobs().get()) {
            if (!job.getJobState().isGloballyTerminalState()) {
                flink.cancel(job.getJobId()).get();
            }
        }
    }

    /** @return the workload running on a thread of the common pool; the future fails with its failure */
    static CompletableFuture<Void> runAsync(OltpWorkload workload) {
        return CompletableFuture.runAsync(() -> {
            try {
                workload.run();
            } catch (Exception e) {
                throw new IllegalStateException("the workload failed", e);
            }
        });
    }

    /**
     * The opening transaction of the crash runs, session 0: {@code rows} customers and its {@link OltpSchema#TXN_LOG}
     * row ({@code rows + 3} change events with BEGIN and END), more than one engine batch when {@code rows} exceeds
     * {@code max.batch.size}, so that the engine's first offset flush, made with its first batch, lands inside it.
     */
    static void opening(PostgresServer postgres, TxnLedger ledger, int rows) throws Exception {
        long txnId = TxnLedger.txnId(0, 1);
        List<String> keys = new ArrayList<>();
        try (Connection c = postgres.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO customers (id, name, vip, balance,"
                    + " created_at, updated_at, txn_id) VALUES (?, ?, FALSE, 0, ?, ?, ?)")) {
                LocalDateTime at = LocalDateTime.of(2024, 1, 1, 0, 0);
                for (int id = 1; id <= rows; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "opening " + id);
                    insert.setObject(3, at);
                    insert.setObject(4, at);
                    insert.setLong(5, txnId);
                    insert.addBatch();
                    keys.add("customers/" + id);
                }
                insert.executeBatch();
            }
            OltpWorkload.logTransaction(c, txnId, keys.size(), 0);
            ledger.record(txnId, keys, List.of());
            c.commit();
        }
    }

    /**
     * Waits (up to 60 s) until every PRIMARY KEY table equals its source table and the log holds {@code transactions}
     * distinct transactions; stops waiting as soon as the job ended.
     *
     * @return {@code null} when the target holds everything, else why not (the job's output when it ended)
     */
    static String awaitLoaded(CompletableFuture<String> job, OltpWorkload.ConnectionFactory source,
            StarRocksEmulator target, long transactions) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String difference = "";
        while (System.nanoTime() < deadline) {
            if (job.isDone()) {
                return "the job ended: " + job.join();
            }
            difference = difference(source, target, transactions);
            if (difference.isEmpty()) {
                return null;
            }
            Thread.sleep(300);
        }
        return "waited 60 s for the target to hold every source transaction: " + difference;
    }

    /** @return the distinct transactions the target's {@link OltpSchema#TXN_LOG} holds */
    static long loggedTransactions(StarRocksEmulator target) {
        return ((Number) target.query("SELECT COUNT(DISTINCT txn_id) FROM " + OltpSchema.TARGET_DATABASE
                + ".txn_log").rows().get(0).get(0)).longValue();
    }

    /** @return what still differs between source and target (empty when nothing does) */
    private static String difference(OltpWorkload.ConnectionFactory source, StarRocksEmulator target,
            long transactions) throws Exception {
        long logged = loggedTransactions(target);
        if (logged != transactions) {
            return "the log holds " + logged + " of " + transactions + " transactions";
        }
        try (Connection connection = source.open()) {
            for (Table table : OltpSchema.TABLES) {
                if (!TableContents.target(target, table).equals(TableContents.source(connection, table))) {
                    return "table " + table.name() + " differs";
                }
            }
        }
        return "";
    }

    /** @return the target log's rows as text, sorted (duplicates kept) */
    static List<String> targetLog(StarRocksEmulator target) {
        return target.query("SELECT " + OltpSchema.TXN_LOG.columnList() + " FROM " + OltpSchema.TARGET_DATABASE
                + ".txn_log").rows().stream().map(row -> row.stream().map(String::valueOf)
                        .collect(Collectors.joining(","))).sorted().toList();
    }

    /** @return the source log's rows as text, sorted */
    static List<String> sourceLog(Connection source) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement statement = source.createStatement(); ResultSet rs = statement.executeQuery(
                "SELECT " + OltpSchema.TXN_LOG.columnList() + " FROM txn_log")) {
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= OltpSchema.TXN_LOG.columns().size(); i++) {
                    values.add(String.valueOf(rs.getLong(i)));
                }
                rows.add(String.join(",", values));
            }
        }
        rows.sort(null);
        return rows;
    }
}
