package io.lockstep.emulator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The setup the Doris conformance classes share: one Doris-mode emulator per class with {@link DorisSchema#DDL}
 * on a {@link ManualClock} (so a COMMITTED transaction stays COMMITTED until the test moves time), a
 * {@link DorisHttp} client on its FE and the label-state helper. Subclasses run one at a time (the module's tests
 * are not run in parallel), each with its own emulator from {@link #start()}.
 */
abstract class DorisConformanceFixture {
    static DorisEmulator doris;
    static DorisHttp http;
    static DorisLabelStates states;

    @BeforeAll
    static void start() throws Exception {
        doris = DorisEmulator.builder().ddl(DorisSchema.DDL).clock(new ManualClock()).build().start();
        http = new DorisHttp(doris.feUrl());
        states = new DorisLabelStates(http, doris);
    }

    /**
     * A transaction left COMMITTED by a publish timeout holds back later publishes on its table (versions are
     * published in order), so each test's leftovers are published before the next test.
     */
    @AfterEach
    void publishLeftovers() {
        doris.faults().clear();
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
        doris.close();
    }
}
