package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static io.lockstep.emulator.TestSchema.multi;
import static io.lockstep.emulator.TestSchema.orderRows;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.txn.TransactionStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * One test per rule of docs/protocol.md#multi-table-transactions (multi-table transactions), over real HTTP in redirect
 * mode.
 */
class MultiTableConformanceTest {
    static final ManualClock CLOCK = new ManualClock();
    private static final AtomicInteger SEQ = new AtomicInteger();

    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(TestSchema.DDL).clock(CLOCK));

    static SrHttp http;
    static ExecutorService pool;

    @BeforeAll
    static void client() {
        http = new SrHttp(SR.emulator().feUrl());
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
        pool.shutdownNow();
    }

    static String label() {
        return "mt-" + SEQ.incrementAndGet();
    }

    static Map<String, String> loadTo(String label, String table) {
        return multi(label, "table", table, "format", "json", "strip_outer_array", "true");
    }

    static String itemRows(int orderId, int lines) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 1; i <= lines; i++) {
            sb.append(i > 1 ? "," : "").append("{\"order_id\":").append(orderId).append(",\"line_no\":").append(i)
                    .append(",\"sku\":\"s").append(i).append("\"}");
        }
        return sb.append(']').toString();
    }

    static void begin(String label) {
        Resp r = http.txn("begin", multi(label));
        assertThat(r.srStatus()).as(r.body()).isEqualTo("OK");
    }

    @Test
    void beginIsAnsweredByTheFeWithoutTxnId() {
        String label = label();
        Resp r = http.txn("begin", multi(label));
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.keys()).containsExactly("Status", "Message");
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.message()).isEmpty();
    }

    @Test
    void beginTwiceNamesTheRunningTransaction() {
        String label = label();
        begin(label);
        long txnId = SR.emulator().transaction("shop", label).orElseThrow().txnId();
        Resp r = http.txn("begin", multi(label));
        assertThat(r.srStatus()).isEqualTo("LABEL_ALREADY_EXISTS");
        assertThat(r.message()).isEqualTo("Transaction already started with label [" + label + "], txnId: " + txnId);
        assertThat(r.json().get("ExistingJobStatus").asText()).isEqualTo("BEGIN");
        assertThat(r.json().get("TxnId").asLong()).isEqualTo(txnId);
    }

    @Test
    void beginOnALabelUsedBySingleTableNamesTheTransactionStatus() {
        String label = label();
        assertThat(http.txn("begin", TestSchema.orders(label)).srStatus()).isEqualTo("OK");
        Resp r = http.txn("begin", multi(label));
        assertThat(r.srStatus()).isEqualTo("LABEL_ALREADY_EXISTS");
        assertThat(r.message()).isEqualTo("Label [" + label + "] has already been used.");
        assertThat(r.json().get("ExistingJobStatus").asText()).isEqualTo("PREPARE");
        assertThat(r.json().get("Db").asText()).isEqualTo("shop");
    }

    @Test
    void prepareIsRejected() {
        String label = label();
        begin(label);
        Resp r = http.txn("prepare", multi(label));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: Unsupported operation: "
                + "TXN_PREPARE");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.PREPARE);
    }

    @Test
    void loadsOfSeveralTablesCommitAtomicallyThroughTheFe() {
        String label = label();
        begin(label);
        Resp first = http.txn("load", loadTo(label, "orders"), orderRows(9001, 9002));
        assertThat(first.hops()).containsExactly(307, 200);
        assertThat(first.srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", loadTo(label, "order_items"), itemRows(9001, 3)).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", loadTo(label, "order_items"), itemRows(9002, 3)).srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id >= 9001 AND order_id <= 9002")
                .rows().get(0).get(0)).isEqualTo(0L);
        Resp commit = http.txn("commit", multi(label));
        assertThat(commit.hops()).containsExactly(200);
        assertThat(commit.srStatus()).isEqualTo("OK");
        assertThat(commit.keys()).as("StreamLoadMultiStmtTask.commitTxn adds no entry on success")
                .containsExactly("Status", "Message");
        assertThat(commit.message()).isEmpty();
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.VISIBLE);
        List<Object> counts = SR.emulator().query("SELECT (SELECT COUNT(*) FROM shop.orders WHERE order_id BETWEEN "
                + "9001 AND 9002), (SELECT COUNT(*) FROM shop.order_items WHERE order_id BETWEEN 9001 AND 9002)")
                .rows().get(0);
        assertThat(counts).containsExactly(2L, 6L);
    }

    @Test
    void eachTableIsPlannedAtItsFirstLoadAndMustKeepItsParameters() {
        String label = label();
        begin(label);
        assertThat(http.txn("load", loadTo(label, "orders"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        Map<String, String> csv = multi(label, "table", "order_items", "format", "csv", "column_separator", ",");
        assertThat(http.txn("load", csv, "7,1,a\n").srStatus()).as("another table may use other parameters")
                .isEqualTo("OK");
        Map<String, String> changed = multi(label, "table", "orders", "format", "json");
        Resp r = http.txn("load", changed, "[" + "{\"order_id\":2}" + "]");
        assertThat(r.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(r.message()).isEqualTo("load request not equal last.");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void eachTableIsItsOwnCsvStreamEndedAtCommit() {
        String label = label();
        begin(label);
        Map<String, String> csv = multi(label, "table", "order_items", "format", "csv", "column_separator", ",");
        assertThat(http.txn("load", csv, "9701,1,a\n9701,2,").srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", loadTo(label, "orders"), orderRows(9701, 9701)).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", csv, "b").srStatus()).isEqualTo("OK");
        assertThat(http.txn("commit", multi(label)).srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().query("SELECT line_no, sku FROM shop.order_items WHERE order_id = 9701 ORDER BY "
                + "line_no").rows()).containsExactly(List.of(1, "a"), List.of(2, "b"));
    }

    @Test
    void unknownTableFailsAndAbortsTheWholeTransaction() {
        String label = label();
        begin(label);
        assertThat(http.txn("load", loadTo(label, "orders"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        Resp r = http.txn("load", loadTo(label, "nope"), "[]");
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: Failed to find table nope "
                + "in db shop");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.ABORTED);
        Resp after = http.txn("load", loadTo(label, "orders"), orderRows(2, 2));
        assertThat(after.message()).contains("has already been cancelled: Failed to find table nope in db shop");
    }

    @Test
    void crossDatabaseLoadIsRejected() {
        String label = label();
        begin(label);
        Map<String, String> otherDb = h("label", label, "db", "other", "transaction_type", "multi", "table", "events",
                "format", "json");
        Resp r = http.txn("load", otherDb, "[{\"id\":1}]");
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).endsWith("Request database other not equal transaction database shop");
    }

    @Test
    void aFailedLoadOnTheBeAbortsTheWholeTransaction() {
        String label = label();
        begin(label);
        assertThat(http.txn("load", loadTo(label, "orders"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        assertThat(http.txn("load", loadTo(label, "order_items"), itemRows(1, 1)).srStatus()).isEqualTo("OK");
        Map<String, String> changed = multi(label, "table", "order_items", "format", "json");
        assertThat(http.txn("load", changed, itemRows(1, 1)).srStatus()).isEqualTo("INTERNAL_ERROR");
        long txnId = SR.emulator().transaction("shop", label).orElseThrow().txnId();
        Resp commit = http.txn("commit", multi(label));
        assertThat(commit.srStatus()).isEqualTo("FAILED");
        assertThat(commit.message()).isEqualTo("Can not commit CANCELLED transaction " + txnId + ", label is " + label);
    }

    @Test
    void tooManyFilteredRowsFailTheCommitAndRollBackEveryTable() {
        String label = label();
        begin(label);
        assertThat(http.txn("load", loadTo(label, "orders"), orderRows(9501, 9501)).srStatus()).isEqualTo("OK");
        Map<String, String> csv = multi(label, "table", "order_items", "format", "csv", "column_separator", ",");
        assertThat(http.txn("load", csv, "9501,1\n").srStatus()).as("filtering surfaces at commit").isEqualTo("OK");
        Resp commit = http.txn("commit", multi(label));
        assertThat(commit.srStatus()).isEqualTo("FAILED");
        assertThat(commit.message()).isEqualTo("too many filtered rows");
        assertThat(commit.json().get("ErrorURL").asText()).contains("/api/_load_error_log?file=error_log_");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id = 9501").rows().get(0).get(0))
                .as("nothing of the transaction is visible").isEqualTo(0L);
    }

    @Test
    void loadsCommitsAndRollbacksAreRejectedWhileCommitting() throws Exception {
        String label = label();
        begin(label);
        assertThat(http.txn("load", loadTo(label, "orders"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        long txnId = SR.emulator().transaction("shop", label).orElseThrow().txnId();
        OpHold hold = SR.emulator().faults().hold(FaultOp.COMMIT);
        Future<Resp> commit = pool.submit(() -> http.txn("commit", multi(label)));
        assertThat(hold.awaitArrived(10, TimeUnit.SECONDS)).isTrue();
        try (SrHttp second = new SrHttp(SR.emulator().feUrl())) {
            assertThat(second.txn("load", loadTo(label, "orders"), orderRows(2, 2)).message())
                    .endsWith("is committing, can not accept new loads");
            assertThat(second.txn("commit", multi(label)).message())
                    .isEqualTo("Transaction " + txnId + " is already committing, label is " + label);
            assertThat(second.txn("rollback", multi(label)).message())
                    .isEqualTo("Can not abort transaction " + txnId + " during committing, label is " + label);
        } finally {
            hold.release();
        }
        assertThat(commit.get(10, TimeUnit.SECONDS).srStatus()).isEqualTo("OK");
    }

    @Test
    void aLoadInFlightWhenCommitStartsIsPartOfTheCommit() throws Exception {
        String label = label();
        begin(label);
        OpHold load = SR.emulator().faults().hold(FaultOp.LOAD);
        Future<Resp> inFlight = pool.submit(() -> http.txn("load", loadTo(label, "orders"), orderRows(9601, 9602)));
        assertThat(load.awaitArrived(10, TimeUnit.SECONDS)).isTrue();
        OpHold commitHold = SR.emulator().faults().hold(FaultOp.COMMIT);
        Future<Resp> commit;
        try (SrHttp second = new SrHttp(SR.emulator().feUrl())) {
            commit = pool.submit(() -> second.txn("commit", multi(label)));
            assertThat(commitHold.awaitArrived(10, TimeUnit.SECONDS)).isTrue();
            commitHold.release();
            load.release();
            assertThat(commit.get(10, TimeUnit.SECONDS).srStatus()).as("the commit waited for the load")
                    .isEqualTo("OK");
            assertThat(inFlight.get(10, TimeUnit.SECONDS).srStatus()).isEqualTo("OK");
        } finally {
            load.release();
            commitHold.release();
        }
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM shop.orders WHERE order_id BETWEEN 9601 AND 9602")
                .rows().get(0).get(0)).isEqualTo(2L);
    }

    @Test
    void loadsAreRejectedAfterRollback() {
        String label = label();
        begin(label);
        Resp rollback = http.txn("rollback", multi(label));
        assertThat(rollback.srStatus()).isEqualTo("OK");
        assertThat(rollback.message()).isEqualTo("stream load " + label + " abort");
        Resp r = http.txn("load", loadTo(label, "orders"), orderRows(1, 1));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).endsWith("has already been cancelled: user abort");
    }

    @Test
    void commitAndRollbackRepliesAreIdempotent() {
        String committed = label();
        begin(committed);
        http.txn("load", loadTo(committed, "orders"), orderRows(1, 1));
        assertThat(http.txn("commit", multi(committed)).srStatus()).isEqualTo("OK");
        long committedId = SR.emulator().transaction("shop", committed).orElseThrow().txnId();
        Resp again = http.txn("commit", multi(committed));
        assertThat(again.srStatus()).isEqualTo("OK");
        assertThat(again.message()).isEqualTo("Transaction " + committedId + " has already committed, label is "
                + committed);
        assertThat(http.txn("rollback", multi(committed)).message())
                .isEqualTo("Can not abort VISIBLE transaction " + committedId + ", label is " + committed);

        String aborted = label();
        begin(aborted);
        http.txn("rollback", multi(aborted));
        long abortedId = SR.emulator().transaction("shop", aborted).orElseThrow().txnId();
        Resp twice = http.txn("rollback", multi(aborted));
        assertThat(twice.srStatus()).isEqualTo("OK");
        assertThat(twice.message()).isEqualTo("Transaction " + abortedId + " has already aborted, label is " + aborted);
        assertThat(twice.json().get("Label").asText()).isEqualTo(aborted);
        assertThat(twice.json().get("TxnId").asLong()).isEqualTo(abortedId);
    }

    /**
     * StarRocks {@code fe/fe-core/src/main/java/com/starrocks/load/streamload/StreamLoadMgr.java}
     * ({@code commitLoadTask}) throws {@code StarRocksException("stream load task " + label + " does not exist")};
     * {@code fe/fe-core/src/main/java/com/starrocks/http/rest/TransactionLoadAction.java} answers any exception
     * with {@code e.getClass() + ": " + e.getMessage()}.
     */
    @Test
    void commitOfAnUnknownLabelNamesTheTaskWithTheExceptionClass() {
        String label = label();
        Resp r = http.txn("commit", multi(label));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: stream load task " + label
                + " does not exist");
    }

    /**
     * The same file's {@code rollbackLoadTask} builds its text without spaces around the label
     * ({@code "stream load task" + label + "does not exist"}); the exception class prefix is added as for commit.
     */
    @Test
    void rollbackOfAnUnknownLabelKeepsStarRocksMissingSpaces() {
        String label = label();
        Resp r = http.txn("rollback", multi(label));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: stream load task" + label
                + "does not exist");
    }

    @Test
    void oneLoadInFlightPerLabelAndTable() throws Exception {
        String label = label();
        begin(label);
        assertThat(http.txn("load", loadTo(label, "orders"), orderRows(1, 1)).srStatus()).isEqualTo("OK");
        OpHold hold = SR.emulator().faults().hold(FaultOp.LOAD);
        Future<Resp> first = pool.submit(() -> http.txn("load", loadTo(label, "orders"), orderRows(2, 2)));
        assertThat(hold.awaitArrived(10, TimeUnit.SECONDS)).isTrue();
        try (SrHttp second = new SrHttp(SR.emulator().feUrl())) {
            Resp busy = second.txn("load", loadTo(label, "orders"), orderRows(3, 3));
            assertThat(busy.srStatus()).isEqualTo("TXN_IN_PROCESSING");
            assertThat(busy.keys()).containsExactly("Status", "Label", "Message");
            assertThat(busy.json().get("Label").asText()).isEqualTo(label);
            assertThat(second.txn("load", loadTo(label, "order_items"), itemRows(3, 1)).srStatus())
                    .as("another table of the same label is another channel").isEqualTo("OK");
        } finally {
            hold.release();
        }
        assertThat(first.get(10, TimeUnit.SECONDS).srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.PREPARE);
    }

    @Test
    void defaultTimeoutIsTwentySecondsWhenTheHeaderIsAbsent() {
        String noHeader = label();
        String withHeader = label();
        begin(noHeader);
        assertThat(http.txn("begin", multi(withHeader, "timeout", "60")).srStatus()).isEqualTo("OK");
        CLOCK.advance(Duration.ofSeconds(20));
        assertThat(SR.emulator().labelState("shop", noHeader)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(SR.emulator().labelState("shop", withHeader)).isEqualTo(TransactionStatus.PREPARE);
        Resp r = http.txn("load", loadTo(noHeader, "orders"), orderRows(1, 1));
        assertThat(r.message()).contains("has already been cancelled: timeout by txn manager");
    }

    @Test
    void multiTableRequestsSentToTheBeAreRejected() {
        try (SrHttp be = new SrHttp(SR.emulator().beUrl())) {
            Resp r = be.txn("begin", multi(label()));
            assertThat(r.srStatus()).isEqualTo("INVALID_ARGUMENT");
            assertThat(r.message()).isEqualTo("Multi-statement transaction requests can only be sent to FE nodes, "
                    + "not BE nodes");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void opsWithoutTheMultiHeaderFindNoBeCoordinator() {
        String label = label();
        begin(label);
        Resp commit = http.txn("commit", h("label", label, "db", "shop"));
        assertThat(commit.srStatus()).isEqualTo("FAILED");
        assertThat(commit.message()).endsWith("The source type for transaction stream load with db [shop] and label["
                + label + "] should be BE, but is FE.");
        Resp load = http.txn("load", h("label", label, "db", "shop", "table", "orders", "format", "json"), "[]");
        assertThat(load.message()).endsWith("should be BE, but is FE.");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.PREPARE);
    }

    @Test
    void loadForAnUnknownLabelFails() {
        String label = label();
        Resp r = http.txn("load", loadTo(label, "orders"), orderRows(1, 1));
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: stream load task " + label
                + " does not exist");
    }
}
