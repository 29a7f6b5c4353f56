package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The README's Doris quick start: a 2PC load through the FE, a commit by txn id, the data visible. */
class DorisSmokeTest {
    static DorisEmulator doris;
    static DorisHttp http;

    @BeforeAll
    static void start() throws Exception {
        doris = DorisEmulator.builder().ddl(DorisSchema.DDL).clock(new ManualClock()).build().start();
        http = new DorisHttp(doris.feUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
        doris.close();
    }

    @Test
    void twoPhaseLoadThenCommit() {
        Resp r = http.load("shop", "events", twoPc("smoke-1"), eventRows(1, 3));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.loadStatus()).isEqualTo("Success");
        assertThat(doris.labelState("shop", "smoke-1")).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        Resp c = http.twoPc("shop", h("txn_operation", "commit", "txn_id", String.valueOf(r.txnId())));
        assertThat(c.field("status")).isEqualTo("Success");
        assertThat(doris.rowCount("shop", "events")).isEqualTo(3);
        assertThat(http.loadState("shop", "smoke-1").field("data")).isEqualTo("VISIBLE");
    }
}
