package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.txn.TransactionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad requests get the server's real error replies (never a 500 with a stack trace) and do not disturb other
 * transactions.
 */
class BadRequestTest {
    private static final String SRX = "class com.starrocks.common.StarRocksException: ";

    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(TestSchema.DDL));

    static SrHttp http;

    @BeforeAll
    static void client() {
        http = new SrHttp(SR.emulator().feUrl());
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    @Test
    void missingLabelOrDatabase() {
        Resp noLabel = http.txn("begin", h("db", "shop", "table", "orders"));
        assertThat(noLabel.status()).isEqualTo(200);
        assertThat(noLabel.message()).isEqualTo(SRX + "Empty label.");
        Resp noDb = http.txn("begin", h("label", "x", "table", "orders"));
        assertThat(noDb.message()).isEqualTo(SRX + "No database selected.");
    }

    @Test
    void sdkTransactionSupportProbeSeesASupportingFe() {
        Resp probe = http.send("POST", "/api/transaction/begin", Map.of(), null, true);
        assertThat(probe.status()).isEqualTo(200);
        assertThat(probe.keys()).containsExactly("Status", "Message");
        assertThat(probe.srStatus()).isEqualTo("FAILED");
        assertThat(probe.message()).isEqualTo(SRX + "No database selected.");
    }

    @Test
    void unknownOperation() {
        Resp r = http.send("POST", "/api/transaction/frobnicate", orders("op-1"), null, true);
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo(SRX + "Unknown transaction operation: frobnicate");
    }

    @Test
    void operationNamesAreCaseInsensitive() {
        assertThat(http.send("POST", "/api/transaction/BEGIN", orders("case-1"), null, true).srStatus())
                .isEqualTo("OK");
    }

    @Test
    void wrongMethodIsNotImplemented() {
        Resp get = http.send("GET", "/api/transaction/begin", orders("m-1"), null, true);
        assertThat(get.status()).isEqualTo(404);
        assertThat(get.json().get("msg").asText()).isEqualTo("Not implemented");
        Resp postStreamLoad = http.send("POST", "/api/shop/orders/_stream_load", h("label", "m-2"), "x", true);
        assertThat(postStreamLoad.status()).isEqualTo(404);
        Resp unknownPath = http.send("GET", "/api/nothing/here/at/all", Map.of(), null, true);
        assertThat(unknownPath.status()).isEqualTo(404);
    }

    @Test
    void nonNumericTimeoutIsRejectedByTheFe() {
        Resp r = http.txn("begin", orders("t-1", "timeout", "abc"));
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.message()).isEqualTo("class java.lang.NumberFormatException: For input string: \"abc\"");
    }

    @Test
    void negativeTimeoutIsRejectedByTheBe() {
        Resp r = http.txn("begin", orders("t-2", "timeout", "-5"));
        assertThat(r.srStatus()).isEqualTo("INVALID_ARGUMENT");
        assertThat(r.message()).isEqualTo("Invalid timeout format");
        assertThat(SR.emulator().labelState("shop", "t-2")).isEqualTo(TransactionStatus.UNKNOWN);
    }

    @Test
    void nonPositivePreparedTimeoutIsRejected() {
        http.txn("begin", orders("pt-1"));
        http.txn("load", ordersJson("pt-1"), orderRows(1, 1));
        Resp r = http.txn("prepare", orders("pt-1", "prepared_timeout", "0"));
        assertThat(r.srStatus()).isEqualTo("INVALID_ARGUMENT");
        assertThat(r.message()).isEqualTo("Invalid prepared_timeout: 0");
        assertThat(http.txn("prepare", orders("pt-1", "prepared_timeout", "30")).srStatus()).isEqualTo("OK");
    }

    @Test
    void unknownDatabaseOrTable() {
        Resp db = http.txn("begin", h("label", "u-1", "db", "nodb", "table", "orders"));
        assertThat(db.srStatus()).isEqualTo("ANALYSIS_ERROR");
        assertThat(db.message()).isEqualTo("unknown database, database=nodb");
        Resp table = http.txn("begin", orders("u-2", "table", "nope"));
        assertThat(table.srStatus()).isEqualTo("ANALYSIS_ERROR");
        assertThat(table.message()).isEqualTo("unknown table, table=nope");
        Resp commit = http.txn("commit", h("label", "u-3", "db", "nodb"));
        assertThat(commit.message()).isEqualTo(SRX + "Database[nodb] does not exist.");
        Resp load = http.txn("load", h("label", "u-4", "db", "nodb", "table", "t"), "x");
        assertThat(load.message()).isEqualTo(SRX + "Can't find db[nodb] for label[u-4]. The db may be dropped.");
    }

    @Test
    void invalidLabelIsRejected() {
        Resp r = http.txn("begin", orders("bad label!"));
        assertThat(r.srStatus()).isEqualTo("ANALYSIS_ERROR");
        assertThat(r.message()).startsWith("Label format error. regex: ^[-\\w]{1,128}$");
        Resp tooLong = http.txn("begin", orders("x".repeat(129)));
        assertThat(tooLong.srStatus()).isEqualTo("ANALYSIS_ERROR");
    }

    @Test
    void nonJsonBodyOnBeginIsMalformedTablets() {
        Resp r = http.txn("begin", orders("body-1"), "not json");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksHttpException: Malformed json tablets, "
                + "label is body-1");
    }

    @Test
    void channelHeadersMustComeTogether() {
        Resp r = http.txn("begin", orders("ch-1", "channel_num", "2"));
        assertThat(r.message()).isEqualTo("class com.starrocks.common.DdlException: Must provide channel_id when "
                + "stream load begin.");
    }

    @Test
    void loadWithAnotherDatabaseOrTableThanTheTransactionIsRejectedByTheBe() {
        http.txn("begin", orders("dbm-1"));
        Resp db = http.txn("load", h("label", "dbm-1", "db", "other", "table", "events", "format", "json"), "[]");
        assertThat(db.srStatus()).isEqualTo("INVALID_ARGUMENT");
        assertThat(db.message()).isEqualTo("Request database other not equal transaction database shop");
        assertThat(SR.emulator().labelState("shop", "dbm-1")).as("no rollback for a mismatch")
                .isEqualTo(TransactionStatus.PREPARE);
        Resp table = http.txn("load", h("label", "dbm-1", "db", "shop", "table", "order_items", "format", "json"),
                "[]");
        assertThat(table.message()).isEqualTo("Request table order_items not equal transaction table orders");
    }

    @Test
    void unknownFormatFailsTheLoadAndRollsBack() {
        http.txn("begin", orders("fmt-1"));
        Resp r = http.txn("load", orders("fmt-1", "format", "parquet"), "x");
        assertThat(r.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(r.message()).startsWith("unknown data format");
        assertThat(SR.emulator().labelState("shop", "fmt-1")).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void malformedJsonIsFilteredAndFailsAtPrepareWithoutTouchingOtherTransactions() {
        http.txn("begin", orders("mal-1"));
        http.txn("begin", orders("good-1"));
        assertThat(http.txn("load", ordersJson("mal-1"), "[{\"order_id\": 1,").srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", ordersJson("good-1"), orderRows(501, 503)).srStatus()).isEqualTo("OK");
        Resp bad = http.txn("prepare", orders("mal-1"));
        assertThat(bad.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(bad.message()).isEqualTo("too many filtered rows");
        String errorUrl = bad.json().get("ErrorURL").asText();
        assertThat(errorUrl).startsWith(SR.emulator().beUrl() + "/api/_load_error_log?file=error_log_");
        try (SrHttp raw = new SrHttp("")) {
            Resp log = raw.send("GET", errorUrl, Map.of(), null, false);
            assertThat(log.status()).isEqualTo(200);
            assertThat(log.body()).contains("Malformed JSON");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(SR.emulator().labelState("shop", "mal-1")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(http.txn("commit", orders("good-1")).srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id BETWEEN 501 AND 503")
                .rows().get(0).get(0)).isEqualTo(3L);
    }

    @Test
    void filteredRowsWithinMaxFilterRatioCommitAndStillNameTheErrorLog() {
        http.txn("begin", orders("ratio-1"));
        Map<String, String> csv = orders("ratio-1", "column_separator", ",", "max_filter_ratio", "0.5");
        assertThat(http.txn("load", csv, "601,new,1.5\n602,new\n603,new,2\n").srStatus())
                .isEqualTo("OK");
        Resp commit = http.txn("commit", orders("ratio-1"));
        assertThat(commit.srStatus()).as(commit.body()).isEqualTo("OK");
        assertThat(commit.json().get("NumberFilteredRows").asLong()).isEqualTo(1);
        assertThat(commit.json().get("NumberLoadedRows").asLong()).isEqualTo(2);
        assertThat(commit.json().has("ErrorURL")).isTrue();
    }

    @Test
    void oddRequestsNeverGetA500OrAStackTrace() {
        List<Resp> replies = new ArrayList<>();
        replies.add(http.txn("begin", orders("odd-1", "timeout", "99999999999999999999")));
        replies.add(http.txn("prepare", orders("odd-2", "prepared_timeout", "soon")));
        replies.add(http.txn("begin", orders("odd-3", "channel_id", "x", "channel_num", "y")));
        replies.add(http.txn("begin", orders("l\u00e4bel")));
        replies.add(http.txn("load", orders("odd-4", "format", "json", "max_filter_ratio", "lots"), "{"));
        Resp emptySegment = http.send("PUT", "/api//orders/_stream_load", h("Expect", "100-continue"), "x", true);
        assertThat(emptySegment.status()).as("Jetty rejects an ambiguous empty path segment").isEqualTo(400);
        assertThat(emptySegment.body()).doesNotContain("\tat ");
        replies.add(http.send("GET", "/api/shop/get_load_state", Map.of(), null, true));
        replies.add(http.send("POST", "/api/shop/orders/_cancel", Map.of(), null, true));
        replies.add(http.send("POST", "/api/query", Map.of(), "SELECT * FROM nowhere.nothing", true));
        replies.add(http.send("POST", "/api/query", Map.of(), "", true));
        replies.add(http.send("GET", "/api/_load_error_log?file=../../etc/passwd", Map.of(), null, true));
        replies.add(http.send("DELETE", "/api/transaction/begin", orders("odd-5"), null, true));
        for (Resp r : replies) {
            assertThat(r.status()).as(r.body()).isIn(200, 401, 404);
            assertThat(r.body()).doesNotContain("\tat ").doesNotContain("Internal error");
        }
    }

    @Test
    void postLoadSentToTheBeIsUnsupported() throws Exception {
        try (SrHttp be = new SrHttp(SR.emulator().beUrl())) {
            Resp r = be.send("POST", "/api/transaction/load", ordersJson("be-post"), "[]", false);
            assertThat(r.srStatus()).isEqualTo("INVALID_ARGUMENT");
        }
    }
}
