package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.txn.TransactionStatus;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** get_load_state, _cancel, health, the classic stream load and the query endpoint. */
class EndpointsTest {
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
    void getLoadStateUsesLowercaseKeys() {
        Resp unknown = http.send("GET", "/api/shop/get_load_state?label=never", Map.of(), null, true);
        assertThat(unknown.keys()).containsExactly("state", "status", "code", "msg", "message");
        assertThat(unknown.json().get("state").asText()).isEqualTo("UNKNOWN");
        assertThat(unknown.json().get("status").asText()).isEqualTo("OK");

        http.txn("begin", orders("ls-1"));
        http.txn("rollback", orders("ls-1"));
        Resp aborted = http.send("GET", "/api/shop/get_load_state?label=ls-1", Map.of(), null, true);
        assertThat(aborted.json().get("state").asText()).isEqualTo("ABORTED");
        assertThat(aborted.json().get("reason").asText()).isEqualTo("transaction is aborted by user.");

        Resp badDb = http.send("GET", "/api/nodb/get_load_state?label=x", Map.of(), null, true);
        assertThat(badDb.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(badDb.json().get("msg").asText()).isEqualTo("unknown database, database=nodb");
    }

    @Test
    void cancelAbortsTheTransaction() {
        http.txn("begin", orders("cx-1"));
        http.txn("load", ordersJson("cx-1"), orderRows(1, 1));
        http.txn("prepare", orders("cx-1"));
        Resp cancel = http.send("POST", "/api/shop/orders/_cancel?label=cx-1", Map.of(), null, true);
        assertThat(cancel.keys()).containsExactly("status", "code", "msg", "message");
        assertThat(cancel.json().get("status").asText()).isEqualTo("OK");
        assertThat(SR.emulator().labelState("shop", "cx-1")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(SR.emulator().transaction("shop", "cx-1").orElseThrow().reason()).isEqualTo("user cancel");
        Resp again = http.send("POST", "/api/shop/orders/_cancel?label=cx-1", Map.of(), null, true);
        assertThat(again.json().get("status").asText()).isEqualTo("FAILED");
    }

    @Test
    void beListsItsLiveTransactions() throws Exception {
        http.txn("begin", orders("list-1", "timeout", "90"));
        http.txn("load", ordersJson("list-1"), orderRows(1, 2));
        try (SrHttp be = new SrHttp(SR.emulator().beUrl())) {
            Resp r = be.send("POST", "/api/transaction/list", Map.of(), null, false);
            com.fasterxml.jackson.databind.JsonNode entry = null;
            for (com.fasterxml.jackson.databind.JsonNode e : r.json()) {
                if ("list-1".equals(e.get("Label").asText())) {
                    entry = e;
                }
            }
            assertThat(entry).as(r.body()).isNotNull();
            assertThat(entry.get("Status").asText()).isEqualTo("OK");
            assertThat(entry.get("InProcessing").asBoolean()).isFalse();
            assertThat(entry.get("NumberLoadedRows").asLong()).isEqualTo(2);
            assertThat(entry.get("TransactionTimeoutSec").asLong()).isEqualTo(90);
        }
        http.txn("rollback", orders("list-1"));
    }

    @Test
    void healthOnBothListeners() throws Exception {
        Resp fe = http.send("GET", "/api/health", Map.of(), null, false);
        assertThat(fe.keys()).containsExactly("total_backend_num", "online_backend_num", "status");
        try (SrHttp be = new SrHttp(SR.emulator().beUrl())) {
            Resp r = be.send("GET", "/api/health", Map.of(), null, false);
            assertThat(r.json().get("msg").asText()).isEqualTo("To Be Added");
        }
    }

    @Test
    void classicStreamLoadUsesTheClassicVocabulary() {
        Map<String, String> headers = h("Expect", "100-continue", "label", "cl-1", "column_separator", ",");
        Resp ok = http.send("PUT", "/api/shop/orders/_stream_load", headers, "701,new,1\n702,new,2\n", true);
        assertThat(ok.hops()).containsExactly(307, 200);
        assertThat(ok.srStatus()).isEqualTo("Success");
        assertThat(ok.message()).isEqualTo("OK");
        assertThat(ok.keys()).startsWith("TxnId", "Label", "Status", "Message", "NumberTotalRows");
        assertThat(ok.json().get("NumberLoadedRows").asLong()).isEqualTo(2);
        assertThat(SR.emulator().labelState("shop", "cl-1")).isEqualTo(TransactionStatus.VISIBLE);

        Resp dup = http.send("PUT", "/api/shop/orders/_stream_load", headers, "701,new,1\n", true);
        assertThat(dup.srStatus()).isEqualTo("Label Already Exists");
        assertThat(dup.json().get("ExistingJobStatus").asText()).isEqualTo("FINISHED");

        Resp bad = http.send("PUT", "/api/shop/orders/_stream_load",
                h("Expect", "100-continue", "label", "cl-2", "column_separator", ","), "703,new\n", true);
        assertThat(bad.srStatus()).isEqualTo("Fail");
        assertThat(bad.message()).isEqualTo("too many filtered rows");
        assertThat(bad.json().get("ErrorURL").asText()).contains("/api/_load_error_log?file=error_log_");

        SR.emulator().faults().publishTimeoutNext(1);
        Resp slow = http.send("PUT", "/api/shop/orders/_stream_load",
                h("Expect", "100-continue", "label", "cl-3", "column_separator", ","), "704,new,4\n", true);
        assertThat(slow.srStatus()).isEqualTo("Publish Timeout");
    }

    @Test
    void queryEndpointIsReadOnly() {
        http.txn("begin", orders("q-1"));
        http.txn("load", ordersJson("q-1"), orderRows(801, 802));
        http.txn("commit", orders("q-1"));
        Resp q = http.send("POST", "/api/query", Map.of(),
                "SELECT order_id, total FROM shop.orders WHERE order_id >= 801 ORDER BY order_id", false);
        assertThat(q.json().get("columns").toString()).isEqualTo("[\"order_id\",\"total\"]");
        assertThat(q.json().get("rows").size()).isEqualTo(2);
        assertThat(q.body().replaceAll("\\s", "")).as("DECIMAL scale kept").contains("[[801,801.50],[802,802.50]]");
        Resp write = http.send("POST", "/api/query", Map.of(), "DELETE FROM shop.orders", false);
        assertThat(write.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id >= 801").rows().get(0).get(0))
                .isEqualTo(2L);
    }

    @Test
    void queryEndpointRefusesMoreThanOneStatementAndOnlyAdvertisesWhatItRuns() {
        Resp two = http.send("POST", "/api/query", Map.of(), "SELECT 1; DELETE FROM shop.orders", false);
        assertThat(two.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(two.json().get("msg").asText()).startsWith("Only one SQL statement per query is allowed");

        Resp trailing = http.send("POST", "/api/query", Map.of(), "SELECT 'a;b' AS v ;  ", false);
        assertThat(trailing.json().get("rows").toString()).as("a ';' inside a string literal and one trailing ';'")
                .isEqualTo("[[\"a;b\"]]");

        Resp show = http.send("POST", "/api/query", Map.of(), "SHOW TABLES FROM shop", false);
        assertThat(show.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(show.json().get("msg").asText()).isEqualTo("Only read-only queries (SELECT, WITH) are allowed, "
                + "got: SHOW");
    }

    @Test
    void liveListCountsCompleteRecordsAndPrepareAddsTheUnterminatedLastOne() throws Exception {
        http.txn("begin", orders("list-carry"));
        http.txn("load", orders("list-carry", "column_separator", ","), "901,new,1.00\n902,new,2.00");
        try (SrHttp be = new SrHttp(SR.emulator().beUrl())) {
            assertThat(listEntry(be, "list-carry").get("NumberTotalRows").asLong())
                    .as("the record without a row delimiter may still be continued by the next load")
                    .isEqualTo(1);
            Resp prepare = http.txn("prepare", orders("list-carry"));
            assertThat(prepare.json().get("NumberTotalRows").asLong()).as("prepare ends the stream").isEqualTo(2);
        }
        http.txn("rollback", orders("list-carry"));
    }

    private static com.fasterxml.jackson.databind.JsonNode listEntry(SrHttp be, String label) {
        Resp r = be.send("POST", "/api/transaction/list", Map.of(), null, false);
        for (com.fasterxml.jackson.databind.JsonNode e : r.json()) {
            if (label.equals(e.get("Label").asText())) {
                return e;
            }
        }
        throw new AssertionError("no entry for " + label + " in " + r.body());
    }

    @Test
    void aUtf8LabelIsEchoedUnchanged() throws Exception {
        java.net.URI be = java.net.URI.create(SR.emulator().beUrl());
        try (java.net.Socket socket = new java.net.Socket(be.getHost(), be.getPort())) {
            socket.setSoTimeout(10_000);
            String head = "POST /api/transaction/begin HTTP/1.1\r\nHost: " + be.getHost() + "\r\n"
                    + "Authorization: " + SrHttp.basic("root", "") + "\r\n"
                    + "label: l\u00e4bel\r\ndb: shop\r\ntable: orders\r\nContent-Length: 0\r\n"
                    + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            String reply = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(reply).contains("l\u00e4bel").doesNotContain("l\u00c3\u00a4bel");
        }
    }

    @Test
    void aHeaderOverTheSizeLimitGetsAJsonError() {
        Resp r = http.send("POST", "/api/transaction/begin", orders("big-1", "columns", "x".repeat(20_000)), null,
                false);
        assertThat(r.status()).isEqualTo(431);
        assertThat(r.headers().get("content-type")).startsWith("application/json");
        assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(r.json().get("msg").asText()).startsWith("HTTP 431");
    }

    @Test
    void theBeAnswersUnknownPathsWithJson() throws Exception {
        try (SrHttp be = new SrHttp(SR.emulator().beUrl())) {
            Resp r = be.send("GET", "/api/no/such/path", Map.of(), null, false);
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
            assertThat(r.json().get("msg").asText()).isEqualTo("Not Found");
        }
    }
}
