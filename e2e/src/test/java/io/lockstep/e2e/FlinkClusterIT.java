package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.e2e.check.AtomicityReader;
import io.lockstep.e2e.check.TableContents;
import io.lockstep.e2e.cluster.FlinkProcessCluster;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpSchema.Table;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.e2e.workload.TxnLedger;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.source.debezium.DebeziumKafkaPublisher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The job on a real Flink cluster: a JobManager and two TaskManagers as separate JVM processes
 * ({@link FlinkProcessCluster}), {@code app/target/lockstep.jar} submitted with {@code flink run -d} (Flink's
 * CliFrontend), checkpoints on the local file system, PostgreSQL transactions through Debezium and Kafka. Mid-stream
 * one TaskManager is killed with SIGKILL and a new one started; the job restarts from its last checkpoint. Then the
 * job is stopped with a savepoint, the cluster shut down, and the job started from the savepoint on a fresh cluster
 * while a second workload runs. A reader polls the target every 100 ms throughout: no transaction may ever be partly
 * visible, and the final tables must equal the source tables value by value.
 */
class FlinkClusterIT {

    private static final Path JOB_JAR = Path.of("..", "app", "target", "lockstep.jar").toAbsolutePath().normalize();

    @Test
    void aKilledTaskManagerAndASavepointRestartKeepEveryTransactionWhole() throws Exception {
        Path dir = Path.of("target", "flink-cluster-it").toAbsolutePath(); // kept after the run: the processes' logs
        deleteRecursively(dir);
        assertThat(JOB_JAR).as("the job jar (built by the app module's package phase: mvn verify)").exists();
        Path checkpoints = Files.createDirectories(dir.resolve("checkpoints"));
        Path savepoints = Files.createDirectories(dir.resolve("savepoints"));
        TxnLedger ledger = new TxnLedger();
        String topic = DebeziumConnectors.combinedTopic("pgc");
        try (PostgresServer postgres = PostgresServer.start();
                EmbeddedKafka kafka = EmbeddedKafka.start();
                StarRocksEmulator target = StarRocksEmulator.builder().ddl(OltpSchema.targetDdl()).build().start()) {
            postgres.execute(OltpSchema.sourceDdl(OltpSchema.Dialect.POSTGRES));
            kafka.createTopic(topic, 1);
            List<String> job = List.of("-c", "io.lockstep.app.cli.LockstepMain", JOB_JAR.toString(), "run",
                    "--kafka-bootstrap", kafka.bootstrapServers(), "--topic", topic, "--format", "debezium",
                    "--load-url", target.feUrl(), "--database", OltpSchema.TARGET_DATABASE, "--parallelism", "2",
                    "--checkpoint-interval", "1s", "--commit-interval", "5m", "--restart-attempts", "10",
                    "--restart-delay", "1s", "--group-id", "cluster-it");
            AtomicityReader reader = new AtomicityReader(target, ledger);
            String savepoint;
            try (DebeziumKafkaPublisher debezium = DebeziumKafkaPublisher.start(DebeziumConnectors.postgres(
                    postgres.port(), "pgc", "lockstep_cluster",
                    "public.customers,public.orders,public.order_items,public.documents", true),
                    kafka.bootstrapServers())) {
                try (FlinkProcessCluster first = FlinkProcessCluster.start(dir.resolve("cluster-1"), checkpoints,
                        savepoints, 2)) {
                    String jobId = submit(first, job, null);
                    try (Connection connection = postgres.connect()) {
                        OltpWorkload.warmUp(connection, ledger);
                    }
                    await().atMost(Duration.ofMinutes(2))
                            .until(() -> target.rowCount(OltpSchema.TARGET_DATABASE, "customers") == 1);
                    reader.start();

                    OltpWorkload phase1 = new OltpWorkload(postgres::connect, OltpSchema.Dialect.POSTGRES, ledger, 3,
                            90, 1_000, 21L).sessions(1, 50);
                    CompletableFuture<Void> running = CompletableFuture.runAsync(() -> runQuietly(phase1));
                    await().atMost(Duration.ofMinutes(2)).until(() -> completedCheckpoints(first, jobId) >= 2
                            && phase1.committed() >= 80);
                    String killed = first.killTaskManager(0);
                    first.startTaskManager();
                    System.out.printf("killed TaskManager %s (SIGKILL) after %d source transactions%n", killed,
                            phase1.committed());
                    await().atMost(Duration.ofMinutes(2)).until(() -> restored(first, jobId).path("id").asLong() > 0);
                    await().atMost(Duration.ofSeconds(60)).until(() -> restarts(first, jobId) >= 1);
                    running.get();
                    awaitTablesEqual(postgres, target);
                    JsonNode restored = restored(first, jobId);
                    System.out.printf("job %s: restarts %d, restored checkpoint %d (%s)%n", jobId,
                            restarts(first, jobId), restored.path("id").asLong(), restored.path("external_path")
                                    .asText());
                    assertThat(restored.path("is_savepoint").asBoolean()).isFalse();

                    savepoint = stopWithSavepoint(first, jobId, savepoints);
                    System.out.println("stopped with savepoint " + savepoint);
                }

                try (FlinkProcessCluster second = FlinkProcessCluster.start(dir.resolve("cluster-2"), checkpoints,
                        savepoints, 2)) {
                    String jobId = submit(second, job, savepoint);
                    OltpWorkload phase2 = new OltpWorkload(postgres::connect, OltpSchema.Dialect.POSTGRES, ledger, 3,
                            30, 0, 22L).sessions(4, 20);
                    phase2.run();
                    awaitTablesEqual(postgres, target);
                    JsonNode restored = restored(second, jobId);
                    System.out.printf("job %s on a fresh cluster: restarts %d, restored %s %d (%s)%n", jobId,
                            restarts(second, jobId), restored.path("is_savepoint").asBoolean() ? "savepoint"
                                    : "checkpoint", restored.path("id").asLong(),
                            restored.path("external_path").asText());
                    assertThat(restored.path("is_savepoint").asBoolean()).isTrue();
                    assertThat(restored.path("external_path").asText()).isEqualTo(savepoint);
                    assertThat(debezium.failure()).isNull();
                }
            } finally {
                reader.stop();
            }
            reader.checkOnce();
            System.out.printf("Flink cluster end to end: %d source transactions, %d snapshots, %d violations%n",
                    ledger.transactions(), reader.snapshots(), reader.violations());
            assertThat(reader.brokenTransactions()).as("transactions seen partly; first: %s", reader.firstViolation())
                    .isEmpty();
            assertThat(reader.violations()).isZero();
            assertThat(reader.snapshots()).isGreaterThan(10);
        }
    }

