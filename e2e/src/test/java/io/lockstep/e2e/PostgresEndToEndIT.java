package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.app.cli.LockstepMain;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.e2e.check.AtomicityReader;
import io.lockstep.e2e.check.TableContents;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpSchema.Table;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.e2e.workload.TxnLedger;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.source.debezium.DebeziumKafkaPublisher;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PostgreSQL → Debezium (embedded engine, pgoutput, transaction metadata, one routed topic, JSON with schemas) →
 * Kafka → {@code lockstep run} → the StarRocks-compatible emulator, with real SQL transactions from concurrent
 * sessions ({@link OltpWorkload}). A reader polls the target every 100 ms and must never see a transaction partly;
 * at the end every target table equals its source table row by row and value by value.
 */
class PostgresEndToEndIT {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static PostgresServer postgres;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresServer.start();
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (kafka != null) {
            kafka.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void everyTransactionArrivesWholeAndTheTablesMatchValueByValue(@InjectClusterClient ClusterClient<?> flink)
            throws Exception {
        postgres.execute(OltpSchema.sourceDdl(OltpSchema.Dialect.POSTGRES));
        String topic = DebeziumConnectors.combinedTopic("pg");
        kafka.createTopic(topic, 1);
        TxnLedger ledger = new TxnLedger();
        try (StarRocksEmulator target = StarRocksEmulator.builder().ddl(OltpSchema.targetDdl()).build().start();
                DebeziumKafkaPublisher debezium = DebeziumKafkaPublisher.start(DebeziumConnectors.postgres(
                        postgres.port(), "pg", "lockstep_it",
                        "public.customers,public.orders,public.order_items,public.documents", true),
                        kafka.bootstrapServers())) {
            CompletableFuture<String> job = CompletableFuture.supplyAsync(() -> runJob(topic, target));
            AtomicityReader reader = new AtomicityReader(target, ledger);
            reader.start();

            try (Connection connection = postgres.connect()) {
                OltpWorkload.warmUp(connection, ledger);
            }
            await().atMost(Duration.ofMinutes(2)).until(() -> target.rowCount(OltpSchema.TARGET_DATABASE, "customers") == 1);
            OltpWorkload workload = new OltpWorkload(postgres::connect, OltpSchema.Dialect.POSTGRES, ledger, 3, 150,
                    3_000, 14L);
            workload.run();

            System.out.printf("workload done: %d transactions, %d rows; Debezium published %d records%n",
                    workload.committed(), workload.rowsWritten(), debezium.published());
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .untilAsserted(() -> {
                assertThat(job).as("the job keeps running").isNotDone();
                assertThat(debezium.failure()).isNull();
                assertTablesEqual(target);
            });
            reader.stop();
            reader.checkOnce();
            System.out.printf("PostgreSQL end to end: %d source transactions, %d rows written, %d Kafka records,"
                    + " %d snapshots, %d violations%n", workload.committed(), workload.rowsWritten(),
                    debezium.published(), reader.snapshots(), reader.violations());
            assertThat(reader.brokenTransactions()).as("transactions seen partly").isEmpty();
            assertThat(reader.violations()).isZero();
            assertThat(reader.snapshots()).isGreaterThan(10);
            cancelJobs(flink);
        }
    }

    private static void assertTablesEqual(StarRocksEmulator target) throws Exception {
        try (Connection connection = postgres.connect()) {
            for (Table table : OltpSchema.TABLES) {
                Map<String, List<String>> source = TableContents.source(connection, table);
                assertThat(TableContents.target(target, table)).as("table %s", table.name())
                        .containsExactlyEntriesOf(source);
            }
        }
    }

    private static String runJob(String topic, StarRocksEmulator target) {
        StringWriter err = new StringWriter();
        var cli = LockstepMain.commandLine();
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute("run", "--kafka-bootstrap", kafka.bootstrapServers(), "--topic", topic,
                "--format", "debezium", "--load-url", target.feUrl(), "--database", OltpSchema.TARGET_DATABASE,
                "--parallelism", "2", "--checkpoint-interval", "1s", "--commit-interval", "300ms",
                "--restart-attempts", "0", "--group-id", "it-" + topic);
        return code + " " + err;
    }

    private static void cancelJobs(ClusterClient<?> flink) throws Exception {
        for (JobStatusMessage job : flink.listJobs().get()) {
            if (!job.getJobState().isGloballyTerminalState()) {
                JobID id = job.getJobId();
                flink.cancel(id).get();
            }
        }
    }
}
