package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.txn.TransactionStatus;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Transaction timers (docs/protocol.md#timeouts-limits-and-concurrency) on a manual clock over HTTP: no sleeps. */
class TimerTest {
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
    void beginTimeoutDefaultsTo600Seconds() {
        http.txn("begin", orders("tm-1"));
        clock.advance(Duration.ofSeconds(599));
        assertThat(sr.labelState("shop", "tm-1")).isEqualTo(TransactionStatus.PREPARE);
        clock.advance(Duration.ofSeconds(1));
        assertThat(sr.labelState("shop", "tm-1")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(sr.transaction("shop", "tm-1").orElseThrow().reason()).isEqualTo("timeout by txn manager");
        Resp load = http.txn("load", ordersJson("tm-1"), orderRows(1, 1));
        assertThat(load.srStatus()).as("the BE context went with the transaction").isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void beginTimeoutHeaderIsHonoured() {
        http.txn("begin", orders("tm-2", "timeout", "30"));
        clock.advance(Duration.ofSeconds(30));
        assertThat(sr.labelState("shop", "tm-2")).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void preparedTimeoutDefaultsToOneDayAndIsSetByTheHeader() {
        http.txn("begin", orders("tm-3"));
        http.txn("load", ordersJson("tm-3"), orderRows(1, 1));
        assertThat(http.txn("prepare", orders("tm-3")).srStatus()).isEqualTo("OK");
        http.txn("begin", orders("tm-4"));
        http.txn("load", ordersJson("tm-4"), orderRows(2, 2));
        assertThat(http.txn("prepare", orders("tm-4", "prepared_timeout", "120")).srStatus()).isEqualTo("OK");
        clock.advance(Duration.ofSeconds(120));
        assertThat(sr.labelState("shop", "tm-4")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(sr.labelState("shop", "tm-3")).isEqualTo(TransactionStatus.PREPARED);
        clock.advance(Duration.ofSeconds(86_400 - 120));
        assertThat(sr.labelState("shop", "tm-3")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(http.txn("commit", orders("tm-3")).message()).contains("Can not commit ABORTED transaction");
    }

    @Test
    void finishedLabelsAreForgottenAfterThreeDays() {
        http.txn("begin", orders("tm-5"));
        http.txn("load", ordersJson("tm-5"), orderRows(1, 1));
        assertThat(http.txn("commit", orders("tm-5")).srStatus()).isEqualTo("OK");
        clock.advance(Duration.ofSeconds(259_200 - 1));
        assertThat(sr.labelState("shop", "tm-5")).isEqualTo(TransactionStatus.VISIBLE);
        clock.advance(Duration.ofSeconds(1));
        assertThat(sr.labelState("shop", "tm-5")).isEqualTo(TransactionStatus.UNKNOWN);
        Resp commit = http.txn("commit", orders("tm-5"));
        assertThat(commit.message()).endsWith("No transaction found with db[shop] and label[tm-5]");
        assertThat(http.txn("begin", orders("tm-5")).srStatus()).as("a forgotten label is reusable").isEqualTo("OK");
        assertThat(sr.rowCount("shop", "orders")).as("forgetting a label keeps its data").isEqualTo(1);
    }

    @Test
    void idleTransactionTimeoutAbortsOnTheBeWhenNoDataArrives() {
        http.txn("begin", orders("idle-1", "idle_transaction_timeout", "10"));
        clock.advance(Duration.ofSeconds(9));
        assertThat(http.txn("load", ordersJson("idle-1"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        clock.advance(Duration.ofSeconds(9));
        sr.tick();
        assertThat(sr.labelState("shop", "idle-1")).as("activity restarts the idle timer")
                .isEqualTo(TransactionStatus.PREPARE);
        clock.advance(Duration.ofSeconds(1));
        sr.tick();
        assertThat(sr.labelState("shop", "idle-1")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(sr.transaction("shop", "idle-1").orElseThrow().reason())
                .isEqualTo("transaction is aborted by idle timeout 10 seconds.");
    }

    @Test
    void runningTransactionLimitCountsPrepareAndPrepared() {
        sr.faults().setMaxRunningTxnPerDb(2);
        http.txn("begin", orders("lim-1"));
        http.txn("begin", orders("lim-2"));
        http.txn("load", ordersJson("lim-2"), orderRows(1, 1));
        http.txn("prepare", orders("lim-2"));
        Resp third = http.txn("begin", orders("lim-3"));
        assertThat(third.srStatus()).isEqualTo("ANALYSIS_ERROR");
        long dbId = sr.catalog().database("shop").orElseThrow().id();
        assertThat(third.message()).isEqualTo("current running txns on db " + dbId + " is 2, larger than limit 2");
        http.txn("rollback", orders("lim-1"));
        assertThat(http.txn("begin", orders("lim-3")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("begin", TestSchema.h("label", "lim-4", "db", "other", "table", "events")).srStatus())
                .as("the limit is per database").isEqualTo("OK");
    }
}
