package io.lockstep.emulator.doris;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.util.Optional;

/**
 * The BE's {@code PUT /api/{db}[/{table}]/_stream_load_2pc} in Doris mode
 * (docs/protocol.md#doris-endpoints-redirects-and-headers, #doris-replies, #doris-states-labels-and-timers; BE
 * {@code stream_load_2pc.cpp}, FE {@code loadTxn2PC}, {@code DatabaseTransactionMgr}): commits or aborts a
 * pre-committed load transaction named by {@code txn_id} (wins when both are sent) or {@code label}.
 *
 * <p>By label, commit looks for the label's PRECOMMITTED transaction and abort for its PRECOMMITTED or PREPARE one
 * ("transaction not found, label=L" when the label is unknown, "running transaction not found, label=L" when no
 * transaction is eligible). By id, the transaction's status decides: commit needs PRECOMMITTED ("is prepare",
 * "is already committed", "is already visible" + ", not pre-committed.", "is already aborted. abort reason: R");
 * abort needs PREPARE or PRECOMMITTED ("is already aborted, abort reason: R", "is already COMMITTED, could not
 * abort."). Commit publishes the kept rows (VISIBLE, or COMMITTED and visible later under the publish-timeout
 * fault); abort drops them with reason {@code User Abort}. Thread-safe.
 */
final class DorisTwoPhaseCommit {
    static final String USER_ABORT = "User Abort";

    private final Backend be;

    DorisTwoPhaseCommit(Backend backend) {
        this.be = backend;
    }

    /** The fault op of a request: COMMIT or ABORT by {@code txn_operation}, or null for another value. */
    static FaultOp faultOp(ServerRequest req) {
        String op = req.headerOrEmpty("txn_operation");
        return "commit".equals(op) ? FaultOp.COMMIT : "abort".equals(op) ? FaultOp.ABORT : null;
    }

    /** Executes one 2PC request; never throws. */
    Reply execute(ServerRequest req, String dbName) {
        String authorization = req.header("authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return DorisTxnOpResult.reply(DorisTxnOpResult.NOT_AUTHORIZED, "no valid Basic authorization");
        }
        BasicAuth.Result auth = be.auth().check(authorization);
        if (!auth.ok()) {
            return DorisTxnOpResult.feRefusal(auth.error() + " (using password: YES)");
        }
        String op = req.headerOrEmpty("txn_operation");
        if (!op.equals("commit") && !op.equals("abort")) {
            return DorisTxnOpResult.reply(DorisTxnOpResult.INTERNAL_ERROR,
                    "transaction operation should be 'commit' or 'abort'");
        }
        boolean commit = op.equals("commit");
        String txnIdText = req.headerOrEmpty("txn_id");
        String label = req.headerOrEmpty("label");
        Long txnId = null;
        if (!txnIdText.isEmpty()) {
            try {
                txnId = Long.parseLong(txnIdText);
            } catch (NumberFormatException e) {
                return DorisTxnOpResult.reply(DorisTxnOpResult.INTERNAL_ERROR, "convert txn_id [" + txnIdText
                        + "] failed, reason=" + e.getMessage());
            }
        }
        if (txnId == null && label.isEmpty()) {
            return DorisTxnOpResult.feRefusal("No transaction id or label selected.");
        }
        if (be.catalog().database(dbName).isEmpty()) {
            // The 2PC doc's text, without the old "default_cluster:" prefix.
            return DorisTxnOpResult.feRefusal("unknown database, database=" + dbName);
        }
        be.faults().pause(commit ? FaultOp.COMMIT : FaultOp.ABORT);
        TransactionSnapshot txn;
        if (txnId != null) {
            Optional<TransactionSnapshot> found = be.transactions().get(txnId).filter(t -> t.database().equals(dbName));
            if (found.isEmpty()) {
                return DorisTxnOpResult.feRefusal("transaction [" + txnId + "] not found");
            }
            txn = found.get();
        } else {
            Optional<TransactionSnapshot> latest = be.transactions().latest(dbName, label);
            if (latest.isEmpty()) {
                return DorisTxnOpResult.feRefusal("transaction not found, label=" + label);
            }
            TransactionStatus s = latest.get().status();
            boolean eligible = s == TransactionStatus.PREPARED || (!commit && s == TransactionStatus.PREPARE);
            if (!eligible) {
                return DorisTxnOpResult.feRefusal("running transaction not found, label=" + label);
            }
            txn = latest.get();
        }
        String done = (txnId != null && !label.isEmpty() ? "label [" + label + "] transaction [" + txnId + "] "
                : txnId != null ? "transaction [" + txnId + "] " : "label [" + label + "] ")
                + op + " successfully.";
        return commit ? commit(txn, done) : abort(txn, done);
    }

    private Reply commit(TransactionSnapshot txn, String done) {
        String refusal = commitRefusal(txn);
        if (refusal != null) {
            return DorisTxnOpResult.feRefusal(refusal);
        }
        try {
            be.publisher().commitAndPublish(txn.txnId(), be.publisher().preparedData(txn.txnId()));
            return DorisTxnOpResult.success(done);
        } catch (TransactionException e) {
            // Lost a race (the pre-commit timeout or another commit/abort came first): answer from the new state.
            Optional<TransactionSnapshot> now = be.transactions().get(txn.txnId());
            String text = now.map(DorisTwoPhaseCommit::commitRefusal).orElse("transaction [" + txn.txnId()
                    + "] not found");
            return DorisTxnOpResult.feRefusal(text == null ? e.getMessage() : text);
        }
    }

    private Reply abort(TransactionSnapshot txn, String done) {
        String refusal = abortRefusal(txn);
        if (refusal != null) {
            return DorisTxnOpResult.feRefusal(refusal);
        }
        try {
            be.transactions().abort(txn.txnId(), USER_ABORT);
            return DorisTxnOpResult.success(done);
        } catch (TransactionException e) {
            Optional<TransactionSnapshot> now = be.transactions().get(txn.txnId());
            String text = now.map(DorisTwoPhaseCommit::abortRefusal).orElse("transaction [" + txn.txnId()
                    + "] not found");
            return DorisTxnOpResult.feRefusal(text == null ? e.getMessage() : text);
        }
    }

    /** Why a commit of this transaction is refused (FE {@code checkTransactionStateBeforeCommit}), or null. */
    private static String commitRefusal(TransactionSnapshot t) {
        String id = "transaction [" + t.txnId() + "] ";
        return switch (t.status()) {
            case PREPARED -> null;
            case PREPARE -> id + "is prepare, not pre-committed.";
            case COMMITTED -> id + "is already committed, not pre-committed.";
            case VISIBLE -> id + "is already visible, not pre-committed.";
            case ABORTED -> id + "is already aborted. abort reason: " + t.reason();
            case UNKNOWN -> id + "not found";
        };
    }

    /** Why an abort of this transaction is refused (FE {@code abortTransaction2PC}), or null. */
    private static String abortRefusal(TransactionSnapshot t) {
        String id = "transaction [" + t.txnId() + "] ";
        return switch (t.status()) {
            case PREPARE, PREPARED -> null;
            case COMMITTED, VISIBLE -> id + "is already " + t.status() + ", could not abort.";
            case ABORTED -> id + "is already aborted, abort reason: " + t.reason();
            case UNKNOWN -> id + "not found";
        };
    }
}
