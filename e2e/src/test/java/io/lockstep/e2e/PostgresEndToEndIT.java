package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.e2e.check.AtomicityReader;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.e2e.workload.TxnLedger;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.source.debezium.DebeziumKafkaPublisher;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.client.program.ClusterClient;
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
            CompletableFuture<String> job = CompletableFuture.supplyAsync(
                    () -> EndToEndChecks.runJob(kafka.bootstrapServers(), topic, target));
            AtomicityReader reader = new AtomicityReader(target, ledger);
            try {
                EndToEndChecks.warmUp(postgres::connect, ledger, target);
                reader.start();
                OltpWorkload workload = new OltpWorkload(postgres::connect, OltpSchema.Dialect.POSTGRES, ledger, 3,
                        100, 3_000, 14L);
                workload.run();
                EndToEndChecks.awaitTablesEqual(postgres::connect, target);
                assertThat(job).as("the job keeps running").isNotDone();
                assertThat(debezium.failure()).isNull();
                System.out.printf("PostgreSQL end to end: %d source transactions, %d rows written, %d Kafka records,"
                        + " %d snapshots, %d violations%n", workload.committed(), workload.rowsWritten(),
                        debezium.published(), reader.snapshots(), reader.violations());
            } finally {
                reader.stop();
                EndToEndChecks.cancelJobs(flink);
            }
            reader.checkOnce();
            assertThat(reader.brokenTransactions()).as("transactions seen partly; first: %s", reader.firstViolation())
                    .isEmpty();
            assertThat(reader.violations()).isZero();
            assertThat(reader.snapshots()).isGreaterThan(10);
        }
    }
}
