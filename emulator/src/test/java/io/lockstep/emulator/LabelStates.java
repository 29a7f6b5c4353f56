package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.txn.TransactionStatus;

/** Brings a single-table label of shop.orders into each state of the table in
 * docs/protocol.md#the-emulators-state-tables, asserting every step. */
final class LabelStates {
    private final SrHttp http;
    private final StarRocksEmulator sr;

    LabelStates(SrHttp http, StarRocksEmulator sr) {
        this.http = http;
        this.sr = sr;
    }

    long begin(String label) {
        Resp r = http.txn("begin", orders(label));
        assertThat(r.srStatus()).as(r.body()).isEqualTo("OK");
        return r.json().get("TxnId").asLong();
    }

    void load(String label, int from, int to) {
        Resp r = http.txn("load", ordersJson(label), orderRows(from, to));
        assertThat(r.srStatus()).as(r.body()).isEqualTo("OK");
    }

    long prepared(String label) {
        long id = begin(label);
        load(label, 1, 2);
        Resp r = http.txn("prepare", orders(label));
        assertThat(r.srStatus()).as(r.body()).isEqualTo("OK");
        return id;
    }

    long visible(String label) {
        long id = prepared(label);
        assertThat(http.txn("commit", orders(label)).srStatus()).isEqualTo("OK");
        assertThat(sr.labelState("shop", label)).isEqualTo(TransactionStatus.VISIBLE);
        return id;
    }

    long committedNotVisible(String label) {
        long id = prepared(label);
        sr.faults().publishTimeoutNext(1);
        assertThat(http.txn("commit", orders(label)).srStatus()).isEqualTo("FAILED");
        assertThat(sr.labelState("shop", label)).isEqualTo(TransactionStatus.COMMITTED);
        return id;
    }

    long aborted(String label) {
        long id = begin(label);
        assertThat(http.txn("rollback", orders(label)).srStatus()).isEqualTo("OK");
        assertThat(sr.labelState("shop", label)).isEqualTo(TransactionStatus.ABORTED);
        return id;
    }
}
