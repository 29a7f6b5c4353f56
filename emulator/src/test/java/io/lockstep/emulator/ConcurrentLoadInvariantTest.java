package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.multi;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Real concurrency against the server: the in-flight lock and all-or-nothing visibility of multi-table commits. */
class ConcurrentLoadInvariantTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(TestSchema.DDL));

    static ExecutorService pool;

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(4);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    @Test
    void concurrentLoadsOfOneLabelEitherSucceedOrAreInProcessingAndLoseNothing() throws Exception {
        try (SrHttp http = new SrHttp(SR.emulator().feUrl())) {
            http.txn("begin", orders("race-1"));
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<String>>> workers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int worker = w;
            workers.add(pool.submit(() -> {
                List<String> statuses = new ArrayList<>();
                try (SrHttp http = new SrHttp(SR.emulator().feUrl())) {
                    go.await();
                    for (int i = 0; i < 15; i++) {
                        int id = worker * 1000 + i;
                        statuses.add(http.txn("load", ordersJson("race-1"), TestSchema.orderRows(id, id)).srStatus());
                    }
                }
                return statuses;
            }));
        }
        go.countDown();
        long ok = 0;
        for (Future<List<String>> f : workers) {
            for (String status : f.get(60, TimeUnit.SECONDS)) {
                assertThat(status).isIn("OK", "TXN_IN_PROCESSING");
                if ("OK".equals(status)) {
                    ok++;
                }
            }
        }
        try (SrHttp http = new SrHttp(SR.emulator().feUrl())) {
            Resp commit = http.txn("commit", orders("race-1"));
            assertThat(commit.srStatus()).isEqualTo("OK");
            assertThat(commit.json().get("NumberLoadedRows").asLong()).isEqualTo(ok);
        }
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id < 4000").rows().get(0).get(0))
                .isEqualTo(ok);
    }

    @Test
    void readersSeeAMultiTableTransactionAllOrNothing() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        Future<Integer> writer = pool.submit(() -> {
            try (SrHttp http = new SrHttp(SR.emulator().feUrl())) {
                for (int t = 0; t < 20; t++) {
                    String label = "atomic-" + t;
                    int orderId = 100_000 + t;
                    assertThat(http.txn("begin", multi(label)).srStatus()).isEqualTo("OK");
                    http.txn("load", multi(label, "table", "orders", "format", "json", "strip_outer_array", "true"),
                            TestSchema.orderRows(orderId, orderId));
                    http.txn("load", multi(label, "table", "order_items", "format", "csv", "column_separator", ","),
                            orderId + ",1,a\n" + orderId + ",2,b\n" + orderId + ",3,c\n");
                    assertThat(http.txn("commit", multi(label)).srStatus()).isEqualTo("OK");
                }
                return 20;
            } finally {
                writing.set(false);
            }
        });
        int reads = 0;
        while (writing.get() || reads == 0) {
            List<Object> row = SR.emulator().query("SELECT (SELECT COUNT(*) FROM shop.orders WHERE order_id >= 100000),"
                    + " (SELECT COUNT(*) FROM shop.order_items WHERE order_id >= 100000)").rows().get(0);
            assertThat((Long) row.get(1)).as("order_items = 3 × orders in every snapshot")
                    .isEqualTo(3 * (Long) row.get(0));
            reads++;
        }
        assertThat(writer.get(60, TimeUnit.SECONDS)).isEqualTo(20);
        assertThat(SR.emulator().rowCount("shop", "order_items")).isEqualTo(60);
    }
}
