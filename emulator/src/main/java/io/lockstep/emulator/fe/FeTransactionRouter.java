package io.lockstep.emulator.fe;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.FeResult;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.multi.MultiTableService;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionPublisher;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The FE's {@code /api/transaction/{op}} handling (StarRocks {@code TransactionLoadAction},
 * {@code TransactionWithoutChannelHandler}, {@code TransactionLoadCoordinatorMgr};
 * docs/protocol.md#starrocks-transaction-stream-load, #the-emulators-state-tables): validates the request in the FE's
 * order, then either answers (FE vocabulary), forwards to the BE, or executes FE-side commit/rollback of PREPARED
 * transactions and the multi-table ops. Thread-safe.
 */
public final class FeTransactionRouter {
    private final Backend be;
    private final MultiTableService multi;

    public FeTransactionRouter(Backend backend, MultiTableService multi) {
        this.be = backend;
        this.multi = multi;
    }

    /**
     * Decides what to do with a transaction request.
     *
     * @param opText the {op} path segment as sent
     */
    public FeDecision decide(String opText, ServerRequest req) {
        String op = opText.toLowerCase(Locale.ROOT);
        FaultOp faultOp;
        switch (op) {
            case "begin": faultOp = FaultOp.BEGIN; break;
            case "load": faultOp = FaultOp.LOAD; break;
            case "prepare": faultOp = FaultOp.PREPARE; break;
            case "commit": faultOp = FaultOp.COMMIT; break;
            case "rollback": faultOp = FaultOp.ROLLBACK; break;
            default:
                return failed("Unknown transaction operation: " + opText);
        }
        String db = req.headerOrEmpty("db");
        if (db.isEmpty()) {
            return failed("No database selected.");
        }
        String label = req.headerOrEmpty("label");
        if (label.isEmpty()) {
            return failed("Empty label.");
        }
        long timeoutMs;
        try {
            timeoutMs = parseSeconds(req.header("timeout"));
            parseSeconds(req.header("prepared_timeout"));
        } catch (NumberFormatException e) {
            return FeDecision.answer(FeResult.failed("java.lang.NumberFormatException", e.getMessage()).reply());
        }
        boolean hasChannelId = req.header("channel_id") != null;
        boolean hasChannelNum = req.header("channel_num") != null;
        if (hasChannelNum && !hasChannelId) {
            return FeDecision.answer(FeResult.failed(FeResult.DDL_EXCEPTION,
                    "Must provide channel_id when stream load begin.").reply());
        }
        if (hasChannelId && !hasChannelNum) {
            return FeDecision.answer(FeResult.failed(FeResult.DDL_EXCEPTION,
                    "Must provide channel_num when stream load begin.").reply());
        }
        if (hasChannelId) {
            return failed("Parallel transaction stream load (channel_id, channel_num) is not supported by the "
                    + "Lockstep emulator");
        }
        if (faultOp != FaultOp.LOAD) {
            FeDecision malformed = checkBody(req, label);
            if (malformed != null) {
                return malformed;
            }
        }
        if (req.isMultiTable()) {
            return decideMulti(faultOp, req, timeoutMs);
        }
        return decideSingle(faultOp, req, db, label, timeoutMs);
    }

    private FeDecision decideMulti(FaultOp op, ServerRequest req, long timeoutMs) {
        switch (op) {
            case BEGIN:
                return new FeDecision.Execute(op, () -> {
                    be.faults().pause(FaultOp.BEGIN);
                    return multi.begin(req, timeoutMs);
                });
            case LOAD:
                Optional<Reply> refused = multi.planLoad(req);
                return refused.<FeDecision>map(FeDecision.Answer::new).orElseGet(() -> new FeDecision.Forward(op));
            case COMMIT:
                return new FeDecision.Execute(op, () -> multi.commit(req));
            case ROLLBACK:
                return new FeDecision.Execute(op, () -> multi.rollback(req));
            default:
                return failed("Unsupported operation: TXN_PREPARE");
        }
    }

