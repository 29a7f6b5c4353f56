package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.csv;
import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisConfig;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Doris timers on a {@link ManualClock} (docs/protocol.md#doris-states-labels-and-timers): the PRECOMMITTED lifetime
 * (3600 s default, configurable), the load timeout, label retention by time (12 h) and by count, and the COMMITTED →
 * VISIBLE publish lag. Nothing sleeps: the clock moves only when a test advances it. A fresh emulator per test.
 */
class DorisTimerTest {
    private final ManualClock clock = new ManualClock();
    private DorisEmulator doris;
    private DorisHttp http;

    private void start(DorisConfig config) throws Exception {
        doris = DorisEmulator.builder().ddl(DorisSchema.DDL).clock(clock).config(config).publishDelayMs(5_000)
                .build().start();
        http = new DorisHttp(doris.feUrl());
    }

    @BeforeEach
    void defaults() throws Exception {
        start(DorisConfig.defaults());
    }

    @AfterEach
    void stop() throws Exception {
        http.close();
        doris.close();
    }

    private Resp commit(long txnId) {
        return http.twoPc("shop", h("txn_operation", "commit", "txn_id", String.valueOf(txnId)));
    }

    @Test
    void precommittedTransactionIsAbortedAfter3600Seconds() {
        long id = http.load("shop", "events", twoPc("t1"), eventRows(1, 2)).txnId();
        clock.advance(Duration.ofSeconds(3599));
        assertThat(doris.labelState("shop", "t1")).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        clock.advance(Duration.ofSeconds(1));
        assertThat(doris.labelState("shop", "t1")).isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.transaction(id).orElseThrow().reason()).isEqualTo("timeout by txn manager");
        Resp r = commit(id);
        assertThat(r.field("status")).isEqualTo("ANALYSIS_ERROR");
        assertThat(r.field("msg")).endsWith("transaction [" + id + "] is already aborted. abort reason: timeout by "
                + "txn manager");
        assertThat(doris.rowCount("shop", "events")).isZero();
        assertThat(http.load("shop", "events", twoPc("t1"), eventRows(1, 1)).loadStatus())
                .as("the label of a timed-out txn is reusable").isEqualTo("Success");
    }

    @Test
    void precommitTimeoutIsConfigurable() throws Exception {
        stop();
        start(DorisConfig.defaults().withPrecommitTimeoutMs(60_000));
        long id = http.load("shop", "events", twoPc("t2"), eventRows(1, 1)).txnId();
        assertThat(doris.transaction(id).orElseThrow().precommitTimeoutMs()).isEqualTo(60_000);
        clock.advance(Duration.ofSeconds(60));
        assertThat(doris.labelState("shop", "t2")).isEqualTo(DorisTxnStatus.ABORTED);
    }

    @Test
    void precommitTimeoutCountsFromPrecommitNotFromBegin() throws Exception {
        OpHold hold = doris.faults().hold(FaultOp.STREAM_LOAD);
        CompletableFuture<Resp> load = CompletableFuture.supplyAsync(
                () -> http.load("shop", "events", twoPc("t3"), eventRows(1, 1)));
        assertThat(hold.awaitArrived(20, TimeUnit.SECONDS)).isTrue();
        clock.advance(Duration.ofSeconds(3000));
        hold.release();
        assertThat(load.get(20, TimeUnit.SECONDS).loadStatus()).isEqualTo("Success");
        clock.advance(Duration.ofSeconds(3599));
        assertThat(doris.labelState("shop", "t3")).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        clock.advance(Duration.ofSeconds(1));
        assertThat(doris.labelState("shop", "t3")).isEqualTo(DorisTxnStatus.ABORTED);
    }

    @Test
    void loadRunningLongerThanItsTimeoutIsAbortedAndFails() throws Exception {
        OpHold hold = doris.faults().hold(FaultOp.STREAM_LOAD);
        CompletableFuture<Resp> load = CompletableFuture.supplyAsync(
                () -> http.load("shop", "events", twoPc("t4", "timeout", "5"), eventRows(1, 1)));
        assertThat(hold.awaitArrived(20, TimeUnit.SECONDS)).isTrue();
        clock.advance(Duration.ofSeconds(5));
        assertThat(doris.labelState("shop", "t4")).isEqualTo(DorisTxnStatus.ABORTED);
        hold.release();
        Resp r = load.get(20, TimeUnit.SECONDS);
        assertThat(r.loadStatus()).isEqualTo("Fail");
        assertThat(r.message()).contains("is already aborted, abort reason: timeout by txn manager");
    }

    @Test
    void finishedLabelsAreForgottenAfter12Hours() {
        long id = http.load("shop", "events", csv("t5"), eventRows(1, 1)).txnId();
        clock.advance(Duration.ofHours(12).minusSeconds(1));
        assertThat(doris.labelState("shop", "t5")).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(http.load("shop", "events", csv("t5"), eventRows(1, 1)).loadStatus())
                .isEqualTo("Label Already Exists");
        clock.advance(Duration.ofSeconds(1));
        assertThat(doris.labelState("shop", "t5")).isEqualTo(DorisTxnStatus.UNKNOWN);
        assertThat(http.loadState("shop", "t5").field("data")).isEqualTo("UNKNOWN");
        Resp r = commit(id);
        assertThat(r.field("msg")).endsWith("transaction [" + id + "] not found");
        assertThat(http.load("shop", "events", csv("t5"), eventRows(1, 1)).loadStatus())
                .as("reusable once forgotten").isEqualTo("Success");
    }

    @Test
    void labelRetentionIsConfigurable() throws Exception {
        stop();
        start(DorisConfig.defaults().withLabelKeepMs(1_000));
        http.load("shop", "events", csv("t6"), eventRows(1, 1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(doris.labelState("shop", "t6")).isEqualTo(DorisTxnStatus.UNKNOWN);
    }

    @Test
    void precommittedLabelsAreNeverForgottenWhileRunning() {
        http.load("shop", "events", twoPc("t7"), eventRows(1, 1));
        clock.advance(Duration.ofSeconds(3599));
        assertThat(doris.labelState("shop", "t7")).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void beyondTheLabelCountThresholdTheOldestFinishedLabelsAreForgotten() throws Exception {
        stop();
        start(DorisConfig.defaults().withLabelNumThreshold(2));
        http.load("shop", "events", csv("n1"), eventRows(1, 1));
        clock.advance(Duration.ofSeconds(1));
        http.load("shop", "events", csv("n2"), eventRows(1, 1));
        clock.advance(Duration.ofSeconds(1));
        http.load("shop", "events", twoPc("n3"), eventRows(1, 1));
        assertThat(doris.labelState("shop", "n1")).as("running txns do not count").isEqualTo(DorisTxnStatus.VISIBLE);
        http.load("other", "events", csv("n1"), eventRows(1, 1));
        assertThat(doris.labelState("shop", "n1")).as("other databases do not count")
                .isEqualTo(DorisTxnStatus.VISIBLE);
        http.load("shop", "events", csv("n4"), eventRows(1, 1));
        assertThat(doris.labelState("shop", "n1")).isEqualTo(DorisTxnStatus.UNKNOWN);
        assertThat(doris.labelState("shop", "n2")).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(doris.labelState("shop", "n4")).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(doris.labelState("shop", "n3")).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void committedTransactionBecomesVisibleAfterThePublishDelay() {
        long id = http.load("shop", "events", twoPc("t8"), eventRows(1, 3)).txnId();
        doris.faults().publishTimeoutNext(1);
        assertThat(commit(id).field("status")).as("2PC commit answers as soon as COMMITTED").isEqualTo("Success");
        assertThat(doris.labelState("shop", "t8")).isEqualTo(DorisTxnStatus.COMMITTED);
        assertThat(doris.rowCount("shop", "events")).isZero();
        clock.advance(Duration.ofMillis(5_000));
        assertThat(doris.labelState("shop", "t8")).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(doris.rowCount("shop", "events")).isEqualTo(3);
    }

    @Test
    void loadWithPublishTimeoutAnswersPublishTimeoutAndIsVisibleLater() {
        doris.faults().publishTimeoutNext(1);
        Resp r = http.load("shop", "events", csv("t9"), eventRows(1, 2));
        assertThat(r.loadStatus()).isEqualTo("Publish Timeout");
        assertThat(r.json().get("NumberLoadedRows").asLong()).isEqualTo(2);
        assertThat(doris.labelState("shop", "t9")).isEqualTo(DorisTxnStatus.COMMITTED);
        clock.advance(Duration.ofMillis(5_000));
        assertThat(doris.labelState("shop", "t9")).isEqualTo(DorisTxnStatus.VISIBLE);
    }
}
