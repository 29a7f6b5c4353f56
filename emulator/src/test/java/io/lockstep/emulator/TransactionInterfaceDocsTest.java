package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.orders;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.txn.TransactionStatus;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The curl sequences of StarRocks' "Stream Load transaction interface" docs, as a client following redirects
 * with {@code --location-trusted} would send them: begin → load ×2 → prepare → commit; rollback; label reuse
 * after an abort.
 */
class TransactionInterfaceDocsTest {
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

    private static Map<String, String> csvLoad(String label) {
        return orders(label, "Expect", "100-continue", "column_separator", ",");
    }

    @Test
    void beginLoadTwicePrepareCommit() {
        Resp begin = http.txn("begin", orders("docs-1", "Expect", "100-continue"));
        assertThat(begin.srStatus()).isEqualTo("OK");
        long txnId = begin.json().get("TxnId").asLong();

        Resp load1 = http.txn("load", csvLoad("docs-1"), "1,new,10.00\n2,new,20.00\n");
        Resp load2 = http.txn("load", csvLoad("docs-1"), "3,paid,30.00\n");
        assertThat(load1.srStatus()).isEqualTo("OK");
        assertThat(load2.srStatus()).isEqualTo("OK");
        assertThat(load2.json().get("TxnId").asLong()).isEqualTo(txnId);
        assertThat(countOrders(1, 3)).as("nothing visible before commit").isZero();

        Resp prepare = http.txn("prepare", orders("docs-1", "Expect", "100-continue"));
        assertThat(prepare.srStatus()).isEqualTo("OK");
        assertThat(prepare.json().get("NumberTotalRows").asLong()).isEqualTo(3);
        assertThat(prepare.json().get("NumberLoadedRows").asLong()).isEqualTo(3);
        assertThat(countOrders(1, 3)).as("nothing visible while PREPARED").isZero();

        Resp commit = http.txn("commit", orders("docs-1", "Expect", "100-continue"));
        assertThat(commit.srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().labelState("shop", "docs-1")).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(SR.emulator().query("SELECT order_id, status FROM shop.orders WHERE order_id <= 3 ORDER BY order_id")
                .rows())
                .containsExactly(List.of(1L, "new"), List.of(2L, "new"), List.of(3L, "paid"));
    }

    private static long countOrders(int from, int to) {
        return (Long) SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id BETWEEN " + from + " AND "
                + to).rows().get(0).get(0);
    }

    @Test
    void beginLoadRollback() {
        assertThat(http.txn("begin", orders("docs-2")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csvLoad("docs-2"), "100,new,1.00\n").srStatus()).isEqualTo("OK");
        Resp rollback = http.txn("rollback", orders("docs-2"));
        assertThat(rollback.srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().labelState("shop", "docs-2")).isEqualTo(TransactionStatus.ABORTED);
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id = 100").rows().get(0).get(0))
                .isEqualTo(0L);
    }

    @Test
    void labelIsReusableOnlyAfterAbort() {
        assertThat(http.txn("begin", orders("docs-3")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("rollback", orders("docs-3")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("begin", orders("docs-3")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csvLoad("docs-3"), "200,new,1.00\n").srStatus()).isEqualTo("OK");
        assertThat(http.txn("commit", orders("docs-3")).srStatus()).isEqualTo("OK");
        Resp reuse = http.txn("begin", orders("docs-3"));
        assertThat(reuse.srStatus()).isEqualTo("LABEL_ALREADY_EXISTS");
        assertThat(reuse.json().get("ExistingJobStatus").asText()).isEqualTo("FINISHED");
    }

    @Test
    void csvLoadsOfOneTransactionAreOneStream() {
        assertThat(http.txn("begin", orders("docs-5")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csvLoad("docs-5"), "401,new,1.00\n402,new,").srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csvLoad("docs-5"), "2.50\n403,paid,3.00").srStatus()).isEqualTo("OK");
        Resp commit = http.txn("commit", orders("docs-5"));
        assertThat(commit.srStatus()).as(commit.body()).isEqualTo("OK");
        assertThat(commit.json().get("NumberLoadedRows").asLong())
                .as("a record split across loads is one record; the last one is read at commit").isEqualTo(3);
        assertThat(SR.emulator().query("SELECT order_id, status, total FROM shop.orders WHERE order_id BETWEEN 401 AND"
                + " 403 ORDER BY order_id").rows()).containsExactly(
                List.of(401L, "new", new BigDecimal("1.00")),
                List.of(402L, "new", new BigDecimal("2.50")),
                List.of(403L, "paid", new BigDecimal("3.00")));
    }

    @Test
    void aRecordWithoutItsDelimiterRunsIntoTheNextLoad() {
        assertThat(http.txn("begin", orders("docs-6")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csvLoad("docs-6"), "501,new,1.00").srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csvLoad("docs-6"), "502,new,2.00\n").srStatus()).isEqualTo("OK");
        Resp prepare = http.txn("prepare", orders("docs-6"));
        assertThat(prepare.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(prepare.message()).isEqualTo("too many filtered rows");
    }

    @Test
    void labelsAreScopedPerDatabase() {
        assertThat(http.txn("begin", orders("docs-4")).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csvLoad("docs-4"), "300,new,1.00\n").srStatus()).isEqualTo("OK");
        assertThat(http.txn("commit", orders("docs-4")).srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().labelState("other", "docs-4")).isEqualTo(TransactionStatus.UNKNOWN);
        Resp otherDb = http.txn("begin", Map.of("label", "docs-4", "db", "other", "table", "events"));
        assertThat(otherDb.srStatus()).as("a finished label of shop is free in other").isEqualTo("OK");
    }
}