    private FeDecision decideSingle(FaultOp op, ServerRequest req, String db, String label, long timeoutMs) {
        if (op == FaultOp.BEGIN) {
            return new FeDecision.Forward(op);
        }
        boolean cached = be.contexts().get(label).filter(c -> !c.multiTable()).isPresent();
        if (op == FaultOp.LOAD) {
            if (cached) {
                return new FeDecision.Forward(op);
            }
            if (be.catalog().database(db).isEmpty()) {
                return failed("Can't find db[" + db + "] for label[" + label + "]. The db may be dropped.");
            }
            Optional<TransactionSnapshot> txn = be.transactions().latest(db, label);
            if (txn.isEmpty()) {
                return failed("Can't find the transaction with db [" + db + "] and label[" + label + "]."
                        + " The possible reasons: 1. FE leader is started or switched; "
                        + "2. The transaction timeouts and is cleaned.");
            }
            return forwardUnlessMulti(op, db, label, txn.get());
        }
        if (be.catalog().database(db).isEmpty()) {
            return failed("Database[" + db + "] does not exist.");
        }
        Optional<TransactionSnapshot> latest = be.transactions().latest(db, label);
        if (latest.isEmpty()) {
            return failed("No transaction found with db[" + db + "] and label[" + label + "]");
        }
        TransactionSnapshot txn = latest.get();
        long txnId = txn.txnId();
        switch (op) {
            case PREPARE:
                return forwardUnlessMulti(op, db, label, txn);
            case COMMIT:
                switch (txn.status()) {
                    case PREPARED:
                        long waitMs = timeoutMs > 0 ? timeoutMs : be.transactions().config().commitTimeoutMs();
                        return new FeDecision.Execute(op, () -> commitPrepared(txnId, label, waitMs));
                    case COMMITTED:
                    case VISIBLE:
                        return FeDecision.answer(FeResult.ok("Transaction " + txnId + " has already committed, "
                                + "label is " + label).with("TxnId", txnId).with("Label", label).reply());
                    case ABORTED:
                        return failed("Can not commit ABORTED transaction " + txnId + ", label is " + label);
                    default:
                        return forwardUnlessMulti(op, db, label, txn);
                }
            default: // ROLLBACK
                switch (txn.status()) {
                    case PREPARED:
                        return new FeDecision.Execute(op, () -> rollbackPrepared(txnId, label));
                    case ABORTED:
                        return FeDecision.answer(FeResult.ok("Transaction " + txnId + " has already aborted, "
                                + "label is " + label).with("TxnId", txnId).with("Label", label).reply());
                    case COMMITTED:
                    case VISIBLE:
                        return failed("Can not abort " + txn.status() + " transaction " + txnId + ", label is "
                                + label);
                    default:
                        return forwardUnlessMulti(op, db, label, txn);
                }
        }
    }

    /**
     * A single-table op (no {@code transaction_type: multi}) on a multi-table transaction finds no BE coordinator: the
     * FE names the coordinator's source type (FE {@code TransactionLoadCoordinatorMgr.getNodeFromTransactionState}).
     */
    private static FeDecision forwardUnlessMulti(FaultOp op, String db, String label, TransactionSnapshot txn) {
        if (txn.multiTable()) {
            return failed("The source type for transaction stream load with db [" + db + "] and label[" + label
                    + "] should be BE, but is FE.");
        }
        return new FeDecision.Forward(op);
    }

    /** FE-side commit of a PREPARED transaction; the publish wait may expire, leaving it COMMITTED. */
    private Reply commitPrepared(long txnId, String label, long waitMs) {
        be.faults().pause(FaultOp.COMMIT);
        try {
            TransactionPublisher.Outcome outcome =
                    be.publisher().commitAndPublish(txnId, be.publisher().preparedData(txnId));
            if (outcome == TransactionPublisher.Outcome.PUBLISH_TIMEOUT) {
                return FeResult.failed("publish timeout: " + waitMs).reply();
            }
            return FeResult.ok().with("TxnId", txnId).with("Label", label).reply();
        } catch (TransactionException e) {
            // A concurrent commit of the same label won: answer as the FE answers a repeated commit.
            boolean committed = be.transactions().get(txnId).map(t -> t.status() == TransactionStatus.COMMITTED
                    || t.status() == TransactionStatus.VISIBLE).orElse(false);
            if (committed) {
                return FeResult.ok("Transaction " + txnId + " has already committed, label is " + label)
                        .with("TxnId", txnId).with("Label", label).reply();
            }
            return FeResult.failed(e.getMessage()).reply();
        }
    }

    /** FE-side abort of a PREPARED transaction (reason "User Aborted"). */
    private Reply rollbackPrepared(long txnId, String label) {
        be.faults().pause(FaultOp.ROLLBACK);
        try {
            be.transactions().abort(txnId, "User Aborted");
            return FeResult.ok().with("TxnId", txnId).with("Label", label).reply();
        } catch (TransactionException e) {
            boolean aborted = be.transactions().get(txnId)
                    .map(t -> t.status() == TransactionStatus.ABORTED).orElse(false);
            if (aborted) {
                return FeResult.ok("Transaction " + txnId + " has already aborted, label is " + label)
                        .with("TxnId", txnId).with("Label", label).reply();
            }
            return FeResult.failed(e.getMessage()).reply();
        }
    }

    private static FeDecision checkBody(ServerRequest req, String label) {
        String len = req.header("content-length");
        boolean maybeBody = req.header("transfer-encoding") != null || (len != null && !len.trim().equals("0"));
        if (!maybeBody) {
            return null;
        }
        String text;
        try {
            text = new String(req.body(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return failed("Malformed json tablets, label is " + label);
        }
        if (text.isBlank()) {
            return null;
        }
        try {
            if (JsonText.MAPPER.readTree(text).isObject()) {
                return null;
            }
        } catch (JsonProcessingException e) {
            // falls through
        }
        return FeDecision.answer(FeResult.failed("com.starrocks.common.StarRocksHttpException",
                "Malformed json tablets, label is " + label).reply());
    }

    /** Seconds header → ms; absent → -1. @throws NumberFormatException as the FE's Long.parseLong does */
    private static long parseSeconds(String value) {
        if (value == null) {
            return -1;
        }
        return Long.parseLong(value) * 1000L;
    }

    private static FeDecision failed(String message) {
        return FeDecision.answer(FeResult.failed(message).reply());
    }
}
