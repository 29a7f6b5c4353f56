package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static io.lockstep.emulator.TestSchema.multi;
import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.txn.TransactionStatus;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each fault of the Java API and of the HTTP admin endpoint, and restart. */
class FaultInjectionTest {
    ManualClock clock;
    StarRocksEmulator sr;
    SrHttp http;

    @BeforeEach
    void start() throws Exception {
        clock = new ManualClock();
        sr = StarRocksEmulator.builder().ddl(TestSchema.DDL).clock(clock).build().start();
        http = new SrHttp(sr.feUrl());
    }

    @AfterEach
    void stop() throws Exception {
        http.close();
        sr.close();
    }

    @Test
    void failNextAnswersWithTheChosenStatusWithoutChangingState() {
        sr.faults().failNext(FaultOp.BEGIN, 1, "INTERNAL_ERROR", "injected");
        Resp failed = http.txn("begin", orders("f-1"));
        assertThat(failed.status()).isEqualTo(200);
        assertThat(failed.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(failed.message()).isEqualTo("injected");
        assertThat(sr.labelState("shop", "f-1")).isEqualTo(TransactionStatus.UNKNOWN);
        assertThat(http.txn("begin", orders("f-1")).srStatus()).as("only the next one fails").isEqualTo("OK");
    }

    @Test
    void failNextAlsoReplacesRepliesTheFeAnswersItself() {
        http.txn("begin", orders("f-fe"));
        http.txn("load", ordersJson("f-fe"), orderRows(1, 1));
        assertThat(http.txn("commit", orders("f-fe")).srStatus()).isEqualTo("OK");
        sr.faults().failNext(FaultOp.COMMIT, 1, "FAILED", "injected");
        Resp idempotent = http.txn("commit", orders("f-fe"));
        assertThat(idempotent.hops()).containsExactly(200);
        assertThat(idempotent.message()).isEqualTo("injected");
        assertThat(http.txn("commit", orders("f-fe")).message()).startsWith("Transaction ");
        sr.faults().failNextHttp(FaultOp.GET_LOAD_STATE, 1, 500);
        assertThat(http.send("GET", "/api/shop/get_load_state?label=f-fe", Map.of(), null, false).status())
                .isEqualTo(500);
    }

    @Test
    void failNextHttpAnswersWithAnHttpError() {
        http.txn("begin", orders("f-2"));
        sr.faults().failNextHttp(FaultOp.LOAD, 2, 503);
        assertThat(http.txn("load", ordersJson("f-2"), orderRows(1, 1)).status()).isEqualTo(503);
        assertThat(http.txn("load", ordersJson("f-2"), orderRows(1, 1)).status()).isEqualTo(503);
        Resp third = http.txn("load", ordersJson("f-2"), orderRows(1, 1));
        assertThat(third.srStatus()).isEqualTo("OK");
        assertThat(sr.labelState("shop", "f-2")).isEqualTo(TransactionStatus.PREPARE);
    }

    @Test
    void dropConnectionMidBodyFailsTheClientOnly() {
        http.txn("begin", orders("f-3"));
        sr.faults().dropConnectionMidBody(FaultOp.LOAD, 1);
        assertThatThrownBy(() -> http.txn("load", ordersJson("f-3"), orderRows(1, 200)))
                .isInstanceOf(UncheckedIOException.class);
        assertThat(http.txn("load", ordersJson("f-3"), orderRows(1, 200)).srStatus()).isEqualTo("OK");
        assertThat(http.txn("commit", orders("f-3")).srStatus()).isEqualTo("OK");
        assertThat(sr.rowCount("shop", "orders")).isEqualTo(200);
    }

    @Test
    void dropReplyNextAppliesTheRequestButLosesItsReply() {
        http.txn("begin", orders("f-dr"));
        assertThat(http.txn("load", ordersJson("f-dr"), orderRows(1, 3)).srStatus()).isEqualTo("OK");
        sr.faults().dropReplyNext(FaultOp.COMMIT, 1);
        assertThat(sr.faults().pending(FaultOp.COMMIT)).isEqualTo(1);
        assertThatThrownBy(() -> http.txn("commit", orders("f-dr"))).isInstanceOf(UncheckedIOException.class);
        assertThat(sr.faults().pending(FaultOp.COMMIT)).isZero();
        assertThat(sr.labelState("shop", "f-dr")).isIn(TransactionStatus.COMMITTED, TransactionStatus.VISIBLE);
        clock.advance(Duration.ofSeconds(1));
        sr.tick();
        assertThat(sr.labelState("shop", "f-dr")).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(sr.rowCount("shop", "orders")).isEqualTo(3);
    }

    @Test
    void delayHoldsTheRequestAtLeastThatLong() {
        http.txn("begin", orders("f-4"));
        sr.faults().delay(FaultOp.LOAD, Duration.ofMillis(300));
        long startNs = System.nanoTime();
        assertThat(http.txn("load", ordersJson("f-4"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        sr.faults().delay(FaultOp.LOAD, Duration.ZERO);
    }

    @Test
    void forceExpireAbortsLikeTheTimer() {
        http.txn("begin", orders("f-5"));
        assertThat(sr.faults().forceExpire("shop", "f-5")).isTrue();
        assertThat(sr.labelState("shop", "f-5")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(sr.transaction("shop", "f-5").orElseThrow().reason()).isEqualTo("timeout by txn manager");
        assertThat(http.txn("load", ordersJson("f-5"), orderRows(1, 1)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
        assertThat(sr.faults().forceExpire("shop", "f-5")).as("already final").isFalse();
    }

    @Test
    void publishTimeoutLeavesTheTransactionCommittedUntilTheDelayPasses() {
        http.txn("begin", orders("f-6"));
        http.txn("load", ordersJson("f-6"), orderRows(1, 3));
        sr.faults().publishTimeoutNext(1);
        assertThat(http.txn("commit", orders("f-6")).srStatus()).isEqualTo("PUBLISH_TIMEOUT");
        assertThat(sr.labelState("shop", "f-6")).isEqualTo(TransactionStatus.COMMITTED);
        assertThat(sr.rowCount("shop", "orders")).as("not yet visible").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(sr.labelState("shop", "f-6")).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(sr.rowCount("shop", "orders")).isEqualTo(3);
    }

    /**
     * StarRocks publishes tablet versions in commit order: a transaction committed after one whose publish timed
     * out cannot become visible first. Found by the chaos suite: publishing the late one last let an older row
     * overwrite a newer one in a PRIMARY KEY table.
     */
    @Test
    void aCommitBehindAPublishTimeoutOnTheSameTableIsPublishedAfterIt() {
        http.txn("begin", orders("p-old"));
        http.txn("load", ordersJson("p-old"), "[{\"order_id\":1,\"status\":\"old\",\"total\":1.00}]");
        sr.faults().publishTimeoutNext(1);
        assertThat(http.txn("commit", orders("p-old")).srStatus()).isEqualTo("PUBLISH_TIMEOUT");
        http.txn("begin", orders("p-new"));
        http.txn("load", ordersJson("p-new"), "[{\"order_id\":1,\"status\":\"new\",\"total\":2.00}]");

        assertThat(http.txn("commit", orders("p-new")).srStatus()).as("waits behind p-old's publish")
                .isEqualTo("PUBLISH_TIMEOUT");
        assertThat(sr.labelState("shop", "p-new")).isEqualTo(TransactionStatus.COMMITTED);
        assertThat(sr.rowCount("shop", "orders")).isZero();

        clock.advance(Duration.ofSeconds(1));
        assertThat(sr.labelState("shop", "p-old")).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(sr.labelState("shop", "p-new")).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(sr.query("SELECT status FROM shop.orders WHERE order_id = 1").rows())
                .containsExactly(java.util.List.of("new"));
    }

    @Test
    void aCommitOnAnotherTableIsNotHeldBehindAPublishTimeout() {
        http.txn("begin", orders("q-old"));
        http.txn("load", ordersJson("q-old"), orderRows(1, 1));
        sr.faults().publishTimeoutNext(1);
        assertThat(http.txn("commit", orders("q-old")).srStatus()).isEqualTo("PUBLISH_TIMEOUT");
        Map<String, String> items = h("label", "q-items", "db", "shop", "table", "order_items", "format", "json",
                "strip_outer_array", "true");
        http.txn("begin", items);
        http.txn("load", items, "[{\"order_id\":1,\"line_no\":1}]");
        assertThat(http.txn("commit", items).srStatus()).isEqualTo("OK");
        assertThat(sr.labelState("shop", "q-items")).isEqualTo(TransactionStatus.VISIBLE);
    }

    @Test
    void restartLosesBeContextsButKeepsFeStatesAndCommittedData() {
        http.txn("begin", orders("r-open"));
        http.txn("load", ordersJson("r-open"), orderRows(1, 1));
        http.txn("begin", orders("r-prepared"));
        http.txn("load", ordersJson("r-prepared"), orderRows(10, 11));
        http.txn("prepare", orders("r-prepared"));
        http.txn("begin", orders("r-done"));
        http.txn("load", ordersJson("r-done"), orderRows(20, 22));
        http.txn("commit", orders("r-done"));
        http.txn("begin", multi("r-multi"));

        sr.faults().restart();

        assertThat(sr.liveLoadContexts()).isZero();
        assertThat(sr.labelState("shop", "r-open")).as("FE state kept").isEqualTo(TransactionStatus.PREPARE);
        assertThat(http.txn("load", ordersJson("r-open"), orderRows(2, 2)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
        assertThat(http.txn("commit", orders("r-open")).srStatus()).isEqualTo("TXN_NOT_EXISTS");
        assertThat(http.txn("commit", orders("r-prepared")).srStatus()).as("prepared data survives").isEqualTo("OK");
        assertThat(sr.labelState("shop", "r-multi")).as("unfinished multi-table tasks are aborted")
                .isEqualTo(TransactionStatus.ABORTED);
        assertThat(sr.rowCount("shop", "orders")).isEqualTo(5);
    }

    @Test
    void httpAdminEndpointDrivesTheSameFaults() {
        Resp ok = http.send("POST", "/api/_fault/fail?op=begin&count=1&status=TXN_IN_PROCESSING&message=busy",
                Map.of(), null, false);
        assertThat(ok.json().get("status").asText()).isEqualTo("OK");
        assertThat(http.txn("begin", orders("h-1")).srStatus()).isEqualTo("TXN_IN_PROCESSING");

        http.send("POST", "/api/_fault/running_txn_limit?limit=0", Map.of(), null, false);
        assertThat(http.txn("begin", orders("h-2")).message()).contains("larger than limit 0");
        http.send("POST", "/api/_fault/running_txn_limit?limit=1000", Map.of(), null, false);

        http.txn("begin", orders("h-3"));
        Resp expire = http.send("POST", "/api/_fault/expire?db=shop&label=h-3", Map.of(), null, false);
        assertThat(expire.json().get("expired").asBoolean()).isTrue();
        assertThat(sr.labelState("shop", "h-3")).isEqualTo(TransactionStatus.ABORTED);

        Resp bad = http.send("POST", "/api/_fault/fail?op=nonsense&status=X", Map.of(), null, false);
        assertThat(bad.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(bad.json().get("msg").asText()).startsWith("Unknown op 'nonsense'");

        try (SrHttp anonymous = new SrHttp(sr.feUrl())) {
            assertThat(anonymous.withoutAuth().send("POST", "/api/_fault/restart", h(), null, false).status())
                    .isEqualTo(401);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void httpAdminEndpointRejectsInvalidValuesWithFailedJson() {
        String[][] cases = {
                {"fail_http?op=begin&count=1&http=42", "http must be a server error code 500-599, got 42"},
                {"fail_http?op=begin&count=1&http=999", "http must be a server error code 500-599, got 999"},
                {"running_txn_limit?limit=-1", "limit must be >= 0, got -1"},
                {"fail?op=begin&count=1&status=NOT_A_STATUS", "status 'NOT_A_STATUS' is not a known FE/BE status"},
                {"fail?op=begin&count=-3&status=FAILED", "count must be >= 1, got -3"},
                {"drop?op=load&count=0", "count must be >= 1, got 0"},
                {"publish_timeout?count=-1", "count must be >= 1, got -1"},
                {"delay?op=load&ms=-5", "delay must be >= 0 ms"},
                {"fail?op=begin&count=4294967297&status=FAILED", "Query parameter 'count' is not an int"},
        };
        for (String[] c : cases) {
            Resp bad = http.send("POST", "/api/_fault/" + c[0], Map.of(), null, false);
            assertThat(bad.status()).as(c[0]).isEqualTo(200);
            assertThat(bad.json().get("status").asText()).as(c[0]).isEqualTo("FAILED");
            assertThat(bad.json().get("msg").asText()).as(c[0]).startsWith(c[1]);
        }
        Resp begin = http.txn("begin", orders("v-1"));
        assertThat(begin.status()).as("no invalid rule was installed").isEqualTo(200);
        assertThat(begin.srStatus()).isEqualTo("OK");
    }

    @Test
    void javaApiRejectsInvalidValuesNamingTheArgument() {
        assertThatThrownBy(() -> sr.faults().failNextHttp(FaultOp.BEGIN, 1, 42))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http");
        assertThatThrownBy(() -> sr.faults().failNext(FaultOp.BEGIN, 1, "NOT_A_STATUS", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status 'NOT_A_STATUS'");
        assertThatThrownBy(() -> sr.faults().failNext(FaultOp.BEGIN, -3, "FAILED", "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count");
        assertThatThrownBy(() -> sr.faults().setMaxRunningTxnPerDb(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    }

    @Test
    void clearRestoresTheConfiguredRunningTxnLimit() {
        http.send("POST", "/api/_fault/running_txn_limit?limit=0", Map.of(), null, false);
        assertThat(http.txn("begin", orders("c-1")).message()).contains("larger than limit 0");
        Resp cleared = http.send("POST", "/api/_fault/clear", Map.of(), null, false);
        assertThat(cleared.json().get("status").asText()).isEqualTo("OK");
        assertThat(http.txn("begin", orders("c-2")).srStatus()).isEqualTo("OK");
    }
}
