package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.txn.TransactionStatus;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One test per cell of docs/protocol.md#the-emulators-state-tables table (single-table op × label state), over real
 * HTTP in redirect mode. The clock is manual, so a COMMITTED transaction (publish timeout) stays COMMITTED.
 */
class SingleTableConformanceTest {
    static final ManualClock CLOCK = new ManualClock();
    private static final AtomicInteger SEQ = new AtomicInteger();

    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(TestSchema.DDL).clock(CLOCK));

    static SrHttp http;
    static LabelStates states;

    @BeforeAll
    static void client() {
        http = new SrHttp(SR.emulator().feUrl());
        states = new LabelStates(http, SR.emulator());
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    static String label() {
        return "st-" + SEQ.incrementAndGet();
    }

    // --- begin ---------------------------------------------------------------------------------------------

    @Test
    void beginOnUnknownLabelCreatesTransactionOnTheBe() {
        String label = label();
        Resp r = http.txn("begin", orders(label));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.keys()).containsExactly("Status", "Message", "Label", "TxnId", "BeginTxnTimeMs");
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.message()).isEmpty();
        assertThat(r.json().get("Label").asText()).isEqualTo(label);
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.PREPARE);
    }

    @Test
    void beginWhileBeContextAliveAnswersLabelAlreadyExistsWithEmptyFields() {
        String label = label();
        states.begin(label);
        Resp r = http.txn("begin", orders(label));
        assertThat(r.keys()).containsExactly("Status", "ExistingJobStatus", "Message");
        assertThat(r.srStatus()).isEqualTo("LABEL_ALREADY_EXISTS");
        assertThat(r.json().get("ExistingJobStatus").asText()).isEmpty();
        assertThat(r.message()).isEmpty();
    }

    @Test
    void beginOnPreparedLabelIsRunning() {
        String label = label();
        states.prepared(label);
        Resp r = http.txn("begin", orders(label));
        assertThat(r.srStatus()).isEqualTo("LABEL_ALREADY_EXISTS");
        assertThat(r.message()).isEqualTo("Label [" + label + "] has already been used.");
        assertThat(r.json().get("ExistingJobStatus").asText()).isEqualTo("RUNNING");
    }

    @Test
    void beginOnVisibleLabelIsFinished() {
        String label = label();
        states.visible(label);
        Resp r = http.txn("begin", orders(label));
        assertThat(r.srStatus()).isEqualTo("LABEL_ALREADY_EXISTS");
        assertThat(r.json().get("ExistingJobStatus").asText()).isEqualTo("FINISHED");
    }

    @Test
    void beginOnCommittedLabelIsFinished() {
        String label = label();
        states.committedNotVisible(label);
        Resp r = http.txn("begin", orders(label));
        assertThat(r.srStatus()).isEqualTo("LABEL_ALREADY_EXISTS");
        assertThat(r.json().get("ExistingJobStatus").asText()).isEqualTo("FINISHED");
    }

    @Test
    void beginOnAbortedLabelReusesItWithANewTxnId() {
        String label = label();
        long first = states.aborted(label);
        long second = states.begin(label);
        assertThat(second).isNotEqualTo(first);
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.PREPARE);
    }

    // --- load ----------------------------------------------------------------------------------------------

    @Test
    void loadOnUnknownLabelFailsOnTheFe() {
        String label = label();
        Resp r = http.txn("load", ordersJson(label), orderRows(1, 1));
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: Can't find the transaction "
                + "with db [shop] and label[" + label + "]. The possible reasons: 1. FE leader is started or switched; "
                + "2. The transaction timeouts and is cleaned.");
    }

    @Test
    void loadOnOpenTransactionStreamsDataOnTheBe() {
        String label = label();
        long txnId = states.begin(label);
        Resp r = http.txn("load", ordersJson(label), orderRows(1, 3));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.keys()).containsExactly("Status", "Message", "Label", "TxnId", "LoadBytes",
                "StreamLoadPlanTimeMs", "ReceivedDataTimeMs");
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.json().get("TxnId").asLong()).isEqualTo(txnId);
        assertThat(r.json().get("LoadBytes").asLong()).isEqualTo(orderRows(1, 3).length());
    }

    @Test
    void loadOnPreparedLabelIsTxnNotExists() {
        String label = label();
        states.prepared(label);
        Resp r = http.txn("load", ordersJson(label), orderRows(5, 5));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void loadOnVisibleLabelIsTxnNotExists() {
        String label = label();
        states.visible(label);
        assertThat(http.txn("load", ordersJson(label), orderRows(5, 5)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void loadOnCommittedLabelIsTxnNotExists() {
        String label = label();
        states.committedNotVisible(label);
        assertThat(http.txn("load", ordersJson(label), orderRows(5, 5)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void loadOnAbortedLabelIsTxnNotExists() {
        String label = label();
        states.aborted(label);
        assertThat(http.txn("load", ordersJson(label), orderRows(5, 5)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    // --- prepare -------------------------------------------------------------------------------------------

    @Test
    void prepareOnUnknownLabelFailsOnTheFe() {
        String label = label();
        Resp r = http.txn("prepare", orders(label));
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: No transaction found "
                + "with db[shop] and label[" + label + "]");
    }

    @Test
    void prepareOnOpenTransactionReturnsRowCountsAndDropsTheContext() {
        String label = label();
        long txnId = states.begin(label);
        states.load(label, 1, 2);
        states.load(label, 3, 3);
        Resp r = http.txn("prepare", orders(label));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.keys()).containsExactly("Status", "Message", "Label", "TxnId", "NumberTotalRows",
                "NumberLoadedRows", "NumberFilteredRows", "NumberUnselectedRows", "LoadBytes", "LoadTimeMs",
                "StreamLoadPlanTimeMs", "ReceivedDataTimeMs", "WriteDataTimeMs", "CommitAndPublishTimeMs");
        assertThat(r.json().get("TxnId").asLong()).isEqualTo(txnId);
        assertThat(r.json().get("NumberLoadedRows").asLong()).isEqualTo(3);
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.PREPARED);
        assertThat(http.txn("load", ordersJson(label), orderRows(9, 9)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void prepareWithoutAnyLoadFailsAndRollsBack() {
        String label = label();
        states.begin(label);
        Resp r = http.txn("prepare", orders(label));
        assertThat(r.srStatus()).isEqualTo("INTERNAL_ERROR");
        assertThat(r.message()).endsWith("hasn't send any data yet").contains("label=" + label);
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void prepareOnPreparedLabelIsTxnNotExists() {
        String label = label();
        states.prepared(label);
        Resp r = http.txn("prepare", orders(label));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void prepareOnVisibleLabelIsTxnNotExists() {
        String label = label();
        states.visible(label);
        assertThat(http.txn("prepare", orders(label)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void prepareOnCommittedLabelIsTxnNotExists() {
        String label = label();
        states.committedNotVisible(label);
        assertThat(http.txn("prepare", orders(label)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    @Test
    void prepareOnAbortedLabelIsTxnNotExists() {
        String label = label();
        states.aborted(label);
        assertThat(http.txn("prepare", orders(label)).srStatus()).isEqualTo("TXN_NOT_EXISTS");
    }

    // --- commit --------------------------------------------------------------------------------------------

    @Test
    void commitOnUnknownLabelFailsOnTheFe() {
        String label = label();
        Resp r = http.txn("commit", orders(label));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).endsWith("No transaction found with db[shop] and label[" + label + "]");
    }

    @Test
    void commitOnOpenTransactionIsAOnePhaseCommitOnTheBe() {
        String label = label();
        states.begin(label);
        http.txn("load", ordersJson(label), "[{\"order_id\":7001,\"status\":\"paid\",\"total\":12.25}]");
        Resp r = http.txn("commit", orders(label));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.json().get("NumberLoadedRows").asLong()).isEqualTo(1);
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(SR.emulator().query("SELECT status FROM shop.orders WHERE order_id = 7001").rows())
                .containsExactly(List.of("paid"));
    }

    @Test
    void commitOnOpenTransactionWithPublishTimeoutIsPublishTimeoutAndCommitted() {
        String label = label();
        states.begin(label);
        states.load(label, 7100, 7100);
        SR.emulator().faults().publishTimeoutNext(1);
        Resp r = http.txn("commit", orders(label));
        assertThat(r.srStatus()).isEqualTo("PUBLISH_TIMEOUT");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.COMMITTED);
    }

    @Test
    void commitOnPreparedLabelIsAnsweredByTheFe() {
        String label = label();
        long txnId = states.prepared(label);
        Resp r = http.txn("commit", orders(label));
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.keys()).containsExactly("Status", "Message", "TxnId", "Label");
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.message()).isEmpty();
        assertThat(r.json().get("TxnId").asLong()).isEqualTo(txnId);
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.VISIBLE);
    }

    @Test
    void commitOnPreparedLabelWithPublishTimeoutFailsButStaysCommitted() {
        String label = label();
        states.prepared(label);
        SR.emulator().faults().publishTimeoutNext(1);
        Resp r = http.txn("commit", orders(label, "timeout", "5"));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: publish timeout: 5000");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.COMMITTED);
        CLOCK.advance(java.time.Duration.ofSeconds(2));
        SR.emulator().tick();
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.VISIBLE);
    }

    @Test
    void commitOnVisibleLabelIsIdempotent() {
        String label = label();
        long txnId = states.visible(label);
        Resp r = http.txn("commit", orders(label));
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.message()).isEqualTo("Transaction " + txnId + " has already committed, label is " + label);
    }

    @Test
    void commitOnCommittedLabelIsIdempotent() {
        String label = label();
        long txnId = states.committedNotVisible(label);
        Resp r = http.txn("commit", orders(label));
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.message()).isEqualTo("Transaction " + txnId + " has already committed, label is " + label);
    }

    @Test
    void commitOnAbortedLabelFails() {
        String label = label();
        long txnId = states.aborted(label);
        Resp r = http.txn("commit", orders(label));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: Can not commit ABORTED "
                + "transaction " + txnId + ", label is " + label);
    }

    // --- rollback ------------------------------------------------------------------------------------------

    @Test
    void rollbackOnUnknownLabelFailsOnTheFe() {
        String label = label();
        Resp r = http.txn("rollback", orders(label));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).endsWith("No transaction found with db[shop] and label[" + label + "]");
    }

    @Test
    void rollbackOnOpenTransactionIsDoneByTheBe() {
        String label = label();
        states.begin(label);
        Resp r = http.txn("rollback", orders(label));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.keys()).containsExactly("Status", "Message", "Label");
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(SR.emulator().labelState("shop", label)).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void rollbackOnPreparedLabelIsDoneByTheFe() {
        String label = label();
        long txnId = states.prepared(label);
        Resp r = http.txn("rollback", orders(label));
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.json().get("TxnId").asLong()).isEqualTo(txnId);
        assertThat(SR.emulator().transaction("shop", label).orElseThrow().reason()).isEqualTo("User Aborted");
    }

    @Test
    void rollbackOnVisibleLabelFails() {
        String label = label();
        long txnId = states.visible(label);
        Resp r = http.txn("rollback", orders(label));
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.StarRocksException: Can not abort VISIBLE "
                + "transaction " + txnId + ", label is " + label);
    }

    @Test
    void rollbackOnCommittedLabelFails() {
        String label = label();
        long txnId = states.committedNotVisible(label);
        Resp r = http.txn("rollback", orders(label));
        assertThat(r.message()).endsWith("Can not abort COMMITTED transaction " + txnId + ", label is " + label);
    }

    @Test
    void rollbackOnAbortedLabelIsIdempotent() {
        String label = label();
        long txnId = states.aborted(label);
        Resp r = http.txn("rollback", orders(label));
        assertThat(r.srStatus()).isEqualTo("OK");
        assertThat(r.message()).isEqualTo("Transaction " + txnId + " has already aborted, label is " + label);
    }
}
