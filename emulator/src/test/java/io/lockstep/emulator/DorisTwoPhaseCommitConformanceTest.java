package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.h;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * One test per cell of docs/protocol.md#doris-replies table: {@code _stream_load_2pc} commit and abort × transaction
 * state (PREPARE, PRECOMMITTED, COMMITTED, VISIBLE, ABORTED, unknown) × addressed by {@code txn_id} or by
 * {@code label}, over real HTTP through the FE's 307. The clock is manual, so a COMMITTED transaction (publish timeout)
 * stays COMMITTED.
 */
class DorisTwoPhaseCommitConformanceTest extends DorisConformanceFixture {
    private static final String FE = "TStatus: errCode = 2, detailMessage = ";
    private static final AtomicInteger SEQ = new AtomicInteger();

    static String label() {
        return "tpc_" + SEQ.incrementAndGet();
    }

    static Resp byId(String op, long txnId) {
        return http.twoPc("shop", h("txn_operation", op, "txn_id", String.valueOf(txnId)));
    }

    static Resp byLabel(String op, String label) {
        return http.twoPc("shop", h("txn_operation", op, "label", label));
    }

    static void assertRefused(Resp r, String text) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.keys()).containsExactly("status", "msg");
        assertThat(r.field("status")).isEqualTo("ANALYSIS_ERROR");
        assertThat(r.field("msg")).isEqualTo(FE + text);
    }

    // --- commit ------------------------------------------------------------------------------------------

    @Test
    void commitPrecommittedByTxnIdMakesItVisible() {
        String label = label();
        long before = doris.rowCount("shop", "events");
        long id = states.precommitted(label);
        assertThat(doris.rowCount("shop", "events")).as("not visible before commit").isEqualTo(before);
        Resp r = byId("commit", id);
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.keys()).containsExactly("status", "msg");
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(r.field("msg")).isEqualTo("transaction [" + id + "] commit successfully.");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(doris.rowCount("shop", "events")).isEqualTo(before + 2);
    }

    @Test
    void commitPrecommittedByLabel() {
        String label = label();
        long id = states.precommitted(label);
        Resp r = byLabel("commit", label);
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(r.field("msg")).isEqualTo("label [" + label + "] commit successfully.");
        assertThat(doris.transaction(id).orElseThrow().status()).isEqualTo(DorisTxnStatus.VISIBLE);
    }

    @Test
    void commitWithTxnIdAndLabelNamesBothAndTheTxnIdWins() {
        String label = label();
        long id = states.precommitted(label);
        Resp r = http.twoPc("shop", h("txn_operation", "commit", "txn_id", String.valueOf(id), "label", "other"));
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(r.field("msg")).isEqualTo("label [other] transaction [" + id + "] commit successfully.");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.VISIBLE);
    }

    @Test
    void commitOfRunningLoadByTxnIdIsNotPreCommitted() throws Exception {
        DorisLabelStates.Running running = states.prepare(label());
        assertRefused(byId("commit", running.txnId), "transaction [" + running.txnId + "] is prepare, not "
                + "pre-committed.");
        assertThat(running.release().loadStatus()).isEqualTo("Success");
    }

    @Test
    void commitOfRunningLoadByLabelFindsNoPrecommittedTransaction() throws Exception {
        String label = label();
        DorisLabelStates.Running running = states.prepare(label);
        assertRefused(byLabel("commit", label), "running transaction not found, label=" + label);
        assertThat(running.release().loadStatus()).isEqualTo("Success");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void commitOfCommittedByTxnIdIsAlreadyCommitted() {
        long id = states.committedNotVisible(label());
        assertRefused(byId("commit", id), "transaction [" + id + "] is already committed, not pre-committed.");
    }

    @Test
    void commitOfCommittedByLabelFindsNoPrecommittedTransaction() {
        String label = label();
        states.committedNotVisible(label);
        assertRefused(byLabel("commit", label), "running transaction not found, label=" + label);
    }

    @Test
    void commitOfVisibleByTxnIdIsAlreadyVisible() {
        long id = states.visible(label());
        assertRefused(byId("commit", id), "transaction [" + id + "] is already visible, not pre-committed.");
    }

    @Test
    void commitOfVisibleByLabelFindsNoPrecommittedTransaction() {
        String label = label();
        states.visible(label);
        assertRefused(byLabel("commit", label), "running transaction not found, label=" + label);
    }

    @Test
    void commitOfAbortedByTxnIdNamesTheAbortReason() {
        long id = states.aborted(label());
        assertRefused(byId("commit", id), "transaction [" + id + "] is already aborted. abort reason: User Abort");
    }

    @Test
    void commitOfAbortedByLabelFindsNoPrecommittedTransaction() {
        String label = label();
        states.aborted(label);
        assertRefused(byLabel("commit", label), "running transaction not found, label=" + label);
    }

    @Test
    void commitOfUnknownTxnIdIsNotFound() {
        assertRefused(byId("commit", 987654321L), "transaction [987654321] not found");
    }

    @Test
    void commitOfUnknownLabelIsNotFound() {
        assertRefused(byLabel("commit", "never_used"), "transaction not found, label=never_used");
    }

    @Test
    void commitOfTxnIdOfAnotherDatabaseIsNotFound() {
        long id = states.precommitted(label());
        Resp r = http.twoPc("other", h("txn_operation", "commit", "txn_id", String.valueOf(id)));
        assertRefused(r, "transaction [" + id + "] not found");
        assertThat(doris.transaction(id).orElseThrow().status()).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void repeatedCommitAnswersAlreadyVisibleWhichTheConnectorTreatsAsDone() {
        long id = states.precommitted(label());
        assertThat(byId("commit", id).field("status")).isEqualTo("Success");
        Resp again = byId("commit", id);
        assertThat(again.field("msg")).matches(".*transaction \\[" + id + "\\] is already (committed|visible), not "
                + "pre-committed\\.");
    }

    // --- abort -------------------------------------------------------------------------------------------

    @Test
    void abortPrecommittedByTxnIdDropsItsRows() {
        String label = label();
        long before = doris.rowCount("shop", "events");
        long id = states.precommitted(label);
        Resp r = byId("abort", id);
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(r.field("msg")).isEqualTo("transaction [" + id + "] abort successfully.");
        assertThat(doris.transaction(id).orElseThrow().reason()).isEqualTo("User Abort");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.rowCount("shop", "events")).isEqualTo(before);
    }

    @Test
    void abortPrecommittedByLabel() {
        String label = label();
        states.precommitted(label);
        Resp r = byLabel("abort", label);
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(r.field("msg")).isEqualTo("label [" + label + "] abort successfully.");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.ABORTED);
    }

    @Test
    void abortOfRunningLoadByTxnIdAbortsItAndTheLoadFails() throws Exception {
        String label = label();
        DorisLabelStates.Running running = states.prepare(label);
        Resp r = byId("abort", running.txnId);
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.ABORTED);
        Resp load = running.release();
        assertThat(load.loadStatus()).isEqualTo("Fail");
        assertThat(load.message()).contains("transaction [" + running.txnId + "] is already aborted");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.ABORTED);
    }

    @Test
    void abortOfRunningLoadByLabelAbortsIt() throws Exception {
        String label = label();
        DorisLabelStates.Running running = states.prepare(label);
        Resp r = byLabel("abort", label);
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(r.field("msg")).isEqualTo("label [" + label + "] abort successfully.");
        assertThat(running.release().loadStatus()).isEqualTo("Fail");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.ABORTED);
    }

    @Test
    void abortOfCommittedByTxnIdCannotAbort() {
        long id = states.committedNotVisible(label());
        assertRefused(byId("abort", id), "transaction [" + id + "] is already COMMITTED, could not abort.");
    }

    @Test
    void abortOfCommittedByLabelFindsNoRunningTransaction() {
        String label = label();
        states.committedNotVisible(label);
        assertRefused(byLabel("abort", label), "running transaction not found, label=" + label);
    }

    @Test
    void abortOfVisibleByTxnIdCannotAbort() {
        long id = states.visible(label());
        assertRefused(byId("abort", id), "transaction [" + id + "] is already VISIBLE, could not abort.");
    }

    @Test
    void abortOfVisibleByLabelFindsNoRunningTransaction() {
        String label = label();
        states.visible(label);
        assertRefused(byLabel("abort", label), "running transaction not found, label=" + label);
    }

    @Test
    void abortOfAbortedByTxnIdIsAlreadyAborted() {
        long id = states.aborted(label());
        assertRefused(byId("abort", id), "transaction [" + id + "] is already aborted, abort reason: User Abort");
    }

    @Test
    void abortOfAbortedByLabelFindsNoRunningTransaction() {
        String label = label();
        states.aborted(label);
        assertRefused(byLabel("abort", label), "running transaction not found, label=" + label);
    }

    @Test
    void abortOfUnknownTxnIdIsNotFound() {
        assertRefused(byId("abort", 987654322L), "transaction [987654322] not found");
    }

    @Test
    void abortOfUnknownLabelIsNotFound() {
        assertRefused(byLabel("abort", "never_used_either"), "transaction not found, label=never_used_either");
    }

    // --- request errors ----------------------------------------------------------------------------------

    @Test
    void unknownOperationIsAnInternalError() {
        long id = states.precommitted(label());
        Resp r = byId("Commit", id);
        assertThat(r.field("status")).isEqualTo("INTERNAL_ERROR");
        assertThat(r.field("msg")).isEqualTo("transaction operation should be 'commit' or 'abort'");
        assertThat(doris.transaction(id).orElseThrow().status()).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void nonNumericTxnIdCannotBeConverted() {
        Resp r = http.twoPc("shop", h("txn_operation", "commit", "txn_id", "12x"));
        assertThat(r.field("status")).isEqualTo("INTERNAL_ERROR");
        assertThat(r.field("msg")).startsWith("convert txn_id [12x] failed, reason=");
    }

    @Test
    void neitherTxnIdNorLabelIsRefusedByTheFe() {
        Resp r = http.twoPc("shop", h("txn_operation", "commit"));
        assertThat(r.hops()).containsExactly(200);
        assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(r.json().get("msg").asText()).isEqualTo("No transaction id or label selected.");
    }

    @Test
    void tableSegmentInThePathIsAcceptedAndIgnored() {
        long id = states.precommitted(label());
        Resp r = http.send("PUT", "/api/shop/events/_stream_load_2pc",
                h("txn_operation", "commit", "txn_id", String.valueOf(id)), "", true);
        assertThat(r.field("status")).isEqualTo("Success");
        assertThat(doris.transaction(id).orElseThrow().status()).isEqualTo(DorisTxnStatus.VISIBLE);
    }

    @Test
    void unknownDatabaseIsRefused() {
        Resp r = http.twoPc("nodb", h("txn_operation", "commit", "txn_id", "1"));
        assertRefused(r, "unknown database, database=nodb");
    }
}
