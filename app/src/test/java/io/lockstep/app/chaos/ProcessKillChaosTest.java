package io.lockstep.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.app.demo.ShopInvariants;
import io.lockstep.app.demo.ShopSchema;
import io.lockstep.app.demo.ShopState;
import io.lockstep.app.demo.ShopTransaction;
import io.lockstep.app.demo.ShopTransactionGenerator;
import io.lockstep.app.demo.ShopWorkload;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.emulator.StarRocksEmulator;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole-process kills: {@code lockstep run} in its default mode (exactly-once across tables) runs as a child JVM
 * of this test ({@code java -cp <test class path> io.lockstep.app.cli.LockstepMain run ...}) against the Kafka
 * broker and the StarRocks emulator this test runs in-process on loopback. The topic holds the shop workload as
 * Debezium MySQL transactions (4 partitions, {@link ShopCdcRecords}; each change carries its key's version, and each
 * transaction also inserts one row per change into the DUPLICATE KEY change log). The connector that publishes them
 * ({@link UpstreamResendInjector}) is restarted three times the way a crash restarts Debezium: each restart re-sends
 * a resumed tail without BEGIN, whole transactions and a transaction cut off at the crash, at higher offsets; the
 * first 70 % of its output is in the topic before the first process starts, the rest is written while it runs.
 * The process is killed with SIGKILL twice mid-stream,
 * each time as soon as its first shared transactions are visible (so it dies with more to load and, likely,
 * a commit in flight), and started again with the same
 * command, until a run ends on its own ({@code --bounded}).
 *
 * <p>While that happens, {@link SnapshotOracle} (shop invariants, change-log duplicates) and {@link VersionOracle}
 * (no key's version goes back) sample the committed data. Asserted: every restarted process started each
 * partition right after the position committed before the kill (its log line; never offset 0 where a position
 * was committed), 0 atomicity violations, 0 duplicates, 0 versions going back, and exact final tables and change
 * log: no re-sent transaction is loaded again, and none stops the job; the processes' own count of the re-sent
 * transactions they dropped (their log lines) is at least the number the connector re-sent.
 */
class ProcessKillChaosTest {
    private static final long SEED = Long.getLong("lockstep.chaos.seed", new SecureRandom().nextLong());
    private static final String SEED_NOTE = "chaos seed " + SEED + " (rerun with -Dlockstep.chaos.seed=" + SEED + ")";
    private static final String TOPIC = "shop.cdc";
    private static final String GROUP = "chaos";
    private static final int TRANSACTIONS = 2_000;
    private static final int KILLS = 2;
    /**
     * Where the connector restarts (upstream re-sends), as a share of the stream: the first two where the processes
     * tend to be killed (their first commits), so that a process killed after committing a transaction is often
     * followed by one that reads its re-send; 100-200 transactions are re-sent each time.
     */
    private static final double[] RESTARTS_AT = {0.1, 0.35, 0.8};
    /** Share of the connector's output in the topic before the first process starts; the rest comes while it runs. */
    private static final double PREFIX = 0.7;
    private static final Pattern START_LINE = Pattern.compile(
            "topic 'shop\\.cdc' partition (\\d+): job '[^']+' committed offset (\\d+); starting at offset (\\d+)");

    private static final Pattern DROPPED_LINE = Pattern.compile("Dropped (\\d+) re-sent source transactions? of ");

    @TempDir
    Path logs;

    @Test
    void killedWithSigkillAndStartedAgainTheJobResumesAfterItsCommittedPositionsExactlyOnce() throws Exception {
        ShopWorkload workload = new ShopWorkload(SEED, ChaosJobs.GENERATOR_PARTITIONS, 300, 5, 20);
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
                StarRocksEmulator sr = StarRocksEmulator.builder().ddl(ChaosJobs.cdcDdl()).build().start();
                UpstreamResendInjector connector = connector(kafka.bootstrapServers(), workload)) {
            kafka.createTopic(TOPIC, ChaosJobs.GENERATOR_PARTITIONS);
            connector.publishPrefix(PREFIX);
            SnapshotOracle oracle = new SnapshotOracle(sr, SnapshotOracle.CDC_INVARIANTS, SnapshotOracle.CDC_COLUMNS);
            VersionOracle versions = new VersionOracle(sr);
            oracle.start(scheduler);
            versions.start(scheduler);

            List<String> command = command(kafka.bootstrapServers(), sr.feUrl(), logs.resolve("state"));
            int kills = 0;
            List<String> resumed = new ArrayList<>();
            Map<Integer, Long> committedAtKill = Map.of();
            List<Map<Integer, Long>> committedAtKills = new ArrayList<>();
            List<File> runLogs = new ArrayList<>();
            for (int runNo = 0; ; runNo++) {
                File log = logs.resolve("run-" + runNo + ".log").toFile();
                runLogs.add(log);
                if (runNo > 0) {
                    connector.awaitPublished(); // the first run's input ends at the prefix; the others see it all
                }
                Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
                if (runNo == 0) {
                    connector.publishRestAsync(); // the connector goes on, restarts included, while the job runs
                } else {
                    resumed.addAll(assertResumedAfter(committedAtKill, log, process));
                }
                if (kills < KILLS) {
                    long threshold = logRows(sr) + 1; // the first commit of this process
                    await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
                            .until(() -> !process.isAlive() || logRows(sr) >= threshold);
                    if (process.isAlive()) {
                        process.destroyForcibly(); // SIGKILL: no close, no final commit
                        process.waitFor(30, TimeUnit.SECONDS);
                        kills++;
                        committedAtKill = committedPositions(sr);
                        committedAtKills.add(committedAtKill);
                        continue;
                    }
                }
                assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("run %d ends; %s", runNo, SEED_NOTE).isTrue();
                assertThat(process.exitValue()).as("exit code of run %d (log: %s); %s", runNo,
                        Files.readString(log.toPath()), SEED_NOTE).isZero();
                break;
            }
            sr.faults().clear(); // publishes what a commit left COMMITTED
            oracle.stop();
            versions.stop();

            ShopState expected = expectedShop(workload);
            ShopState actual = ChaosJobs.readShop(sr);
            List<Long> log = new ArrayList<>();
            for (List<Object> row : sr.query("SELECT event_id FROM shop.change_log ORDER BY event_id").rows()) {
                log.add(((Number) row.get(0)).longValue());
            }
            List<UpstreamResendInjector.Resent> resent = connector.resent();
            long acrossKill = committedAtKills.stream()
                    .mapToLong(committed -> UpstreamResendInjector.resentAcrossCommit(resent, committed)).sum();
            assertThat(kills).as("processes killed mid-stream; " + SEED_NOTE).isEqualTo(KILLS);
            assertThat(resent).as("transactions the connector re-sent; " + SEED_NOTE).isNotEmpty();
            long resentTwice = resent.stream()
                    .filter(r -> r.shape() != UpstreamResendInjector.Shape.CUT_THEN_WHOLE).count();
            long dropped = droppedResends(runLogs);
            assertThat(dropped).as("re-sent transactions the processes dropped, by their log lines (a killed process's "
                    + "may be dropped again by the next) vs the %d re-sent; %s", resentTwice, SEED_NOTE)
                    .isGreaterThanOrEqualTo(resentTwice);
            assertThat(resumed).as("partitions resumed after a committed position; " + SEED_NOTE).isNotEmpty();
            assertThat(oracle.errors()).as("reader errors; " + SEED_NOTE).isEmpty();
            assertThat(versions.errors()).as("version reader errors; " + SEED_NOTE).isEmpty();
            assertThat(oracle.violations()).as("atomicity violations and duplicates seen; " + SEED_NOTE).isEmpty();
            assertThat(versions.violations()).as("versions going back; " + SEED_NOTE).isEmpty();
            assertThat(log).as("change log (no duplicate, no loss); " + SEED_NOTE)
                    .isEqualTo(ChaosJobs.expectedEvents(workload, TRANSACTIONS));
            assertThat(actual.differences(expected, 20)).as("tables vs expected state; " + SEED_NOTE).isEmpty();
            assertThat(ShopInvariants.check(actual)).as(SEED_NOTE).isEmpty();
            System.out.println("[chaos] process kills: " + kills + " SIGKILLs, resumed " + resumed + ", "
                    + oracle.samples() + " reader samples, " + versions.samples() + " version samples; "
                    + "0 atomicity violations, 0 duplicates, 0 versions going back, tables exact; "
                    + FaultClass.UPSTREAM_RESEND.title() + ": " + connector.summary(resent) + ", " + dropped
                    + " dropped by the processes, " + acrossKill + " re-sent after their first copy was "
                    + "committed by a killed process; " + SEED_NOTE);
        } finally {
            scheduler.shutdownNow();
        }
    }

    /**
     * Waits for the restarted process's start lines and checks that every partition with a position committed
     * before the kill starts right after a position at least as high (a commit in flight at the kill may have
     * become visible since).
     *
     * @return "partition@offset" of each resumed partition
     */
    private static List<String> assertResumedAfter(Map<Integer, Long> committed, File log, Process process) {
        Map<Integer, long[]> starts = new TreeMap<>();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> {
            Matcher m = START_LINE.matcher(Files.readString(log.toPath()));
            while (m.find()) {
                starts.put(Integer.parseInt(m.group(1)),
                        new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
            }
            return starts.keySet().containsAll(committed.keySet()) || !process.isAlive();
        });
        List<String> resumed = new ArrayList<>();
        committed.forEach((partition, position) -> {
            long[] start = starts.get(partition);
            assertThat(start).as("start line of partition %d after the kill (committed %s; log: %s); %s", partition,
                    committed, readQuietly(log), SEED_NOTE).isNotNull();
            assertThat(start[0]).as("committed offset of partition %d; %s", partition, SEED_NOTE)
                    .isGreaterThanOrEqualTo(position);
            assertThat(start[1]).as("start offset of partition %d (never 0: it resumes); %s", partition, SEED_NOTE)
                    .isEqualTo(start[0] + 1).isPositive();
            resumed.add(partition + "@" + start[1]);
        });
        return resumed;
    }

    /**
     * @return the re-sent source transactions the processes dropped: the sum of their assembler's
     *     {@code Dropped N re-sent source transactions of ...} lines (one per run of dropped transactions)
     */
    private static long droppedResends(List<File> runLogs) throws java.io.IOException {
        long dropped = 0;
        for (File log : runLogs) {
            Matcher m = DROPPED_LINE.matcher(Files.readString(log.toPath()));
            while (m.find()) {
                dropped += Long.parseLong(m.group(1));
            }
        }
        return dropped;
    }

    private static String readQuietly(File log) {
        try {
            return Files.readString(log.toPath());
        } catch (java.io.IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static long logRows(StarRocksEmulator sr) {
        return ((Number) sr.query("SELECT COUNT(*) FROM shop.change_log").rows().get(0).get(0)).longValue();
    }

    /**
     * @return Kafka partition to committed position, as the progress table holds them for the topic (its source
     *     {@code shop.cdc#<topic id>}; the sink's own {@code #run:} rows are left out)
     */
    private static Map<Integer, Long> committedPositions(StarRocksEmulator sr) {
        Map<Integer, Long> positions = new TreeMap<>();
        for (List<Object> row : sr.query("SELECT source, source_partition, position FROM shop.lockstep_progress")
                .rows()) {
            if (String.valueOf(row.get(0)).startsWith(TOPIC + "#")) {
                positions.merge(((Number) row.get(1)).intValue(), ((Number) row.get(2)).longValue(), Math::max);
            }
        }
        return positions;
    }

    /**
     * The same command for every run: the default mode, a bounded backfill of what the topic holds. No checkpoint
     * completes within a run (interval 10 min), so every new process starts from the committed positions, not
     * from a checkpoint in its state directory.
     */
    private static List<String> command(String bootstrap, String feUrl, Path stateDir) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")); // a short run: start fast
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens")) {
                command.add(arg);
            }
        }
        command.add("-Dorg.slf4j.simpleLogger.log.io.lockstep=info");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.lockstep.app.cli.LockstepMain",
                "run", "--kafka-bootstrap", bootstrap, "--topic", TOPIC, "--format", "debezium",
                "--group-id", GROUP, "--load-url", feUrl, "--database", ShopSchema.DATABASE, "--bounded",
                "--parallelism", "2", "--checkpoint-interval", "10m", "--commit-interval", "200ms",
                "--restart-attempts", "0", "--kafka-check-timeout", "30s", "--state-dir", stateDir.toString()));
        return command;
    }

    private static ShopState expectedShop(ShopWorkload workload) {
        ShopTransactionGenerator generator = ShopReplaySource.generator(workload);
        for (int i = 0; i < TRANSACTIONS; i++) {
            generator.next();
        }
        return generator.expectedState();
    }

    /** The shop workload's transactions as a MySQL connector publishes them, restarted at {@link #RESTARTS_AT}. */
    private static UpstreamResendInjector connector(String bootstrap, ShopWorkload workload) {
        List<UpstreamResendInjector.SourceTransaction> transactions = new ArrayList<>();
        ShopTransactionGenerator generator = ShopCdcRecords.generator(workload);
        for (int i = 0; i < TRANSACTIONS; i++) {
            ShopTransaction transaction = generator.next();
            transactions.add(new UpstreamResendInjector.SourceTransaction(transaction.sequence(),
                    transaction.partition(), ShopCdcRecords.of(transaction)));
        }
        return new UpstreamResendInjector(bootstrap, TOPIC, transactions,
                UpstreamResendInjector.plan(transactions, new Random(SEED), RESTARTS_AT, 100, 200));
    }
}
