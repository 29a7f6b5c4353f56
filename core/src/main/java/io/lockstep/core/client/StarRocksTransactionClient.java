package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import io.lockstep.core.time.Ticker;
import io.lockstep.core.metrics.LoadMetrics;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The StarRocks dialect of {@link TransactionClient}: transaction stream load over HTTP (docs/protocol.md),
 * single-table and multi-table ({@code transaction_type: multi} on every operation; begin then carries no table).
 *
 * <p>Success is an allow-list per operation (docs/protocol.md#status-values,
 * #what-the-official-starrocks-connector-does): begin {@code OK}; load {@code OK}; prepare {@code OK}; commit
 * {@code OK}; rollback {@code OK} (the FE answers {@code OK} "already aborted" for an aborted label). Everything else
 * is classified ({@link FailureClass}):
 * <ul>
 *   <li>a begin refused by the running-transaction limit waits for a slot, bounded by time
 *       ({@link RunningTransactionSlotWait});</li>
 *   <li>retriable classes are sent again on the same label with bounded backoff ({@link RetryBudget});</li>
 *   <li>a non-OK, unreadable or lost reply to prepare, commit or rollback is settled by a label-state query
 *       ({@code GET /api/{db}/get_load_state}): commit succeeds on COMMITTED/VISIBLE (this covers publish
 *       timeouts), prepare on PREPARED (polling while PREPARE, bounded by {@code labelStateTimeoutMs}, only when the
 *       prepare may still be running: a lost reply or {@code TXN_NOT_EXISTS}), rollback on
 *       ABORTED/UNKNOWN; a label still open is sent again; ABORTED/UNKNOWN fails naming label, database and the
 *       likely cause;</li>
 *   <li>a load that breaks after it may have reached the server is never re-sent: see
 *       {@link LoadOutcomeUnknownException};</li>
 *   <li>data errors fail at once, with an excerpt of the server's error log ({@code ErrorURL}).</li>
 * </ul>
 * Requests go through {@link StarRocksHttp}: redirects followed with credentials and body, failover over the load
 * URLs. The client reports only retries ({@code retries.<class>}) to {@link LoadMetrics}; loads, bytes and
 * commits are counted by the engine that calls it.
 *
 * <p>Thread-safe: every field is final and thread-safe; calls for different labels may run at once.
 */
@ThreadSafe
public final class StarRocksTransactionClient implements TransactionClient {
    private static final Logger LOG = LoggerFactory.getLogger(StarRocksTransactionClient.class);
    private static final Set<String> OPEN_JOB_STATES = Set.of("", "RUNNING", "BEGIN", "PREPARE");
    private static final int MAX_REMEMBERED_TIMEOUTS = 10_000;

    private final LoadEndpoint endpoint;
    /** The begin {@code timeout} (s) per "db/label", to name it when a label ends ABORTED. Concurrent map. */
    private final Map<String, Integer> beginTimeoutsSeconds = new ConcurrentHashMap<>();

    /** A client on the real clock. */
    public StarRocksTransactionClient(TransactionClientConfig config, LoadMetrics metrics) {
        this(config, metrics, Ticker.system());
    }

    /** A client whose backoff and polling waits go through {@code ticker} (tests pass a fake). */
    public StarRocksTransactionClient(TransactionClientConfig config, LoadMetrics metrics, Ticker ticker) {
        this.endpoint = new LoadEndpoint(config, metrics, ticker, "its LOAD/INSERT privileges");
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code POST /api/transaction/begin}. If an earlier attempt of this call broke after it may have reached the
     * server, a {@code LABEL_ALREADY_EXISTS} reply whose {@code ExistingJobStatus} is still open (RUNNING, BEGIN,
     * PREPARE or empty) is taken as that attempt's success (docs/protocol.md#labels-and-label-state); on a first
     * attempt it fails.
     */
    @Override
    public long begin(TransactionRef txn, int timeoutSeconds) throws TransactionException {
        Map<String, String> headers = TransactionHeaders.forTransaction(txn, null);
        if (timeoutSeconds > 0) {
            headers.put("timeout", Integer.toString(timeoutSeconds));
        }
        RetryBudget budget = endpoint.budget("begin of " + txn);
        RunningTransactionSlotWait slotWait = endpoint.slotWait("begin of " + txn);
        boolean[] mayHaveBegun = {false}; // an attempt broke after it may have reached the server
        return budget.run(() -> endpoint.call("POST", "/api/transaction/begin", headers, null, false),
                (reply, failure) -> {
                    if (reply == null) {
                        mayHaveBegun[0] = true;
                        return RetryBudget.retry(FailureClass.CONNECTION, failure.getMessage(), null, failure);
                    }
                    if (reply.statusIn("OK")) {
                        slotWait.succeeded();
                        rememberTimeout(txn, timeoutSeconds);
                        return RetryBudget.done(reply.number("TxnId", -1));
                    }
                    String existing = reply.text("ExistingJobStatus");
                    if (mayHaveBegun[0] && reply.statusIn("LABEL_ALREADY_EXISTS")
                            && OPEN_JOB_STATES.contains(existing == null ? "" : existing.toUpperCase(Locale.ROOT))) {
                        LOG.info("begin of {}: an earlier attempt broke mid-request; the label is open ({}), taking it"
                                + " as ours", txn, reply.describe());
                        rememberTimeout(txn, timeoutSeconds);
                        return RetryBudget.done(reply.number("TxnId", -1));
                    }
                    FailureClass failureClass = FailureClass.classify(reply);
                    if (failureClass == FailureClass.RUNNING_TXN_LIMIT) {
                        slotWait.waitOrFail(reply.describe(), reply.status()); // the server is busy: backpressure
                        return RetryBudget.again();
                    }
                    if (failureClass.retriable()) {
                        return RetryBudget.retry(failureClass, reply.describe(), reply.status(), null);
                    }
                    throw new TransactionException("begin of " + txn + " failed (" + failureClass + "): "
                            + reply.describe() + endpoint.accessHint(failureClass), reply.status(), failureClass, null);
                });
    }

    /** {@inheritDoc} <p>Sends {@code body} as {@link #load(TransactionRef, String, LoadBody, Map)} does. */
    @Override
    public LoadReply load(TransactionRef txn, String table, byte[] body, Map<String, String> loadProperties)
            throws TransactionException {
        return load(txn, table, LoadBody.of(Objects.requireNonNull(body, "body")), loadProperties);
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code PUT /api/transaction/load} with {@code Expect: 100-continue}. The {@code label}, {@code db},
     * {@code table} and {@code transaction_type} headers come from {@code txn} and {@code table} and override
     * same-named load properties.
     *
     * @throws LoadOutcomeUnknownException if the request broke after it may have reached the server, or a gateway
     *                                     answered 502/504 (not retried; other 5xx replies are)
     * @throws IllegalArgumentException    if a single-table {@code txn} names another table
     */
    @Override
    public LoadReply load(TransactionRef txn, String table, LoadBody body, Map<String, String> loadProperties)
            throws TransactionException {
        Objects.requireNonNull(table, "table");
        long bodyBytes = body.contentLength();
        if (!txn.multiTable() && !txn.table().equals(table)) {
            throw new IllegalArgumentException("load into table " + table + " under single-table " + txn
                    + ": the table must be the transaction's table");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        loadProperties.forEach((name, value) -> {
            if (!TransactionHeaders.isProtocolHeader(name)) {
                headers.put(name, value);
            }
        });
        headers.putAll(TransactionHeaders.forTransaction(txn, table));
        String what = "load of " + bodyBytes + " bytes into " + txn.database() + "." + table + " under " + txn;
        RetryBudget budget = endpoint.budget(what);
        return budget.run(() -> endpoint.call("PUT", "/api/transaction/load", headers, body, true), (reply, failure) -> {
            if (reply == null) {
                throw new LoadOutcomeUnknownException(what + ": outcome unknown after an I/O error ("
                        + failure.getMessage() + "); not re-sent, since a retry could load the rows twice. Roll the"
                        + " transaction back and load its data again under a new label", failure);
            }
            if (reply.statusIn("OK")) {
                return RetryBudget.done(new LoadReply(reply.number("LoadBytes", bodyBytes), budget.attempts()));
            }
            if (reply.httpStatus() == 502 || reply.httpStatus() == 504) {
                throw new LoadOutcomeUnknownException(what + ": outcome unknown, a gateway lost the server's reply ("
                        + reply.describe() + "); not re-sent, since a retry could load the rows twice. Roll the"
                        + " transaction back and load its data again under a new label", null);
            }
            FailureClass failureClass = FailureClass.classify(reply);
            if (failureClass.retriable() && failureClass != FailureClass.LABEL_STILL_OPEN) {
                return RetryBudget.retry(failureClass, reply.describe(), reply.status(), null);
            }
            throw new TransactionException(what + " failed (" + failureClass + "): " + reply.describe()
                    + endpoint.accessHint(failureClass) + endpoint.errorLog(reply), reply.status(), failureClass,
                    null);
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code POST /api/transaction/prepare}; single-table only (StarRocks rejects prepare for multi-table
     * transactions, docs/protocol.md#multi-table-transactions).
     */
    @Override
    public void prepare(TransactionRef txn) throws TransactionException {
        if (txn.multiTable()) {
            throw new TransactionException("prepare of " + txn + " is not supported: StarRocks rejects prepare for"
                    + " multi-table transactions (commit them directly)", null);
        }
        settledOperation(SettledOp.PREPARE, txn);
    }

    /** {@inheritDoc} <p>{@code POST /api/transaction/commit}; no prepare is needed (one-phase commit). */
    @Override
    public void commit(TransactionRef txn) throws TransactionException {
        settledOperation(SettledOp.COMMIT, txn);
        beginTimeoutsSeconds.remove(key(txn));
    }

    /** {@inheritDoc} <p>{@code POST /api/transaction/rollback}; an ABORTED or UNKNOWN label counts as rolled back. */
    @Override
    public void rollback(TransactionRef txn) throws TransactionException {
        settledOperation(SettledOp.ROLLBACK, txn);
        beginTimeoutsSeconds.remove(key(txn));
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code GET /api/{db}/get_load_state?label=L} (docs/protocol.md#labels-and-label-state), sent to any live FE.
     * Connection failures, broken replies and HTTP 5xx are retried (the query changes nothing); a {@code FAILED} reply
     * (e.g. unknown database) or a reply without {@code state} fails at once.
     */
    @Override
    public LabelState labelState(String database, String label) throws TransactionException {
        String path = "/api/" + TransactionHeaders.encode(database) + "/get_load_state?label="
                + TransactionHeaders.encode(label);
        RetryBudget budget = endpoint.budget("label-state query for label " + label + " in database " + database);
        return budget.run(() -> endpoint.call("GET", path, Map.of(), null, false), (reply, failure) -> {
            if (reply == null) {
                return RetryBudget.retry(FailureClass.CONNECTION, failure.getMessage(), null, failure);
            }
            if (reply.httpStatus() >= 500) {
                return RetryBudget.retry(FailureClass.HTTP_5XX, reply.describe(), reply.status(), null);
            }
            String state = reply.text("state");
            if (reply.httpStatus() != 200 || state == null
                    || (reply.status() != null && !reply.statusIn("OK"))) {
                FailureClass failureClass = FailureClass.classify(reply);
                throw new TransactionException("label-state query for label " + label + " in database " + database
                        + " failed (" + failureClass + "): " + reply.describe() + endpoint.accessHint(failureClass),
                        reply.status(), failureClass, null);
            }
            return RetryBudget.done(LabelState.parse(state));
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code POST /api/{db}/{table}/_cancel?label=L}; when the reply is not OK the label state decides: an
     * ABORTED label counts as cancelled.
     */
    @Override
    public void cancel(String database, String table, String label) throws TransactionException {
        String path = "/api/" + TransactionHeaders.encode(database) + "/" + TransactionHeaders.encode(table)
                + "/_cancel?label=" + TransactionHeaders.encode(label);
        String what = "cancel of label " + label + " (table " + database + "." + table + ")";
        RetryBudget budget = endpoint.budget(what);
        budget.run(() -> endpoint.call("POST", path, Map.of(), null, false), (reply, failure) -> {
            if (reply == null) {
                return RetryBudget.retry(FailureClass.CONNECTION, failure.getMessage(), null, failure);
            }
            if (reply.statusIn("OK")) {
                return RetryBudget.done(null);
            }
            FailureClass failureClass = FailureClass.classify(reply);
            if (failureClass.retriable()) {
                return RetryBudget.retry(failureClass, reply.describe(), reply.status(), null);
            }
            LabelState state = labelState(database, label);
            if (state == LabelState.ABORTED) {
                return RetryBudget.done(null);
            }
            throw new TransactionException(what + " failed (" + failureClass + "), label state " + state + ": "
                    + reply.describe() + endpoint.accessHint(failureClass), reply.status());
        });
    }

    @Override
    public void close() {
        endpoint.close();
    }

    /** Prepare, commit and rollback: send, classify, settle ambiguous outcomes by label state, retry while open. */
    private void settledOperation(SettledOp op, TransactionRef txn) throws TransactionException {
        String what = op.name().toLowerCase(Locale.ROOT) + " of " + txn;
        RetryBudget budget = endpoint.budget(what);
        Map<String, String> headers = TransactionHeaders.forTransaction(txn, null);
        budget.run(() -> endpoint.call("POST", op.path(), headers, null, false), (reply, ioFailure) -> {
            String trouble;
            String serverStatus = null;
            if (reply != null) {
                if (reply.statusIn("OK")) {
                    return RetryBudget.done(null);
                }
                FailureClass failureClass = FailureClass.classify(reply);
                if (failureClass == FailureClass.ACCESS_DENIED) {
                    throw new TransactionException(what + " failed (ACCESS_DENIED): " + reply.describe()
                            + endpoint.accessHint(failureClass), reply.status(), failureClass, null);
                }
                if (failureClass.retriable()) {
                    return RetryBudget.retry(failureClass, reply.describe(), reply.status(), null);
                }
                trouble = "reply " + reply.describe();
                serverStatus = reply.status();
            } else {
                trouble = "I/O error " + ioFailure.getMessage();
            }
            // Only a prepare that may still be running on the server (its reply was lost, or another attempt holds the
            // BE context: TXN_NOT_EXISTS) is waited for; after a plain error reply the label stays PREPARE because the
            // prepare failed, and it is sent again with the normal backoff below.
            boolean prepareMayStillRun = reply == null || reply.statusIn("TXN_NOT_EXISTS");
            LabelState state;
            try {
                state = op == SettledOp.PREPARE && prepareMayStillRun ? pollWhilePrepare(txn, trouble)
                        : labelState(txn.database(), txn.label());
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
            // a data error (e.g. a commit or prepare refused for too many filtered rows) keeps its class, so callers
            // see a failure no restart can heal rather than one without a class
            boolean dataError = reply != null && FailureClass.classify(reply) == FailureClass.DATA_ERROR;
            throw new TransactionException(what + " failed: label " + txn.label() + " in database " + txn.database()
                    + " is " + state + " after " + trouble + ". "
                    + (dataError ? dataErrorCause(op) : likelyCause(op, txn, state))
                    + (reply == null ? "" : endpoint.errorLog(reply)), serverStatus,
                    dataError ? FailureClass.DATA_ERROR : null, ioFailure);
        });
    }

    /** Label state, re-polled with backoff while PREPARE (a prepare still running), up to labelStateTimeoutMs. */
    private LabelState pollWhilePrepare(TransactionRef txn, String trouble) throws TransactionException {
        return LabelStatePolling.whilePrepare(endpoint, txn, "prepare of " + txn + " after " + trouble,
                this::labelState);
    }

    /** The reply itself named a data error (e.g. too many filtered rows): that, not a timeout, is the cause. */
    private static String dataErrorCause(SettledOp op) {
        return "Cause: the server rejected the loaded data at " + op.name().toLowerCase(Locale.ROOT)
                + " and rolled back the whole transaction (every table and row loaded under this label); fix the"
                + " rows the error log names (a max_filter_ratio above 0 would not load them either: it drops them)";
    }

    private String likelyCause(SettledOp op, TransactionRef txn, LabelState state) {
        if (state.isCommitted()) {
            return "Likely cause: the transaction was already committed, so it cannot be rolled back.";
        }
        Integer timeout = beginTimeoutsSeconds.get(key(txn));
        String timeoutText = timeout == null ? "the begin timeout"
                : timeout > 0 ? "timeout header " + timeout + " s"
                : "no timeout header: the server default, 600 s single-table, 20 s multi-table";
        if (state == LabelState.ABORTED) {
            return "Likely cause: the transaction timed out on the server (" + timeoutText + ") or was aborted"
                    + " (a failed load, a data error at " + op.name().toLowerCase(Locale.ROOT)
                    + ", or a rollback/cancel by another client).";
        }
        return "Likely cause: the server does not know the label: the transaction timed out and was cleaned ("
                + timeoutText + "), the FE restarted, or it never began.";
    }

    private void rememberTimeout(TransactionRef txn, int timeoutSeconds) {
        if (beginTimeoutsSeconds.size() >= MAX_REMEMBERED_TIMEOUTS) {
            beginTimeoutsSeconds.clear();
        }
        beginTimeoutsSeconds.put(key(txn), timeoutSeconds > 0 ? timeoutSeconds : 0);
    }

    private static String key(TransactionRef txn) {
        return txn.database() + "/" + txn.label();
    }
}
