package io.lockstep.core.client;

import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The by-label half of the Doris dialect: commit and abort through {@code PUT /api/{db}/_stream_load_2pc}
 * (docs/protocol.md #doris-endpoints-redirects-and-headers, #doris-replies) and label-state queries through
 * {@code GET /api/{db}/get_load_state}, both sent to the configured FE addresses, which redirect to any live BE.
 * Success of a commit or abort is the lower-case {@code status: Success}; any other reply, or none, is settled by the
 * label's state, never by its message (see {@link DorisTransactionClient}).
 *
 * <p>Thread-safe: every field is final and thread-safe; owned by one {@link DorisTransactionClient}.
 */
@ThreadSafe
final class DorisTwoPhaseCommit {
    private static final Logger LOG = LoggerFactory.getLogger(DorisTwoPhaseCommit.class);

    private final LoadEndpoint endpoint;

    /** Sends through the owning client's {@code endpoint} (not closed here). */
    DorisTwoPhaseCommit(LoadEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Commits ({@link SettledOp#COMMIT}) or aborts ({@link SettledOp#ROLLBACK}) the transaction {@code target}
     * names ({@code label}, or {@code txn_id} for an orphan); an unclear outcome is settled by the state of
     * {@code txn.label()}: commit succeeds on COMMITTED/VISIBLE, abort on ABORTED/UNKNOWN, a label still open is sent
     * again (bounded).
     *
     * @throws TransactionException naming label, database, the state found and the likely cause
     */
    void send(SettledOp op, TransactionRef txn, Map<String, String> target) throws TransactionException {
        boolean commit = op == SettledOp.COMMIT;
        String what = (commit ? "commit" : "abort") + " of " + txn
                + (target.containsKey("txn_id") ? " (txn " + target.get("txn_id") + ")" : "");
        Map<String, String> headers = new LinkedHashMap<>(target);
        headers.put(DorisProtocol.TXN_OPERATION, commit ? "commit" : "abort");
        headers.put("Expect", "100-continue");
        RetryBudget budget = endpoint.budget(what);
        String path = DorisProtocol.twoPhaseCommitPath(txn.database());
        budget.run(() -> endpoint.call("PUT", path, headers, null, false), (reply, ioFailure) -> {
            String trouble;
            String serverStatus = null;
            if (reply != null) {
                if (reply.statusIn(DorisProtocol.SUCCESS)) {
                    return RetryBudget.done(null);
                }
                FailureClass failureClass = FailureClass.classify(reply);
                if (failureClass == FailureClass.ACCESS_DENIED) {
                    throw new TransactionException(what + " failed (ACCESS_DENIED): " + reply.describe()
                            + endpoint.accessHint(failureClass), reply.status(), failureClass, null);
                }
                if (failureClass.retriable() && failureClass != FailureClass.LABEL_STILL_OPEN) {
                    return RetryBudget.retry(failureClass, reply.describe(), reply.status(), null);
                }
                trouble = "reply " + reply.describe();
                serverStatus = reply.status();
            } else {
                trouble = "I/O error " + ioFailure.getMessage();
            }
            LabelState state;
            try {
                state = labelState(txn.database(), txn.label());
            } catch (TransactionException e) {
                throw new TransactionException("outcome of " + what + " is unknown after " + trouble
                        + ", and the label state could not be read: " + e.getMessage(), serverStatus, e);
            }
            if (op.succeededIn(state)) {
                LOG.info("{}: settled as success by label state {} after {}", what, state, trouble);
                return RetryBudget.done(null);
            }
            if (state == LabelState.PREPARE || state == LabelState.PREPARED) {
                return RetryBudget.retry(FailureClass.LABEL_STILL_OPEN, trouble + "; label state " + state,
                        serverStatus, ioFailure);
            }
            throw new TransactionException(what + " failed: label " + txn.label() + " in database " + txn.database()
                    + " is " + state + " after " + trouble + ". " + (commit ? likelyCause(state)
                    : "Likely cause: the transaction was already committed, so it cannot be aborted."),
                    serverStatus, ioFailure);
        });
    }

    /** Label state, re-polled with backoff while PREPARE (a load still running), up to labelStateTimeoutMs. */
    LabelState pollWhilePrepare(TransactionRef txn) throws TransactionException {
        return LabelStatePolling.whilePrepare(endpoint, txn, "load of " + txn, this::labelState);
    }

    static String likelyCause(LabelState state) {
        if (state == LabelState.ABORTED) {
            return "Likely cause: the pre-committed transaction timed out on the server"
                    + " (stream_load_default_precommit_timeout_second, 3600 s by default) or was aborted by another"
                    + " client; its rows are not in Doris.";
        }
        if (state == LabelState.UNKNOWN) {
            return "Likely cause: Doris does not know the label: the load never happened, or its transaction ended"
                    + " and was cleaned (streaming_label_keep_max_second, 12 h by default).";
        }
        return "";
    }

    /**
     * The state of the newest transaction of {@code label}: {@code GET /api/{db}/get_load_state?label=L}
     * (docs/protocol.md#doris-replies): HTTP 200 with {@code code} 0 and the status in {@code data}; PRECOMMITTED maps
     * to {@link LabelState#PREPARED}. Connection failures, broken replies and HTTP 5xx are retried; a non-zero
     * {@code code} fails at once.
     */
    LabelState labelState(String database, String label) throws TransactionException {
        String path = DorisProtocol.loadStatePath(database, label);
        RetryBudget budget = endpoint.budget("label-state query for label " + label + " in database " + database);
        return budget.run(() -> endpoint.call("GET", path, Map.of(), null, false), (reply, failure) -> {
            if (reply == null) {
                return RetryBudget.retry(FailureClass.CONNECTION, failure.getMessage(), null, failure);
            }
            if (reply.httpStatus() >= 500 || (reply.httpStatus() == 200 && !reply.isJson())) {
                return RetryBudget.retry(FailureClass.HTTP_5XX, reply.describe(), reply.status(), null);
            }
            String data = reply.text("data");
            if (reply.httpStatus() != 200 || reply.number("code", -1) != 0 || data == null) {
                String code = reply.text("code");
                FailureClass failureClass = "401".equals(code) ? FailureClass.ACCESS_DENIED
                        : FailureClass.classify(reply);
                throw new TransactionException("label-state query for label " + label + " in database " + database
                        + " failed (" + failureClass + "): " + reply.describe() + ", code " + code + ", data '"
                        + data + "'" + endpoint.accessHint(failureClass), reply.status(), failureClass, null);
            }
            return RetryBudget.done(DorisProtocol.labelState(data));
        });
    }
}
