package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.csv;
import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault injection in Doris mode: forced statuses in each op's vocabulary, HTTP errors, lost replies (a commit that
 * committed), dropped connections, holds, restart, forced expiry, and the HTTP admin endpoint.
 */
class DorisFaultInjectionTest {
    private static final AtomicInteger SEQ = new AtomicInteger();
    /** One emulator for the class; the extension clears the fault rules after each test. */
    @RegisterExtension
    static final DorisEmulatorExtension DORIS = new DorisEmulatorExtension(
            DorisEmulator.builder().ddl(DorisSchema.DDL).clock(new ManualClock()));
    static DorisEmulator doris;
    static DorisHttp http;

    @BeforeAll
    static void start() {
        doris = DORIS.emulator();
        http = new DorisHttp(doris.feUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
    }

    static String label() {
        return "flt_" + SEQ.incrementAndGet();
    }

    static long precommitted(String label) {
        Resp r = http.load("shop", "events", twoPc(label), eventRows(1, 2));
        assertThat(r.loadStatus()).isEqualTo("Success");
        return r.txnId();
    }

    static Resp commit(long txnId) {
        return http.twoPc("shop", h("txn_operation", "commit", "txn_id", String.valueOf(txnId)));
    }

    @Test
    void failNextOnALoadAnswersInTheLoadVocabularyWithoutBeginning() {
        String label = label();
        doris.faults().failNext(FaultOp.STREAM_LOAD, 1, "Fail", "injected");
        Resp r = http.load("shop", "events", twoPc(label), eventRows(1, 1));
        assertThat(r.loadStatus()).isEqualTo("Fail");
        assertThat(r.message()).isEqualTo("injected");
        assertThat(r.field("Label")).isEqualTo(label);
        assertThat(r.field("TwoPhaseCommit")).isEqualTo("true");
        assertThat(doris.faults().pending(FaultOp.STREAM_LOAD)).isZero();
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.UNKNOWN);
        assertThat(http.load("shop", "events", twoPc(label), eventRows(1, 1)).loadStatus()).isEqualTo("Success");
    }

    @Test
    void failNextOnCommitAnswersInThe2pcVocabularyAndChangesNothing() {
        long id = precommitted(label());
        doris.faults().failNext(FaultOp.COMMIT, 1, "ANALYSIS_ERROR", "injected");
        Resp r = commit(id);
        assertThat(r.keys()).containsExactly("status", "msg");
        assertThat(r.field("status")).isEqualTo("ANALYSIS_ERROR");
        assertThat(r.field("msg")).isEqualTo("injected");
        assertThat(doris.transaction(id).orElseThrow().status()).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        assertThat(commit(id).field("status")).isEqualTo("Success");
    }

    @Test
    void failNextHttpOnAbortAndOnLoads() {
        long id = precommitted(label());
        doris.faults().failNextHttp(FaultOp.ABORT, 1, 503);
        Resp abort = http.twoPc("shop", h("txn_operation", "abort", "txn_id", String.valueOf(id)));
        assertThat(abort.status()).isEqualTo(503);
        assertThat(doris.transaction(id).orElseThrow().status()).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        doris.faults().failNextHttp(FaultOp.STREAM_LOAD, 1, 500);
        assertThat(http.load("shop", "events", csv(label()), eventRows(1, 1)).status()).isEqualTo(500);
        assertThat(doris.faults().pending(FaultOp.COMMIT)).as("abort is its own op").isZero();
    }

    @Test
    void commitReplyLostLeavesTheTransactionCommitted() {
        String label = label();
        long before = doris.rowCount("shop", "events");
        long id = precommitted(label);
        doris.faults().dropReplyNext(FaultOp.COMMIT, 1);
        assertThatThrownBy(() -> commit(id)).isInstanceOf(UncheckedIOException.class);
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(doris.rowCount("shop", "events")).isEqualTo(before + 2);
        assertThat(commit(id).field("msg")).endsWith("transaction [" + id + "] is already visible, not "
                + "pre-committed.");
    }