    /** {@code flink run -d [-s savepoint] <job>}; returns the id of the job once it runs. */
    private static String submit(FlinkProcessCluster cluster, List<String> job, String savepoint) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "-d"));
        if (savepoint != null) {
            args.addAll(List.of("-s", savepoint));
        }
        args.addAll(job);
        String output = cluster.flink(args);
        String jobId = output.replaceAll("(?s).*JobID ([0-9a-f]{32}).*", "$1");
        assertThat(jobId).as("flink run output: %s", output).matches("[0-9a-f]{32}");
        await().atMost(Duration.ofMinutes(4)).until(() -> "RUNNING".equals(
                cluster.tryGet("/jobs/" + jobId).path("state").asText()));
        return jobId;
    }

    private static long completedCheckpoints(FlinkProcessCluster cluster, String jobId) throws Exception {
        JsonNode stats = cluster.tryGet("/jobs/" + jobId + "/checkpoints");
        return stats == null ? 0 : stats.path("counts").path("completed").asLong();
    }

    /** @return the {@code latest.restored} block of the job's checkpoint statistics (missing node when none) */
    private static JsonNode restored(FlinkProcessCluster cluster, String jobId) throws Exception {
        JsonNode stats = cluster.tryGet("/jobs/" + jobId + "/checkpoints");
        return stats == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                : stats.path("latest").path("restored");
    }

    private static long restarts(FlinkProcessCluster cluster, String jobId) throws Exception {
        JsonNode metrics = cluster.tryGet("/jobs/" + jobId + "/metrics?get=numRestarts");
        return metrics == null || metrics.size() == 0 ? 0 : metrics.get(0).path("value").asLong();
    }

    /** POST /jobs/:id/stop (stop with savepoint, no drain), then polls the trigger; returns the savepoint path. */
    private static String stopWithSavepoint(FlinkProcessCluster cluster, String jobId, Path savepoints)
            throws Exception {
        String trigger = cluster.post("/jobs/" + jobId + "/stop", "{\"drain\": false, \"targetDirectory\": \""
                + savepoints.toUri() + "\"}").path("request-id").asText();
        String[] location = new String[1];
        await().atMost(Duration.ofMinutes(2)).until(() -> {
            JsonNode state = cluster.tryGet("/jobs/" + jobId + "/savepoints/" + trigger);
            if (state == null || !"COMPLETED".equals(state.path("status").path("id").asText())) {
                return false;
            }
            JsonNode operation = state.path("operation");
            assertThat(operation.has("failure-cause")).as("savepoint failure: %s", operation).isFalse();
            location[0] = operation.path("location").asText();
            return true;
        });
        return location[0];
    }

    private static void awaitTablesEqual(PostgresServer postgres, StarRocksEmulator target) {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .untilAsserted(() -> {
                    try (Connection connection = postgres.connect()) {
                        for (Table table : OltpSchema.TABLES) {
                            assertThat(TableContents.target(target, table)).as("table %s", table.name())
                                    .containsExactlyEntriesOf(TableContents.source(connection, table));
                        }
                    }
                });
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                for (Path path : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static void runQuietly(OltpWorkload workload) {
        try {
            workload.run();
        } catch (Exception e) {
            throw new IllegalStateException("the workload failed", e);
        }
    }
}
