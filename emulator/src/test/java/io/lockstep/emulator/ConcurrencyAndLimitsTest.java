package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.be.BackendConfig;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.txn.TransactionStatus;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One request in flight per BE context, identical load parameters, cumulative size limits (docs/protocol.md#load-headers,
 * #timeouts-limits-and-concurrency). */
class ConcurrencyAndLimitsTest {
    /** Small limits so the size checks are reachable: 4 KiB per transaction, 1 KiB of JSON. */
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(StarRocksEmulator.builder()
            .ddl(TestSchema.DDL).backendConfig(new BackendConfig(4096, 1024)));

    static SrHttp http;
    static ExecutorService pool;

    @BeforeAll
    static void client() {
        http = new SrHttp(SR.emulator().feUrl());
        pool = Executors.newSingleThreadExecutor();
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
        pool.shutdownNow();
    }

    @Test
    void secondRequestWhileOneIsInFlightIsTxnInProcessing() throws Exception {
        http.txn("begin", orders("c-1"));
        OpHold hold = SR.emulator().faults().hold(FaultOp.LOAD);
        Future<Resp> first = pool.submit(() -> http.txn("load", ordersJson("c-1"), orderRows(1, 1)));
        assertThat(hold.awaitArrived(10, TimeUnit.SECONDS)).isTrue();
        try (SrHttp second = new SrHttp(SR.emulator().feUrl())) {
            Resp load = second.txn("load", ordersJson("c-1"), orderRows(2, 2));
            assertThat(load.srStatus()).isEqualTo("TXN_IN_PROCESSING");
            assertThat(load.keys()).containsExactly("Status", "Label", "Message");
            assertThat(load.json().get("Label").asText()).isEqualTo("c-1");
            assertThat(load.message()).isEqualTo("Transaction in processing, please retry later");
            Resp commit = second.txn("commit", orders("c-1"));
            assertThat(commit.srStatus()).isEqualTo("TXN_IN_PROCESSING");
            assertThat(commit.message()).isEqualTo("Transaction in processing, please retry later");
        } finally {
            hold.release();
        }
        assertThat(first.get(10, TimeUnit.SECONDS).srStatus()).isEqualTo("OK");
        Resp retry = http.txn("load", ordersJson("c-1"), orderRows(2, 2));
        assertThat(retry.srStatus()).as("the lock is released before the reply").isEqualTo("OK");
        assertThat(http.txn("commit", orders("c-1")).json().get("NumberLoadedRows").asLong()).isEqualTo(2);
    }

    @Test
    void differentLoadParametersAbortTheTransaction() {
        http.txn("begin", orders("c-2"));
        assertThat(http.txn("load", ordersJson("c-2"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        Resp differs = http.txn("load", orders("c-2", "format", "json"), orderRows(2, 2));
        assertThat(differs.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(differs.message()).isEqualTo("load request not equal last.");
        assertThat(SR.emulator().labelState("shop", "c-2")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(http.txn("load", ordersJson("c-2"), orderRows(3, 3)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void maxFilterRatioAndTimeoutOfLaterLoadsAreIgnored() {
        http.txn("begin", orders("c-3"));
        assertThat(http.txn("load", orders("c-3", "column_separator", ","), "1,a,1\n").srStatus()).isEqualTo("OK");
        Resp later = http.txn("load", orders("c-3", "column_separator", ",", "max_filter_ratio", "1",
                "timeout", "5"), "2,b\n");
        assertThat(later.srStatus()).isEqualTo("OK");
        Resp commit = http.txn("commit", orders("c-3"));
        assertThat(commit.srStatus()).as("the first load's max_filter_ratio (0) applies").isEqualTo("INTERNAL_ERROR");
        assertThat(commit.message()).isEqualTo("too many filtered rows");
    }

    @Test
    void jsonBodiesAccumulateAgainstTheJsonBatchLimit() {
        http.txn("begin", orders("c-4"));
        String rows = orderRows(1, 12);
        assertThat(rows.length()).isBetween(513, 1023);
        assertThat(http.txn("load", ordersJson("c-4"), rows).srStatus()).isEqualTo("OK");
        Resp second = http.txn("load", ordersJson("c-4"), rows);
        assertThat(second.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(second.message()).startsWith("The size of this batch exceed the max size [1024]  of json type data "
                + " data [ " + 2 * rows.length() + " ]. Set ignore_json_size to skip the check");
        assertThat(SR.emulator().labelState("shop", "c-4")).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void ignoreJsonSizeSkipsTheJsonCheckButNotTheBodyLimit() {
        http.txn("begin", orders("c-5"));
        String rows = orderRows(1, 12);
        java.util.Map<String, String> headers = orders("c-5", "format", "json", "strip_outer_array", "true",
                "ignore_json_size", "true");
        for (int i = 0; i < 4096 / rows.length(); i++) {
            assertThat(http.txn("load", headers, rows).srStatus()).isEqualTo("OK");
        }
        Resp over = http.txn("load", headers, rows);
        assertThat(over.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(over.message()).isEqualTo("body exceed max size: 4096, limit: 4096");
    }
}