    @Test
    void loadReplyLostThenRetryWithTheSameLabelFindsThePrecommittedTransaction() {
        String label = label();
        doris.faults().dropReplyNext(FaultOp.STREAM_LOAD, 1);
        assertThatThrownBy(() -> http.load("shop", "events", twoPc(label), eventRows(1, 1)))
                .isInstanceOf(UncheckedIOException.class);
        long id = doris.transaction("shop", label).orElseThrow().txnId();
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        Resp retry = http.load("shop", "events", twoPc(label), "");
        assertThat(retry.loadStatus()).isEqualTo("Label Already Exists");
        assertThat(retry.field("ExistingJobStatus")).isEqualTo("PRECOMMITTED");
        assertThat(retry.message()).contains("relate to txn [" + id + "]");
    }

    @Test
    void connectionDroppedMidBodyLoadsNothing() {
        String label = label();
        doris.faults().dropConnectionMidBody(FaultOp.STREAM_LOAD, 1);
        assertThatThrownBy(() -> http.load("shop", "events", twoPc(label), eventRows(1, 2000)))
                .isInstanceOf(UncheckedIOException.class);
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.UNKNOWN);
        assertThat(http.load("shop", "events", twoPc(label), eventRows(1, 1)).loadStatus()).isEqualTo("Success");
    }

    @Test
    void restartAbortsLoadsInFlightAndKeepsPrecommittedTransactions() throws Exception {
        long kept = precommitted(label());
        String running = label();
        OpHold hold = doris.faults().hold(FaultOp.STREAM_LOAD);
        CompletableFuture<Resp> load = CompletableFuture.supplyAsync(
                () -> http.load("shop", "events", twoPc(running), eventRows(1, 1)));
        assertThat(hold.awaitArrived(20, TimeUnit.SECONDS)).isTrue();
        doris.faults().restart();
        assertThat(doris.labelState("shop", running)).isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.transaction("shop", running).orElseThrow().reason()).isEqualTo("coordinate BE is down");
        hold.release();
        assertThat(load.get(20, TimeUnit.SECONDS).loadStatus()).isEqualTo("Fail");
        assertThat(commit(kept).field("status")).isEqualTo("Success");
    }

    @Test
    void forceExpireAbortsAPrecommittedTransactionAsTheTimerWould() {
        String label = label();
        long id = precommitted(label);
        assertThat(doris.faults().forceExpire("shop", label)).isTrue();
        assertThat(commit(id).field("msg")).endsWith("is already aborted. abort reason: timeout by txn manager");
    }

    @Test
    void failNextOnGetLoadStateAnswersTheEnvelope() {
        doris.faults().failNext(FaultOp.GET_LOAD_STATE, 1, "FAILED", "injected");
        Resp r = http.loadState("shop", "x");
        assertThat(r.keys()).containsExactly("msg", "code", "data", "count");
        assertThat(r.json().get("code").asInt()).isEqualTo(1);
        assertThat(r.field("data")).isEqualTo("injected");
        assertThat(http.loadState("shop", "x").field("data")).isEqualTo("UNKNOWN");
    }

    @Test
    void faultsCanBeInstalledOverHttpOnTheFe() {
        long id = precommitted(label());
        Resp installed = http.send("POST", "/api/_fault/fail?op=commit&count=1&status=Fail&message=remote",
                Map.of(), "", true);
        assertThat(installed.json().get("status").asText()).isEqualTo("OK");
        assertThat(commit(id).field("msg")).isEqualTo("remote");
        Resp abortOp = http.send("POST", "/api/_fault/fail_http?op=abort&count=1&http=502", Map.of(), "", true);
        assertThat(abortOp.json().get("status").asText()).isEqualTo("OK");
        assertThat(http.twoPc("shop", h("txn_operation", "abort", "txn_id", String.valueOf(id))).status())
                .isEqualTo(502);
        assertThat(commit(id).field("status")).isEqualTo("Success");
    }

    @Test
    void clearRemovesPendingRules() {
        doris.faults().failNext(FaultOp.STREAM_LOAD, 2, "Fail", "x");
        doris.faults().clear();
        assertThat(doris.faults().pending(FaultOp.STREAM_LOAD)).isZero();
        assertThat(http.load("shop", "events", csv(label()), eventRows(1, 1)).loadStatus()).isEqualTo("Success");
    }
}
