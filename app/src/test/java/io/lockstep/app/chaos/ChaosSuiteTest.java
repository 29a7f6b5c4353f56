package io.lockstep.app.chaos;

import static io.lockstep.app.chaos.ChaosJobs.awaitFirstCheckpoint;
import static io.lockstep.app.chaos.ChaosJobs.cancel;
import static io.lockstep.app.chaos.ChaosJobs.chaosEnvironment;
import static io.lockstep.app.chaos.ChaosJobs.environment;
import static io.lockstep.app.chaos.ChaosJobs.exactlyOnceMultiTableOptions;
import static io.lockstep.app.chaos.ChaosJobs.exactlyOnceOptions;
import static io.lockstep.app.chaos.ChaosJobs.expectedEvents;
import static io.lockstep.app.chaos.ChaosJobs.expectedShop;
import static io.lockstep.app.chaos.ChaosJobs.finish;
import static io.lockstep.app.chaos.ChaosJobs.multiTableOptions;
import static io.lockstep.app.chaos.ChaosJobs.pipeline;
import static io.lockstep.app.chaos.ChaosJobs.readShop;
import static io.lockstep.app.chaos.ChaosJobs.row;
import static io.lockstep.app.chaos.ChaosJobs.spreadPartitions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.app.demo.ShopInvariants;
import io.lockstep.app.demo.ShopState;
import io.lockstep.app.demo.ShopWorkload;
import io.lockstep.emulator.ManualClock;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reliability suite (docs/reliability.md): the shop workload (source transactions of 1–4 tables, replayed from a
 * seed by {@link ShopReplaySource}) as plain CDC rows through the exactly-once multi-table sink, and shop events through
 * the exactly-once single-table sink into a DUPLICATE KEY table, both at sink parallelism 2 on a MiniCluster,
 * against the in-JVM emulator, while {@link ChaosInjector} injects every fault class alone and then mixed. The
 * oracle: {@link SnapshotOracle} samples the committed data every 75 ms (shop invariants and change-log
 * duplicates, resp. event duplicates), {@link VersionOracle} checks that no key's version goes back, and at the
 * end the tables must equal the generator's expected state exactly. Whole-process kills of {@code lockstep run}
 * are in {@link ProcessKillChaosTest}. Two unrecoverable faults must fail the
 * job with a message naming the label and the cause.
 *
 * <p>Seed: {@code -Dlockstep.chaos.seed=N}, else random; every assertion message names it. The fault summary
 * table is printed after the suite.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChaosSuiteTest {
    private static final long SEED = Long.getLong("lockstep.chaos.seed", new SecureRandom().nextLong());
    private static final String SEED_NOTE = "chaos seed " + SEED + " (rerun with -Dlockstep.chaos.seed=" + SEED + ")";
    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(ChaosJobs.SINK_PARALLELISM).build());

    private static final FaultLedger LEDGER = new FaultLedger();
    private static final Map<String, String> OUTCOMES = new LinkedHashMap<>();
    private static ScheduledExecutorService scheduler;
    private static long suiteStartNanos;

    @BeforeAll
    static void start() {
        System.out.println("[chaos] " + SEED_NOTE);
        suiteStartNanos = System.nanoTime();
        scheduler = Executors.newScheduledThreadPool(3, r -> {
            Thread t = new Thread(r, "chaos-scheduler");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterAll
    static void summary() {
        scheduler.shutdownNow();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - suiteStartNanos);
        System.out.println("[chaos] fault summary, " + SEED_NOTE + ", suite took " + seconds + " s");
        System.out.print(LEDGER.table(OUTCOMES));
        if (OUTCOMES.containsKey("multi-table") && OUTCOMES.containsKey("exactly-once")) {
            assertThat(LEDGER.injected(null)).as("faults injected per run (>= 100); " + SEED_NOTE)
                    .isGreaterThanOrEqualTo(100);
        }
    }

    private static boolean ended(JobClient job) throws Exception {
        return job.getJobStatus().get().isGloballyTerminalState();
    }

    /** Each class alone hit at least once: a class whose faults never reach the job would test nothing. */
    private static void assertEveryClassHit(String scenario, List<FaultClass> classes) {
        for (FaultClass fault : classes) {
            assertThat(LEDGER.cell(scenario + "/alone", fault).hit).as(fault.title() + " hits; " + SEED_NOTE)
                    .isPositive();
        }
    }

    /**
     * Exactly-once across tables: plain CDC transactions (only the rows they touch, each with its key's version,
     * and one row per change in the DUPLICATE KEY change log) through the exactly-once multi-table sink, under
     * every fault class, including a lost commit reply and a publish timeout as the task is killed. Two readers
     * sample the committed data throughout: no snapshot may break a shop invariant (atomicity) or hold a change-log
     * row twice (a replayed transaction), and no key's version may ever go back; at the end every table equals the
     * generator's state and the change log holds every change exactly once.
     */
    @Test
    @Order(1)
    void multiTableCdcTransactionsLoadExactlyOnceAndAtomicallyUnderEveryFaultClass() throws Exception {
        String run = "chaos-multi-table";
        ChaosControl control = ChaosControl.create(run);
        ShopWorkload workload = ChaosJobs.workload(SEED);
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(ChaosJobs.cdcDdl()).build().start()) {
            StarRocksSinkOptions options = exactlyOnceMultiTableOptions(sr, "chaos-shop");
            StreamExecutionEnvironment env = chaosEnvironment();
            pipeline(env, new ShopReplaySource(run, workload, spreadPartitions(), ShopReplaySource.Shape.CDC, 8),
                    new FaultingSinks.MultiTable<>(options, run));
            SnapshotOracle oracle = new SnapshotOracle(sr, SnapshotOracle.CDC_INVARIANTS, SnapshotOracle.CDC_COLUMNS);
            VersionOracle versions = new VersionOracle(sr);
            JobClient job = env.executeAsync("chaos multi-table exactly-once");
            try {
                oracle.start(scheduler);
                versions.start(scheduler);
                awaitFirstCheckpoint(control);
                ChaosInjector injector = new ChaosInjector(sr, control, LEDGER, "multi-table", new Random(SEED), scheduler,
                        FaultClass.serverAndTask(), List.of(FaultOp.BEGIN, FaultOp.LOAD, FaultOp.COMMIT),
                        ChaosJobs.SOCKET_TIMEOUT_MS, SEED_NOTE);
                injector.alone(3);
                injector.mixed(10);
                assertEveryClassHit("multi-table", FaultClass.serverAndTask());
                assertThat(LEDGER.cell("multi-table/alone", FaultClass.RUNNING_TXN_LIMIT_HELD).restarts)
                        .as("a running-transaction limit held for seconds is backpressure, not a failure; " + SEED_NOTE)
                        .isZero();
                long stopAt = finish(control, job, sr);
                oracle.stop();
                versions.stop();

                ShopState expected = expectedShop(workload, stopAt);
                ShopState actual = readShop(sr);
                List<Long> log = new ArrayList<>();
                for (List<Object> row : sr.query("SELECT event_id FROM shop.change_log ORDER BY event_id").rows()) {
                    log.add(((Number) row.get(0)).longValue());
                }
                List<Long> expectedLog = expectedEvents(workload, stopAt);
                List<Long> lost = new ArrayList<>(expectedLog);
                lost.removeAll(log);
                assertThat(oracle.errors()).as("reader errors; " + SEED_NOTE).isEmpty();
                assertThat(versions.errors()).as("version reader errors; " + SEED_NOTE).isEmpty();
                assertThat(oracle.violations()).as("atomicity violations and duplicates seen by the reader; "
                        + SEED_NOTE).isEmpty();
                assertThat(versions.violations()).as("versions going back; " + SEED_NOTE).isEmpty();
                assertThat(oracle.samplesWithData()).as("reader samples; " + SEED_NOTE).isGreaterThan(20);
                assertThat(lost).as(lost.size() + " changes lost; " + SEED_NOTE).isEmpty();
                assertThat(log).as("change log (no duplicate, no loss); " + SEED_NOTE).isEqualTo(expectedLog);
                assertThat(actual.differences(expected, 20)).as("tables vs expected state; " + SEED_NOTE).isEmpty();
                assertThat(ShopInvariants.check(actual)).as(SEED_NOTE).isEmpty();
                OUTCOMES.put("multi-table", stopAt + " source transactions, " + control.sourceRestores.get()
                        + " job restarts (" + injector.mixedRestarts() + " in mixed rounds), " + oracle.samples()
                        + " reader samples, " + versions.samples() + " version samples over " + versions.keysSeen()
                        + " keys: 0 atomicity violations, 0 duplicates, 0 versions going back; 4 PRIMARY KEY tables "
                        + "exact (" + actual + "), change log exact (" + log.size() + " rows)");
            } finally {
                cancel(job);
                ChaosControl.remove(run);
            }
        }
    }

    @Test
    @Order(2)
    void exactlyOnceEventsLoadExactlyOnceUnderEveryFaultClass() throws Exception {
        String run = "chaos-exactly-once";
        ChaosControl control = ChaosControl.create(run);
        ShopWorkload workload = ChaosJobs.workload(SEED);
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(ChaosJobs.EVENTS_DDL).build().start()) {
            StreamExecutionEnvironment env = chaosEnvironment();
            pipeline(env, new ShopReplaySource(run, workload, spreadPartitions(), ShopReplaySource.Shape.EVENTS, 8),
                    new FaultingSinks.ExactlyOnce<>(exactlyOnceOptions(sr, "chaos-eo"), run));
            SnapshotOracle oracle = new SnapshotOracle(sr, SnapshotOracle.EVENT_DUPLICATES, SnapshotOracle.EVENT_COLUMNS);
            JobClient job = env.executeAsync("chaos exactly-once");
            try {
                oracle.start(scheduler);
                awaitFirstCheckpoint(control);
                EnumSet<FaultClass> classes = EnumSet.copyOf(FaultClass.serverAndTask());
                classes.remove(FaultClass.SHARED_TXN_EXPIRED); // no shared transaction; expiry: see test 4
                classes.removeAll(FaultClass.MULTI_TABLE_ONLY);
                ChaosInjector injector = new ChaosInjector(sr, control, LEDGER, "exactly-once", new Random(SEED + 1),
                        scheduler, List.copyOf(classes),
                        List.of(FaultOp.BEGIN, FaultOp.LOAD, FaultOp.PREPARE, FaultOp.COMMIT), ChaosJobs.SOCKET_TIMEOUT_MS,
                        SEED_NOTE);
                injector.alone(3);
                injector.mixed(8);
                assertEveryClassHit("exactly-once", List.copyOf(classes));
                long stopAt = finish(control, job, sr);
                oracle.stop();

                List<Long> expected = expectedEvents(workload, stopAt);
                List<Long> actual = new ArrayList<>();
                for (List<Object> row : sr.query("SELECT event_id FROM shop.events ORDER BY event_id").rows()) {
                    actual.add(((Number) row.get(0)).longValue());
                }
                assertThat(oracle.errors()).as("reader errors; " + SEED_NOTE).isEmpty();
                assertThat(oracle.violations()).as("duplicates seen by the reader; " + SEED_NOTE).isEmpty();
                assertThat(oracle.samplesWithData()).as("reader samples; " + SEED_NOTE).isGreaterThan(20);
                List<Long> missing = new ArrayList<>(expected);
                missing.removeAll(actual);
                assertThat(missing).as(missing.size() + " events lost; " + SEED_NOTE)
                        .isEmpty();
                assertThat(actual.size()).as("event rows; " + SEED_NOTE).isEqualTo(expected.size());
                assertThat(actual).as("event ids (no duplicate, no loss); " + SEED_NOTE).isEqualTo(expected);
                OUTCOMES.put("exactly-once", stopAt + " source transactions, " + control.sourceRestores.get()
                        + " job restarts (" + injector.mixedRestarts() + " in mixed rounds), " + oracle.samples()
                        + " reader samples, 0 duplicates, DUPLICATE KEY table exact (" + actual.size() + " rows)");
            } finally {
                cancel(job);
                ChaosControl.remove(run);
            }
        }
    }

    /**
     * A data error cannot be recovered: every attempt loads the same bad row and fails, and the job fails naming the
     * label of the load and the server's cause.
     */
    @Test
    @Order(3)
    void aDataErrorFailsTheJobNamingTheLabelAndTheCause() throws Exception {
        String run = "chaos-data-error";
        ChaosControl.create(run);
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddlFile(ChaosJobs.SHOP_DDL).build().start()) {
            StreamExecutionEnvironment env = environment(2);
            DefaultStarRocksRowData good = row(0, "customers", "{\"customer_id\":1,\"name\":\"A B\"}", true);
            DefaultStarRocksRowData bad = row(0, "orders", "{\"order_id\":7,\"customer_id\":\"not a number\"}", true);
            env.fromData(good, bad).setParallelism(1)
                    .keyBy(DefaultStarRocksRowData::getSourcePartition)
                    .addSink(new FaultingSinks.MultiTable<>(multiTableOptions(sr), run)).name("starrocks");
            JobClient job = env.executeAsync("chaos data error");
            assertThatThrownBy(() -> job.getJobExecutionResult().get(60, TimeUnit.SECONDS))
                    .as(SEED_NOTE)
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .containsPattern("commit of label chaos-\\d+-[0-9a-z]+-m\\d+ \\(db shop, multi-table\\) "
                                    + "failed: label chaos-\\d+-[0-9a-z]+-m\\d+ in database shop is ABORTED")
                            .contains("Message 'too many filtered rows'")
                            .contains("the server rejected the loaded data at commit"));
            OUTCOMES.put("unrecoverable data error (multi-table)", "job failed without a restart (a data error "
                    + "cannot heal), message names the label and 'too many filtered rows'");
        } finally {
            ChaosControl.remove(run);
        }
    }

    /**
     * Exactly-once cannot replay a prepared transaction the server expired before its commit: the restore fails
     * naming the label, the checkpoint and the server's cause, and so does the job.
     */
    @Test
    @Order(4)
    void aPreparedTransactionExpiredBeforeItsCommitFailsTheRestoreNamingTheLabel() throws Exception {
        String run = "chaos-expired-prepared";
        ChaosControl control = ChaosControl.create(run);
        ManualClock clock = new ManualClock();
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(ChaosJobs.EVENTS_DDL).clock(clock).build().start()) {
            StreamExecutionEnvironment env = environment(10);
            env.enableCheckpointing(100);
            pipeline(env, new ShopReplaySource(run, ChaosJobs.workload(SEED), spreadPartitions(), ShopReplaySource.Shape.EVENTS, 8),
                    new FaultingSinks.ExactlyOnce<>(exactlyOnceOptions(sr, "chaos-exp"), run));
            JobClient job = env.executeAsync("chaos expired prepared transaction");
            try {
                awaitFirstCheckpoint(control);
                // Past the prepared timeout (24 h): every prepared transaction expires, as the server's timer would.
                control.beforeCommitHook = () -> {
                    clock.advance(Duration.ofHours(25));
                    sr.tick();
                };
                // The failure must hit a checkpoint that prepared rows: one that prepared none restarts cleanly, and
                // the failure is armed again once the job made progress.
                for (int tries = 0; tries < 5 && !ended(job); tries++) {
                    control.failAfterCheckpoint.set(true);
                    await().atMost(Duration.ofSeconds(30)).until(() -> ended(job) || !control.failAfterCheckpoint.get());
                    long emitted = control.emittedPosition.get();
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> ended(job) || control.completedPosition.get() > emitted);
                }
                assertThatThrownBy(() -> job.getJobExecutionResult().get(60, TimeUnit.SECONDS))
                        .as(SEED_NOTE)
                        .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                                .containsPattern("restored label chaos-exp-events-\\d+-[0-9a-z]+-\\d+ "
                                        + "\\(table shop.events, checkpoint \\d+\\) cannot be committed")
                                .contains("is ABORTED")
                                .contains("The rows this subtask prepared for that checkpoint are not in the target"));
                OUTCOMES.put("unrecoverable expired prepared transaction (exactly-once)", "the first failed "
                        + "restore failed the job without a restart; message names the label, checkpoint, ABORTED and the lost rows");
            } finally {
                cancel(job);
                ChaosControl.remove(run);
            }
        }
    }
}
