package io.lockstep.app.demo;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.job.JobFailures;
import io.lockstep.app.job.LockstepPipeline;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.server.Target;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code lockstep demo}: an in-JVM Kafka broker, a {@link DemoTarget} with the shop schema, the generator writing
 * Debezium transactions at a rate for a while, and the main job ({@link LockstepPipeline}) on a local MiniCluster.
 * While it runs, a progress line every second (from the engine's metrics) and a {@link SnapshotChecker} reading
 * the tables every 100 ms; at the end a {@link DemoResult}: invariants on every snapshot, and the final tables
 * against the generator's expected state row by row.
 *
 * <p>Threads: {@link #run()} runs on the caller's thread, which also writes the transactions; the progress line
 * has its own daemon thread.
 */
public final class ShopDemo {
    private static final String TOPIC = "shop.cdc";

    private final DemoConfig config;
    private final DemoTarget target;
    private final PrintStream out;

    /**
     * @param config the run's settings
     * @param target where to load (not started yet; {@link #run()} starts and closes it)
     * @param out where the progress and the verification table go
     */
    public ShopDemo(DemoConfig config, DemoTarget target, PrintStream out) {
        this.config = config;
        this.target = target;
        this.out = out;
    }

    /**
     * Runs the demo to the end and prints the verification table.
     *
     * @return the outcome; {@link DemoResult#allGreen()} says whether every check passed
     * @throws Exception when Kafka, the target or the job cannot be started
     */
    public DemoResult run() throws Exception {
        long startNanos = System.nanoTime();
        String jobName = "lockstep-demo-" + UUID.randomUUID().toString().substring(0, 8);
        String faultToken = jobName + "-fault";
        out.printf(Locale.ROOT, "lockstep demo: %.0f s of shop traffic at %.0f transactions/s, %d partitions, "
                + "parallelism %d%n", config.trafficMs() / 1000.0, config.transactionsPerSecond(),
                config.partitions(), config.parallelism());
        try (target; EmbeddedKafka kafka = EmbeddedKafka.start()) {
            target.start();
            kafka.createTopic(TOPIC, config.partitions());
            out.printf(Locale.ROOT, "  Kafka (in-JVM, KRaft): %s, topic %s (ready after %.1f s)%n",
                    kafka.bootstrapServers(), TOPIC, seconds(System.nanoTime() - startNanos));
            out.println("  target: " + target.description());
            JobClient job = startJob(kafka.bootstrapServers(), jobName, faultToken);
            awaitRunning(job);
            out.printf(Locale.ROOT, "  job %s started after %.1f s%n", jobName, seconds(System.nanoTime() - startNanos));
            try (SnapshotChecker checker = new SnapshotChecker(target, config.snapshotPeriodMs())) {
                return drive(job, jobName, faultToken, kafka.bootstrapServers(), checker, startNanos);
            } finally {
                cancel(job);
                DemoMetricsReporter.forget(jobName);
            }
        }
    }

    private JobClient startJob(String bootstrap, String jobName, String faultToken) throws Exception {
        Configuration flink = new Configuration();
        DemoMetricsReporter.enable(flink);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(config.parallelism(), flink);
        PipelineConfig pipeline = new PipelineConfig(bootstrap, TOPIC, jobName, new Properties(), false,
                CdcFormat.DEBEZIUM, ShopSchema.keyColumnsBySourceTable(), target.loadUrl(), target.jdbcUrl(),
                ShopSchema.DATABASE, null, UnknownTableMode.FAIL, target.username(), target.password(), null,
                config.parallelism(), config.checkpointIntervalMs(), config.commitIntervalMs(), 3, 500,
                AssemblerOptions.defaults(), target.sinkProperties(), target.sinkTarget());
        LockstepPipeline.define(env, pipeline, config.killAfterTransactions() < 0 ? UnaryOperator.identity()
                : rows -> rows.filter(new FaultTrigger(faultToken, config.killAfterTransactions()))
                        .name("demo fault trigger").uid("lockstep-demo-fault-trigger"));
        return env.executeAsync(jobName);
    }

    /** Waits (up to 60 s) until the job runs, so that the traffic's lag does not include the job's start-up. */
    private static void awaitRunning(JobClient job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            JobStatus status = job.getJobStatus().get(10, TimeUnit.SECONDS);
            if (status == JobStatus.RUNNING || status.isGloballyTerminalState()) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private DemoResult drive(JobClient job, String jobName, String faultToken, String bootstrap,
            SnapshotChecker checker, long startNanos) throws Exception {
        JobMetrics metrics = DemoMetricsReporter.metricsOf(jobName);
        CompletableFuture<JobExecutionResult> result = job.getJobExecutionResult();
        int capacity = (int) Math.min(Integer.MAX_VALUE - 16,
                Math.ceil(config.transactionsPerSecond() * config.trafficMs() / 1000.0) + 16);
        SendLog sendLog = new SendLog(capacity);
        ShopTransactionGenerator generator = new ShopTransactionGenerator(
                ShopWorkload.of(config.seed(), config.partitions()), Clock.systemUTC());
        Progress progress = new Progress(metrics, checker, sendLog, startNanos, target.sinkTarget());
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "lockstep-demo-progress");
            thread.setDaemon(true);
            return thread;
        });
        long written;
        boolean converged = false;
        try (ShopTransactionWriter writer = new ShopTransactionWriter(bootstrap, TOPIC)) {
            progress.writer = writer;
            ticker.scheduleAtFixedRate(() -> out.println(progress.line()), 1, 1, TimeUnit.SECONDS);
            written = writePaced(generator, writer, sendLog, result);
            checker.expectFinal(generator.expectedState());
            long drainStart = System.nanoTime();
            while (!result.isDone() && System.nanoTime() - drainStart < config.drainTimeoutMs() * 1_000_000L) {
                if (checker.awaitConverged(200)) {
                    converged = true;
                    break;
                }
            }
        } finally {
            ticker.shutdownNow();
        }
        out.println(progress.line());
        String jobFailure = failureOf(result);
        ShopState expected = generator.expectedState();
        ShopState actual = target.snapshot();
        return new DemoResult(written, metrics.counter(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC),
                metrics.counter(MetricNames.SOURCE_TRANSACTIONS_COMMITTED), metrics.counter(MetricNames.COMMITS),
                metrics.counter(MetricNames.LOADED_ROWS), Math.max(0, metrics.gaugeMax("numRestarts")),
                metrics.gaugeMax("lastCheckpointRestoreTimestamp") > 0, config.killAfterTransactions() >= 0, FaultTrigger.fired(faultToken), jobFailure, converged,
                checker.snapshots(), checker.readErrors(), checker.firstReadError(),
                checker.violationsByInvariant(), checker.describedViolations(), expected, actual,
                (System.nanoTime() - startNanos) / 1_000_000L, target.sinkTarget());
    }

    /** Writes transaction {@code i} at {@code start + i / rate} until the traffic time is over or the job ended. */
    private long writePaced(ShopTransactionGenerator generator, ShopTransactionWriter writer, SendLog sendLog,
            CompletableFuture<JobExecutionResult> result) throws InterruptedException {
        long start = System.nanoTime();
        long durationNanos = config.trafficMs() * 1_000_000L;
        double intervalNanos = 1e9 / config.transactionsPerSecond();
        long written = 0;
        while (!result.isDone()) {
            long due = (long) (written * intervalNanos);
            if (due >= durationNanos) {
                break;
            }
            long wait = due - (System.nanoTime() - start);
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            ShopTransaction transaction = generator.next();
            sendLog.sent(System.nanoTime());
            writer.write(transaction);
            written++;
        }
        writer.flush();
        return written;
    }

    /** @return the job's failure as one line, or {@code null} while it runs or when it ended normally */
    private static String failureOf(CompletableFuture<JobExecutionResult> result) {
        if (!result.isDone()) {
            return null;
        }
        try {
            result.getNow(null);
            return null;
        } catch (RuntimeException e) {
            return JobFailures.describe(e);
        }
    }

    private static void cancel(JobClient job) {
        try {
            job.cancel().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the job already ended (failed or finished): nothing to cancel
        }
        try {
            job.getJobExecutionResult().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            // cancellation completes the result exceptionally
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** The live progress line; read by the progress thread. */
    private static final class Progress {
        private final JobMetrics metrics;
        private final SnapshotChecker checker;
        private final SendLog sendLog;
        private final long startNanos;
        private final Target sinkTarget;
        /** Set by the main thread before the progress thread starts. */
        private volatile ShopTransactionWriter writer;
        /** Progress thread only. */
        private long lastRows;
        private long lastNanos;

        Progress(JobMetrics metrics, SnapshotChecker checker, SendLog sendLog, long startNanos,
                Target sinkTarget) {
            this.sinkTarget = sinkTarget;
            this.metrics = metrics;
            this.checker = checker;
            this.sendLog = sendLog;
            this.startNanos = startNanos;
            this.lastNanos = startNanos;
        }

        String line() {
            long now = System.nanoTime();
            long rows = metrics.counter(MetricNames.LOADED_ROWS);
            double rowsPerSecond = (rows - lastRows) / Math.max(1e-3, (now - lastNanos) / 1e9);
            lastRows = rows;
            lastNanos = now;
            long committed = metrics.counter(MetricNames.SOURCE_TRANSACTIONS_COMMITTED);
            long violations = checker.violationsByInvariant().values().stream().mapToLong(Long::longValue).sum();
            ShopTransactionWriter w = writer;
            long written = w == null ? 0 : w.writtenTransactions();
            long read = metrics.counter(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC);
            long restarts = Math.max(0, metrics.gaugeMax("numRestarts"));
            if (!sinkTarget.hasMultiTableTransactions()) {
                // the per-table sink does not count committed source transactions, so no committed count or lag
                return String.format(Locale.ROOT, "[%5.1fs] written %,d | read %,d | Doris txns %,d | %,.0f rows/s"
                        + " | snapshots %,d, violations %d (info) | restarts %d", seconds(now - startNanos),
                        written, read, metrics.counter(MetricNames.COMMITS), rowsPerSecond, checker.snapshots(),
                        violations, restarts);
            }
            return String.format(Locale.ROOT, "[%5.1fs] written %,d | read %,d | committed %,d | StarRocks txns %,d"
                    + " | %,.0f rows/s | lag %,d ms | snapshots %,d, violations %d | restarts %d",
                    seconds(now - startNanos), written, read, committed,
                    metrics.counter(MetricNames.COMMITS), rowsPerSecond, sendLog.lagMs(committed, now),
                    checker.snapshots(), violations, restarts);
        }
    }
}
