package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Brings a label of shop.events into each Doris transaction state over HTTP, asserting every step. */
final class DorisLabelStates {
    private final DorisHttp http;
    private final DorisEmulator doris;

    DorisLabelStates(DorisHttp http, DorisEmulator doris) {
        this.http = http;
        this.doris = doris;
    }

    /** A 2PC load held in flight after begin (PREPARE) until {@link #release()}. */
    final class Running {
        final long txnId;
        final CompletableFuture<Resp> reply;
        private final OpHold hold;

        Running(long txnId, CompletableFuture<Resp> reply, OpHold hold) {
            this.txnId = txnId;
            this.reply = reply;
            this.hold = hold;
        }

        /** Lets the load finish and returns its reply. */
        Resp release() throws Exception {
            hold.release();
            return reply.get(20, TimeUnit.SECONDS);
        }
    }

    Running prepare(String label) throws Exception {
        OpHold hold = doris.faults().hold(FaultOp.STREAM_LOAD);
        CompletableFuture<Resp> reply = CompletableFuture.supplyAsync(
                () -> http.load("shop", "events", twoPc(label), eventRows(1, 2)));
        assertThat(hold.awaitArrived(20, TimeUnit.SECONDS)).as("load reached the BE").isTrue();
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PREPARE);
        return new Running(doris.transaction("shop", label).orElseThrow().txnId(), reply, hold);
    }

    long precommitted(String label) {
        Resp r = http.load("shop", "events", twoPc(label), eventRows(1, 2));
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        return r.txnId();
    }

    long visible(String label) {
        long id = precommitted(label);
        assertThat(commit(id).field("status")).isEqualTo("Success");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.VISIBLE);
        return id;
    }

    long committedNotVisible(String label) {
        long id = precommitted(label);
        doris.faults().publishTimeoutNext(1);
        assertThat(commit(id).field("status")).isEqualTo("Success");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.COMMITTED);
        return id;
    }

    long aborted(String label) {
        long id = precommitted(label);
        Resp r = http.twoPc("shop", h("txn_operation", "abort", "txn_id", String.valueOf(id)));
        assertThat(r.field("status")).as(r.body()).isEqualTo("Success");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.ABORTED);
        return id;
    }

    Resp commit(long txnId) {
        return http.twoPc("shop", h("txn_operation", "commit", "txn_id", String.valueOf(txnId)));
    }
}
