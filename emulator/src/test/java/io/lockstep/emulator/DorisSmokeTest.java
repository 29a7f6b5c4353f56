package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's Doris quick start: a 2PC load through the FE, a commit by txn id, the data visible. */
class DorisSmokeTest {
    /** An instance field: a fresh emulator per test. */
    @RegisterExtension
    final DorisEmulatorExtension extension = new DorisEmulatorExtension(
            DorisEmulator.builder().ddl(DorisSchema.DDL).clock(new ManualClock()));

    @Test
    void twoPhaseLoadThenCommit() throws Exception {
        DorisEmulator doris = extension.emulator();
        try (DorisHttp http = new DorisHttp(doris.feUrl())) {
            twoPhaseLoadThenCommit(doris, http);
        }
    }

    private static void twoPhaseLoadThenCommit(DorisEmulator doris, DorisHttp http) {
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
