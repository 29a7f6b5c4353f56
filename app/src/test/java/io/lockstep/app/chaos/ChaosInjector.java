package io.lockstep.app.chaos;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.Faults;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.txn.TransactionConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Injects the chaos suite's faults into a running job, one class at a time ({@link #alone}) or several at once
 * ({@link #mixed}), and records them in the {@link FaultLedger}. Every fault is followed by two waits: until it
 * provably hit (the server took the forced action, the sink threw, the held request arrived), then until the
 * job recovered: a checkpoint covering a transaction emitted after the hit completed. A fault that does not
 * hit within {@link #HIT_TIMEOUT} is counted as injected but not hit; a job that does not recover within
 * {@link #RECOVERY_TIMEOUT} fails the test (naming the seed).
 *
 * <p>Random choices (fault class, operation, record count, storm size) come from the seeded {@link Random}; when
 * they hit depends on the job's timing, so a seed reproduces the workload and the fault sequence, not the exact
 * interleaving. Used by the test thread only (the scheduler only releases holds).
 */
final class ChaosInjector {
    static final Duration HIT_TIMEOUT = Duration.ofSeconds(15);
    static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StarRocksEmulator sr;
    private final Faults faults;
    private final ChaosControl control;
    private final FaultLedger ledger;
    private final String scenario;
    private final Random random;
    private final ScheduledExecutorService scheduler;
    private final List<FaultClass> classes;
    private final List<FaultOp> ops;
    private final long socketTimeoutMs;
    private final String seedNote;
    private final HttpClient http = HttpClient.newHttpClient();
    private int mixedRestarts;

    /**
     * @param classes the fault classes that apply to the scenario
     * @param ops the operations the scenario's sink sends (targets of 5xx faults)
     */
    ChaosInjector(StarRocksEmulator sr, ChaosControl control, FaultLedger ledger, String scenario, Random random,
            ScheduledExecutorService scheduler, List<FaultClass> classes, List<FaultOp> ops, long socketTimeoutMs,
            String seedNote) {
        this.sr = sr;
        this.faults = sr.faults();
        this.control = control;
        this.ledger = ledger;
        this.scenario = scenario;
        this.random = random;
        this.scheduler = scheduler;
        this.classes = List.copyOf(classes);
        this.ops = List.copyOf(ops);
        this.socketTimeoutMs = socketTimeoutMs;
        this.seedNote = seedNote;
    }

    /** Each class alone, {@code times} faults each, one after the other. */
    void alone(int times) {
        for (FaultClass fault : classes) {
            for (int i = 0; i < times; i++) {
                int restartsBefore = control.sourceRestores.get();
                round(List.of(fault), scenario + " alone");
                ledger.cell(scenario + "/alone", fault).restarts += control.sourceRestores.get() - restartsBefore;
            }
        }
    }

    /** {@code rounds} rounds of 2 or 3 distinct random classes injected together. */
    void mixed(int rounds) {
        for (int r = 0; r < rounds; r++) {
            List<FaultClass> pool = new ArrayList<>(classes);
            List<FaultClass> chosen = new ArrayList<>();
            int n = 2 + random.nextInt(2);
            for (int i = 0; i < n; i++) {
                chosen.add(pool.remove(random.nextInt(pool.size())));
            }
            // Faults that wait for a request to arrive go last, so the others are already armed.
            chosen.sort((a, b) -> Boolean.compare(blocking(a), blocking(b)));
            int restartsBefore = control.sourceRestores.get();
            round(chosen, scenario + " mixed round " + r + " " + chosen);
            mixedRestarts += control.sourceRestores.get() - restartsBefore;
        }
    }

    /** @return job restarts during the mixed rounds */
    int mixedRestarts() {
        return mixedRestarts;
    }

    private static boolean blocking(FaultClass fault) {
        return fault == FaultClass.RUNNING_TXN_LIMIT || fault == FaultClass.SLOW_LOAD
                || fault == FaultClass.RUNNING_TXN_LIMIT_HELD || fault == FaultClass.SILENT_NODE
                || fault == FaultClass.COMMIT_REPLY_LOST_AT_KILL || fault == FaultClass.PUBLISH_TIMEOUT_AT_KILL;
    }

    private void round(List<FaultClass> chosen, String what) {
        String phase = what.contains("mixed") ? "/mixed" : "/alone";
        List<BooleanSupplier> hits = new ArrayList<>();
        for (FaultClass fault : chosen) {
            ledger.cell(scenario + phase, fault).injected++;
            hits.add(inject(fault));
        }
        long emittedAtHit;
        List<Boolean> hit = new ArrayList<>();
        try {
            await().atMost(HIT_TIMEOUT).pollInterval(Duration.ofMillis(10))
                    .until(() -> hits.stream().allMatch(BooleanSupplier::getAsBoolean));
        } catch (ConditionTimeoutException e) {
            // counted as not hit below
        }
        emittedAtHit = control.emittedPosition.get();
        for (BooleanSupplier h : hits) {
            hit.add(h.getAsBoolean());
        }
        if (hit.contains(false)) {
            faults.clear(); // the rules nothing took (and what else is pending: a clear ends every fault)
        }
        disarmTaskHooks();
        for (int i = 0; i < chosen.size(); i++) {
            if (hit.get(i)) {
                ledger.cell(scenario + phase, chosen.get(i)).hit++;
            }
        }
        try {
            await().atMost(RECOVERY_TIMEOUT).pollInterval(Duration.ofMillis(10))
                    .until(() -> control.completedPosition.get() > emittedAtHit);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the job did not recover from " + what + " within " + RECOVERY_TIMEOUT
                    + " (completed position " + control.completedPosition.get() + ", emitted at hit "
                    + emittedAtHit + "); " + seedNote, e);
        }
        for (FaultClass fault : chosen) {
            ledger.cell(scenario + phase, fault).recovered++;
        }
    }

    private void disarmTaskHooks() {
        control.failAtRecord.set(0);
        control.failInSnapshot.set(false);
        control.failAfterCheckpoint.set(false);
    }

    /** Installs one fault; returns whether it hit (polled). */
    private BooleanSupplier inject(FaultClass fault) {
        switch (fault) {
            case TASK_FAILURE_AT_RECORD: {
                control.failAtRecord.set(1 + random.nextInt(400));
                return () -> control.failAtRecord.get() == 0;
            }
            case TASK_FAILURE_IN_SNAPSHOT: {
                control.failInSnapshot.set(true);
                return () -> !control.failInSnapshot.get();
            }
            case TASK_FAILURE_AFTER_CHECKPOINT: {
                control.failAfterCheckpoint.set(true);
                return () -> !control.failAfterCheckpoint.get();
            }
            case SERVER_5XX: {
                FaultOp op = ops.get(random.nextInt(ops.size()));
                faults.failNextHttp(op, 1, random.nextBoolean() ? 500 : 503);
                return () -> faults.pending(op) == 0;
            }
            case CONNECTION_DROPPED_MID_BODY: {
                faults.dropConnectionMidBody(FaultOp.LOAD, 1);
                return () -> faults.pending(FaultOp.LOAD) == 0;
            }
            case TXN_IN_PROCESSING_STORM: {
                faults.failNext(FaultOp.LOAD, 3 + random.nextInt(6), "TXN_IN_PROCESSING",
                        "Transaction in processing, please retry later");
                return () -> faults.pending(FaultOp.LOAD) == 0;
            }
            case COMMIT_REPLY_LOST: {
                faults.dropReplyNext(FaultOp.COMMIT, 1);
                return () -> faults.pending(FaultOp.COMMIT) == 0;
            }
            case PUBLISH_TIMEOUT: {
                faults.publishTimeoutNext(1);
                return () -> faults.pendingPublishTimeouts() == 0;
            }
            case COMMIT_REPLY_LOST_AT_KILL:
                return atKill(() -> faults.dropReplyNext(FaultOp.COMMIT, 1), () -> faults.pending(FaultOp.COMMIT) == 0);
            case PUBLISH_TIMEOUT_AT_KILL:
                return atKill(() -> faults.publishTimeoutNext(1), () -> faults.pendingPublishTimeouts() == 0);
            case SERVER_RESTART:
                return restartWithLiveTransactions();
            case SHARED_TXN_EXPIRED:
                return expireAnOpenTransaction();
            case RUNNING_TXN_LIMIT:
                return runningTxnLimit();
            case SLOW_LOAD:
                return slowLoad();
            case RUNNING_TXN_LIMIT_HELD:
                return runningTxnLimitHeld();
            case SILENT_NODE:
                return silentNode();
            default:
                throw new IllegalArgumentException("unknown fault class " + fault);
        }
    }

    /**
     * Catches the next commit in flight, arms {@code fault} for it (a lost reply, a publish timeout), and fails the
     * task at its next record while the commit is still held, so the job dies not knowing the commit's outcome;
     * then lets the commit go on. The restarted job must settle it (committed: wait until VISIBLE) before it
     * reads the committed positions. Hit = the commit took the fault and the task failure was thrown. When the
     * task thread itself waits for the commit (a checkpoint's commit), the failure comes right after it.
     */
    private BooleanSupplier atKill(Runnable fault, BooleanSupplier taken) {
        OpHold hold = faults.hold(FaultOp.COMMIT);
        if (!awaitArrival(hold)) {
            return () -> false; // the round clears the faults, which releases the hold
        }
        fault.run();
        control.failAtRecord.set(1);
        try {
            await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                    .until(() -> control.failAtRecord.get() == 0);
        } catch (ConditionTimeoutException e) {
            // the task thread waits for this commit: it fails at its next record, after the release
        }
        hold.release();
        return () -> taken.getAsBoolean() && control.failAtRecord.get() == 0;
    }

    /** Restarts the server once it holds live load contexts (so the restart loses some): hit = it did. */
    private BooleanSupplier restartWithLiveTransactions() {
        boolean live;
        try {
            await().atMost(HIT_TIMEOUT).pollInterval(Duration.ofMillis(5)).until(() -> sr.liveLoadContexts() > 0);
            live = true;
        } catch (ConditionTimeoutException e) {
            live = false;
        }
        faults.restart();
        boolean hit = live;
        return () -> hit;
    }

    /** Expires the first open transaction of the sink found in the BE's live contexts. */
    private BooleanSupplier expireAnOpenTransaction() {
        boolean[] expired = {false};
        try {
            await().atMost(HIT_TIMEOUT).pollInterval(Duration.ofMillis(10)).until(() -> {
                for (JsonNode ctx : liveContexts()) {
                    if (sr.faults().forceExpire("shop", ctx.path("Label").asText())) {
                        return expired[0] = true;
                    }
                }
                return false;
            });
        } catch (ConditionTimeoutException e) {
            // not hit
        }
        return () -> expired[0];
    }

    /**
     * Catches the next begin in flight, sets the running-txn limit to 0 and lets it go on (it is refused); the
     * limit comes back when the next begin arrives (the retry or the restarted job's).
     */
    private BooleanSupplier runningTxnLimit() {
        OpHold first = faults.hold(FaultOp.BEGIN);
        boolean arrived = awaitArrival(first);
        faults.setMaxRunningTxnPerDb(0);
        OpHold second = faults.hold(FaultOp.BEGIN);
        first.release();
        awaitArrival(second);
        faults.setMaxRunningTxnPerDb(TransactionConfig.defaults().maxRunningTxnPerDb());
        second.release();
        return () -> arrived;
    }

    /** Holds the next load in flight for longer than the client's socket timeout. */
    private BooleanSupplier slowLoad() {
        OpHold hold = faults.hold(FaultOp.LOAD);
        boolean arrived = awaitArrival(hold);
        ScheduledFuture<?> release = scheduler.schedule(hold::release, socketTimeoutMs + 300, TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(release::isDone);
        return () -> arrived;
    }

    /** How long {@link FaultClass#RUNNING_TXN_LIMIT_HELD} keeps the limit at 0: far past the ordinary retries. */
    static final long LIMIT_HELD_MS = 2_000;

    /**
     * Catches the next begin in flight, sets the running-txn limit to 0 for {@link #LIMIT_HELD_MS} and lets the begin
     * go on: it is refused again and again, far longer than the ordinary retry budget (3 retries, 50 ms backoff); the
     * sink must wait for a slot (backpressure), not fail. Hit = a begin arrived while the limit was 0.
     */
    private BooleanSupplier runningTxnLimitHeld() {
        OpHold first = faults.hold(FaultOp.BEGIN);
        boolean arrived = awaitArrival(first);
        faults.setMaxRunningTxnPerDb(0);
        first.release();
        ScheduledFuture<?> restore = scheduler.schedule(
                () -> faults.setMaxRunningTxnPerDb(TransactionConfig.defaults().maxRunningTxnPerDb()), LIMIT_HELD_MS,
                TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(restore::isDone);
        return () -> arrived;
    }

    /**
     * A node that takes a begin or a commit and does not answer for longer than the client's socket timeout: the
     * client must give up on it within the timeout and settle the call (begin: sent again, the label taken over;
     * commit: label-state query). Hit = the held request arrived.
     */
    private BooleanSupplier silentNode() {
        FaultOp op = random.nextBoolean() ? FaultOp.BEGIN : FaultOp.COMMIT;
        OpHold hold = faults.hold(op);
        boolean arrived = awaitArrival(hold);
        ScheduledFuture<?> release = scheduler.schedule(hold::release, socketTimeoutMs + 300, TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(release::isDone);
        return () -> arrived;
    }

    private static boolean awaitArrival(OpHold hold) {
        try {
            return hold.awaitArrived(HIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private JsonNode liveContexts() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(sr.beUrl() + "/api/transaction/list"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        "root:".getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }
}
