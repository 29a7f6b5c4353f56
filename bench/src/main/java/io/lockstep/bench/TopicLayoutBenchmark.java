package io.lockstep.bench;

import io.lockstep.app.cli.LockstepMain;
import io.lockstep.app.demo.DemoMetricsReporter;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.app.rebuild.CrossTopicRebuild;
import io.lockstep.bench.LayoutTopics.Layout;
import io.lockstep.bench.LayoutTopics.Written;
import io.lockstep.emulator.StarRocksEmulator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Rows/s of {@code lockstep run} reading the same Debezium PostgreSQL workload ({@link PgOrderWorkload}) in its two
 * topic layouts ({@link LayoutTopics}): one topic of one partition, and Debezium's default of one topic per table
 * (4 partitions each) plus the transaction topic, whose source transactions the job rebuilds across topics
 * (docs/sources.md#debeziums-default-layout-one-topic-per-table). Every run is the real command
 * ({@link LockstepMain}, {@code run --bounded}, exactly-once across tables, a fresh job id so it starts at the
 * topics' beginning) on a local MiniCluster in this JVM, reading an embedded Kafka broker ({@link EmbeddedKafka}) and
 * loading into the emulator ({@code none} store, progress table kept), with the same checkpoint and commit interval
 * ({@value #INTERVAL} each) in both layouts; their checkpoints go to a temporary directory, as every local run's that
 * keeps no state ({@code io.lockstep.app.job.TemporaryCheckpointStorage}).
 *
 * <p>A run fails loudly (naming it) when the command exits non-zero, or when the rows and source transactions its
 * summary line reports committed, or the rows the emulator received, differ from what was written.
 */
final class TopicLayoutBenchmark {
    /** The target database (where the progress table lives too). */
    static final String DATABASE = BenchTables.DATABASE;
    /** Checkpoint interval and commit interval of every run. */
    static final String INTERVAL = "1s";
    /** Period of the held-bytes gauge's sampling, ms. */
    static final long GAUGE_POLL_MS = 50;
    /** Period of the poll for the first record, ms: the error of the clock's start. */
    static final long FIRST_RECORD_POLL_MS = 5;
    /** Flink's per-operator counter of records emitted; the Kafka source's turns non-zero with the first record. */
    private static final String RECORDS_OUT = "numRecordsOut";
    /** The rebuild's gauge of the bytes it holds (row text of events of transactions not yet released). */
    static final String HELD_BYTES_METRIC = CrossTopicRebuild.HELD_BYTES_METRIC;
    private static final Pattern COMMITTED = Pattern.compile(
            "summary: ([\\d,]+) source transactions? read.*?, ([\\d,]+) committed, ([\\d,]+) rows? committed, "
                    + "([\\d,]+) StarRocks transactions?");

    private TopicLayoutBenchmark() {
    }

    /**
     * The section: both layouts written once ({@code transactions} each), two unrecorded warm-up runs of each (at
     * the first and the last parallelism), then {@code repeats} rounds of every layout at every parallelism, the layouts' order alternating from
     * round to round.
     *
     * @param log where progress lines go
     * @return the recorded runs in the order run
     */
    static List<TopicLayoutRun> measure(long transactions, int repeats, int[] parallelisms, Consumer<String> log)
            throws Exception {
        Path stateRoot = Files.createTempDirectory("lockstep-bench-layout");
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             StarRocksEmulator emulator = CountingParser.emulatorKeepingProgress(PgOrderWorkload.ddl(DATABASE)
                     + BenchTables.progressTableDdl())) {
            List<Written> layouts = writeBoth(kafka, transactions, log);
            // two unrecorded runs per layout, at the lowest and the highest parallelism: with one at p1 the
            // rebuild's path was still compiling in the first recorded repeats (15,040 -> 24,723 -> 41,312 rows/s
            // at p1 over three repeats, the one-topic layout steady from the first)
            for (Written written : layouts) {
                for (int parallelism : new int[] {parallelisms[0], parallelisms[parallelisms.length - 1]}) {
                    TopicLayoutRun warmUp = run(kafka, emulator, written, parallelism, -1, stateRoot);
                    log.accept("  warm-up " + describe(warmUp));
                }
            }
            List<TopicLayoutRun> runs = new ArrayList<>();
            for (int repeat = 0; repeat < repeats; repeat++) {
                for (int parallelism : parallelisms) {
                    for (int i = 0; i < layouts.size(); i++) {
                        Written written = layouts.get((i + repeat) % layouts.size());
                        TopicLayoutRun run = run(kafka, emulator, written, parallelism, repeat, stateRoot);
                        log.accept("  repeat " + repeat + ": " + describe(run));
                        runs.add(run);
                    }
                }
            }
            return runs;
        } finally {
            deleteTree(stateRoot);
        }
    }

    /** Writes the workload in both layouts: {@code one.cdc}, and {@code pg.public.<table>} with {@code pg.transaction}. */
    static List<Written> writeBoth(EmbeddedKafka kafka, long transactions, Consumer<String> log)
            throws InterruptedException {
        List<Written> layouts = new ArrayList<>();
        for (Layout layout : Layout.values()) {
            long start = System.nanoTime();
            Written written = LayoutTopics.write(kafka, layout,
                    layout == Layout.ONE_TOPIC ? "one" : PgOrderWorkload.SERVER_NAME, transactions);
            log.accept(String.format(Locale.ROOT, "  wrote %s: %,d source transactions, %,d rows, %,d messages "
                    + "in %.1f s", layout.label(), written.transactions(), written.rows(), written.messages(),
                    (System.nanoTime() - start) / 1e9));
            layouts.add(written);
        }
        return layouts;
    }

    /**
     * One bounded {@code lockstep run} of {@code written}, checked against what was written.
     *
     * @param repeat the round (from 0), -1 for a warm-up; part of the job id
     * @throws IllegalStateException naming the run when it fails or its counts differ from what was written
     */
    static TopicLayoutRun run(EmbeddedKafka kafka, StarRocksEmulator emulator, Written written, int parallelism,
            int repeat, Path stateRoot) throws Exception {
        String jobId = String.format(Locale.ROOT, "bench-%s-p%d-%s", written.prefix(), parallelism,
                repeat < 0 ? "warm-up" : "r" + repeat);
        String name = written.layout().label() + " p" + parallelism + (repeat < 0 ? " (warm-up)" : " repeat " + repeat);
        List<String> args = new ArrayList<>(List.of("run", "--kafka-bootstrap", kafka.bootstrapServers()));
        args.addAll(written.topicOptions());
        args.addAll(List.of("--format", "debezium", "--load-url", emulator.feUrl(), "--database", DATABASE,
                "--parallelism", String.valueOf(parallelism), "--checkpoint-interval", INTERVAL,
                "--commit-interval", INTERVAL, "--restart-attempts", "0", "--group-id", jobId, "--job-id", jobId,
                "--state-dir", stateRoot.resolve(jobId).toString(), "--bounded"));
        long storedBefore = storedRows(emulator);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = LockstepMain.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        JobPoller poller = new JobPoller(jobName(written));
        ProcessCpu.Sample cpuStart = ProcessCpu.sample();
        long start = System.nanoTime();
        int exit;
        poller.start();
        try {
            exit = cli.execute(args.toArray(String[]::new));
        } finally {
            poller.stop();
        }
        long end = System.nanoTime();
        ProcessCpu.Sample cpu = ProcessCpu.sample().minus(cpuStart);
        if (exit != 0) {
            throw new IllegalStateException(name + ": lockstep run exited " + exit + ": " + err.toString().strip());
        }
        Matcher summary = COMMITTED.matcher(out.toString());
        if (!summary.find()) {
            throw new IllegalStateException(name + ": no summary line with committed counts in: "
                    + out.toString().strip());
        }
        long transactions = number(summary.group(2));
        long rows = number(summary.group(3));
        long stored = storedRows(emulator) - storedBefore;
        if (rows != written.rows() || stored != written.rows() || transactions != written.transactions()) {
            throw new IllegalStateException(String.format(Locale.ROOT, "%s: wrote %,d source transactions and %,d "
                    + "rows; the run committed %,d source transactions and %,d rows, the emulator received %,d rows",
                    name, written.transactions(), written.rows(), transactions, rows, stored));
        }
        long first = poller.firstRecordNanos();
        if (first == Long.MAX_VALUE) {
            throw new IllegalStateException(name + ": the Kafka source's first record was never seen in the job's "
                    + "metrics ('" + RECORDS_OUT + "' of job '" + jobName(written) + "')");
        }
        return new TopicLayoutRun(written.layout(), parallelism, repeat, rows, transactions,
                number(summary.group(4)), (end - first) / 1e9, (end - start) / 1e9, poller.peakHeldBytes(),
                cpu.processNs() / 1e9, MachineInfo.loadAverage());
    }

    /**
     * The name {@code lockstep run} gives the job ({@code lockstep <topic>}, where the job's topic is the transaction
     * topic in the topic-per-table layout); its metrics are registered under it.
     */
    static String jobName(Written written) {
        return "lockstep " + (written.transactionTopic() != null ? written.transactionTopic()
                : written.tableTopics().get(0));
    }

    /** Rows the emulator received into the workload's tables. */
    static long storedRows(StarRocksEmulator emulator) {
        long n = 0;
        for (String table : PgOrderWorkload.TABLES) {
            n += emulator.rowCount(DATABASE, table);
        }
        return n;
    }

    static String describe(TopicLayoutRun run) {
        return String.format(Locale.ROOT, "%s p%d: %,d rows, %,d source txns in %.2f s (command %.2f s) => "
                        + "%,.0f rows/s, %,.0f txns/s, %,d StarRocks txns, CPU %.1f s%s (load %s)", run.layout().label(),
                run.parallelism(), run.rows(), run.transactions(), run.seconds(), run.commandSeconds(),
                run.rowsPerSecond(), run.transactionsPerSecond(), run.targetCommits(), run.cpuSeconds(),
                run.peakHeldBytes() < 0 ? "" : String.format(Locale.ROOT, ", peak held %,d bytes",
                        run.peakHeldBytes()), run.loadAverage());
    }

    private static long number(String text) {
        return Long.parseLong(text.replace(",", ""));
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Watches one job's metrics ({@link DemoMetricsReporter}, which {@code lockstep run} enables) on a daemon thread:
     * the moment the first record leaves the Kafka source, then the largest held-bytes value of the rebuild.
     * Owner of its fields: the poller thread writes them; {@link #stop()} joins it before they are read.
     */
    private static final class JobPoller {
        private final String jobName;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong firstRecordNanos = new AtomicLong(Long.MAX_VALUE);
        private final AtomicLong peakHeldBytes = new AtomicLong(-1);
        private final Thread thread;

        JobPoller(String jobName) {
            this.jobName = jobName;
            this.thread = new Thread(this::poll, "bench-layout-poller");
            this.thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void poll() {
            try {
                while (running.get()) {
                    // looked up every time: the command forgets the job's metrics when it starts and when it ends
                    var metrics = DemoMetricsReporter.metricsOf(jobName);
                    if (firstRecordNanos.get() == Long.MAX_VALUE) {
                        if (metrics.counter(RECORDS_OUT) > 0) {
                            firstRecordNanos.set(System.nanoTime());
                        }
                        Thread.sleep(FIRST_RECORD_POLL_MS);
                    } else {
                        peakHeldBytes.accumulateAndGet(metrics.gaugeMax(HELD_BYTES_METRIC), Math::max);
                        Thread.sleep(GAUGE_POLL_MS);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
            DemoMetricsReporter.forget(jobName);
        }

        long firstRecordNanos() {
            return firstRecordNanos.get();
        }

        long peakHeldBytes() {
            return peakHeldBytes.get();
        }
    }
}
