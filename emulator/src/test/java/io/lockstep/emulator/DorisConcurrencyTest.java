package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Races a client can cause (docs/protocol.md#doris-states-labels-and-timers, #what-the-doris-connector-does): the same
 * label loaded by several clients at once begins one transaction; the same transaction committed by several clients at
 * once commits once, and every other caller gets the "already committed/visible" text the Flink connector treats as
 * done; commit racing abort ends in exactly one of them.
 */
class DorisConcurrencyTest {
    private static final int CLIENTS = 6;

    @RegisterExtension
    static final DorisEmulatorExtension DORIS = new DorisEmulatorExtension(
            DorisEmulator.builder().ddl(DorisSchema.DDL).clock(new ManualClock()));
    static ExecutorService pool;

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(CLIENTS);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    /** Runs one call per client, all released at once. */
    private static List<Resp> race(Callable<Resp> call) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Resp>> futures = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            futures.add(pool.submit(() -> {
                go.await();
                return call.call();
            }));
        }
        go.countDown();
        List<Resp> replies = new ArrayList<>();
        for (Future<Resp> f : futures) {
            replies.add(f.get(30, TimeUnit.SECONDS));
        }
        return replies;
    }

    @Test
    void sameLabelFromSeveralClientsBeginsOneTransaction() throws Exception {
        DorisEmulator doris = DORIS.emulator();
        List<Resp> replies = race(() -> {
            try (DorisHttp http = new DorisHttp(doris.feUrl())) {
                return http.load("shop", "events", twoPc("race_label"), eventRows(1, 2));
            }
        });
        assertThat(replies).filteredOn(r -> "Success".equals(r.loadStatus())).hasSize(1);
        assertThat(replies).filteredOn(r -> "Label Already Exists".equals(r.loadStatus())).hasSize(CLIENTS - 1);
        assertThat(doris.labelState("shop", "race_label")).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void sameTransactionCommittedBySeveralClientsCommitsOnce() throws Exception {
        DorisEmulator doris = DORIS.emulator();
        long before = doris.rowCount("other", "events");
        long id;
        try (DorisHttp http = new DorisHttp(doris.feUrl())) {
            id = http.load("other", "events", twoPc("race_commit"), eventRows(1, 4)).txnId();
        }
        List<Resp> replies = race(() -> {
            try (DorisHttp http = new DorisHttp(doris.feUrl())) {
                return http.twoPc("other", h("txn_operation", "commit", "txn_id", String.valueOf(id)));
            }
        });
        assertThat(replies).filteredOn(r -> "Success".equals(r.field("status"))).hasSize(1);
        assertThat(replies).filteredOn(r -> !"Success".equals(r.field("status")))
                .allSatisfy(r -> assertThat(r.field("msg")).matches(".*transaction \\[" + id
                        + "\\] is already (committed|visible), not pre-committed\\."));
        assertThat(doris.rowCount("other", "events")).isEqualTo(before + 4);
    }

    @Test
    void commitRacingAbortEndsInExactlyOne() throws Exception {
        DorisEmulator doris = DORIS.emulator();
        long id;
        try (DorisHttp http = new DorisHttp(doris.feUrl())) {
            id = http.load("shop", "events", twoPc("race_both"), eventRows(1, 1)).txnId();
        }
        AtomicInteger turn = new AtomicInteger();
        List<Resp> replies = race(() -> {
            String op = turn.getAndIncrement() % 2 == 0 ? "commit" : "abort";
            try (DorisHttp http = new DorisHttp(doris.feUrl())) {
                return http.twoPc("shop", h("txn_operation", op, "txn_id", String.valueOf(id)));
            }
        });
        assertThat(replies).filteredOn(r -> "Success".equals(r.field("status"))).hasSize(1);
        DorisTxnStatus end = doris.labelState("shop", "race_both");
        assertThat(end).isIn(DorisTxnStatus.VISIBLE, DorisTxnStatus.ABORTED);
    }
}
