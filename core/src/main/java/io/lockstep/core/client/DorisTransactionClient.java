package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import io.lockstep.core.time.Ticker;
import io.lockstep.core.metrics.LoadMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Apache Doris dialect of {@link TransactionClient}: Stream Load two-phase commit over HTTP (docs/protocol.md
 * #apache-doris-stream-load-with-two-phase-commit). Doris has no begin and no second load per transaction: ONE
 * {@code PUT /api/{db}/{table}/_stream_load} with {@code two_phase_commit: true} begins, loads and pre-commits a
 * transaction (state PRECOMMITTED, reported here as {@link LabelState#PREPARED}). So:
 * <ul>
 *   <li>{@link #begin} sends nothing: it remembers the {@code timeout} for the label's load and returns -1;</li>
 *   <li>{@link #load} is the transaction's only load; a second load under a label already loaded is refused by the
 *       server ("Label Already Exists") and fails here;</li>
 *   <li>{@link #prepare} only checks, by label state, that the label is PRECOMMITTED (or already committed);</li>
 *   <li>{@link #commit} and {@link #rollback} send {@code PUT /api/{db}/_stream_load_2pc} with {@code label} and
 *       {@code txn_operation: commit|abort} to the configured FE addresses (load URLs), never to the BE that took
 *       the load: any FE redirects to a live BE (docs/protocol.md#doris-endpoints-redirects-and-headers);</li>
 *   <li>{@link #cancel} aborts by label (Doris has no {@code _cancel}).</li>
 * </ul>
 *
 * <p>Success is an allow-list per operation: load {@code Status: Success} with {@code TwoPhaseCommit: "true"} (a
 * reply without it means the server committed the load at once, which would break the guarantee, so it fails);
 * commit and abort lower-case {@code status: Success}. Everything else is classified ({@link FailureClass}, same
 * classes and bounded backoff as the StarRocks dialect); a non-success, unreadable or lost reply of a load, commit or
 * abort is settled by a label-state query ({@code GET /api/{db}/get_load_state}), never by matching a message:
 * <ul>
 *   <li>commit succeeds on COMMITTED/VISIBLE (so re-committing an already committed label succeeds), abort on
 *       ABORTED/UNKNOWN; a label still PRECOMMITTED is sent again; otherwise it fails naming label, database and the
 *       likely cause;</li>
 *   <li>a load whose outcome is unknown succeeds if its label is PRECOMMITTED, is sent again under the same label
 * if it is ABORTED or UNKNOWN (an aborted label is reusable at once, docs/protocol.md#doris-states-labels-and-timers),
 * and waits while
 *       PREPARE. Unlike a StarRocks transaction load, a re-sent Doris load cannot duplicate rows: the label admits
 *       one live transaction.</li>
 * </ul>
 * "Label Already Exists" (docs/protocol.md#doris-states-labels-and-timers; the txn id is only inside {@code Message}):
 * after an attempt of this call that may have reached the server, PRECOMMITTED is that attempt's success and RUNNING is
 * waited for; on a first attempt the label belongs to an orphan of an earlier run (never committed, never in any
 * checkpoint), which is aborted by the txn id parsed from the message before the load is sent again; FINISHED
 * (committed) fails.
 *
 * <p>Thread-safe: every field is final and thread-safe; calls for different labels may run at once.
 */
@ThreadSafe
public final class DorisTransactionClient implements TransactionClient {
    private static final Logger LOG = LoggerFactory.getLogger(DorisTransactionClient.class);
    private static final int MAX_REMEMBERED_TIMEOUTS = 10_000;

    private final LoadEndpoint endpoint;
    private final DorisTwoPhaseCommit twoPhase;
    /** The begin {@code timeout} (s) per "db/label", sent with the label's load. Concurrent map. */
    private final Map<String, Integer> timeoutsSeconds = new ConcurrentHashMap<>();

    /** A client on the real clock. */
    public DorisTransactionClient(TransactionClientConfig config, LoadMetrics metrics) {
        this(config, metrics, Ticker.system());
    }

    /** A client whose backoff and polling waits go through {@code ticker} (tests pass a fake). */
    public DorisTransactionClient(TransactionClientConfig config, LoadMetrics metrics, Ticker ticker) {
        this.endpoint = new LoadEndpoint(config, metrics, ticker, "its LOAD privilege");
        this.twoPhase = new DorisTwoPhaseCommit(endpoint);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Sends nothing (a Doris transaction begins with its load): remembers {@code timeoutSeconds} for the load.
     *
     * @return always -1 (the txn id is known only after the load)
     * @throws IllegalArgumentException for a multi-table transaction (Doris has no multi-table HTTP load, Doris
     *                                  docs/protocol.md#doris-endpoints-redirects-and-headers)
     */
    @Override
    public long begin(TransactionRef txn, int timeoutSeconds) {
        requireSingleTable(txn);
        if (timeoutsSeconds.size() >= MAX_REMEMBERED_TIMEOUTS) {
            timeoutsSeconds.clear();
        }
        timeoutsSeconds.put(key(txn), Math.max(0, timeoutSeconds));
        return -1;
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
     * <p>{@code PUT /api/{db}/{table}/_stream_load} with {@code Expect: 100-continue}, {@code label},
     * {@code two_phase_commit: true} and the {@code timeout} given to {@link #begin} (unless the load properties
     * carry one). The transaction is PRECOMMITTED afterwards.
     *
     * @throws TransactionException       on a data error (with an error-log excerpt), access denied, a label that is
     *                                    already committed, a reply without two-phase commit, or used-up retries
     * @throws IllegalArgumentException   if {@code table} is not the transaction's table, or it is multi-table
     */
    @Override
    public LoadReply load(TransactionRef txn, String table, LoadBody body, Map<String, String> loadProperties)
            throws TransactionException {
        requireSingleTable(txn);
        long bodyBytes = body.contentLength();
        if (!txn.table().equals(table)) {
            throw new IllegalArgumentException("load into table " + table + " under " + txn
                    + ": the table must be the transaction's table");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        loadProperties.forEach((name, value) -> {
            if (!TransactionHeaders.isProtocolHeader(name) && !name.equalsIgnoreCase(DorisProtocol.TWO_PHASE_COMMIT)) {
                headers.put(name, value);
            }
        });
        Integer timeout = timeoutsSeconds.get(key(txn));
        if (timeout != null && timeout > 0 && headers.keySet().stream().noneMatch("timeout"::equalsIgnoreCase)) {
            headers.put("timeout", Integer.toString(timeout));
        }
        headers.put("label", txn.label());
        headers.put(DorisProtocol.TWO_PHASE_COMMIT, "true");
        if (bodyBytes == 0) {
            // Doris refuses a stream load without it ("There is no 100-continue header"), and the HTTP client adds
            // it only for a non-empty body; an empty load is the run-id claim's marker (0 rows, pre-committed)
            headers.put("Expect", "100-continue");
        }
        String what = "two-phase stream load of " + bodyBytes + " bytes into " + txn.database() + "." + table
                + " under " + txn;
        RetryBudget budget = endpoint.budget(what);
        boolean[] mayHaveLoaded = {false}; // an attempt broke after it may have reached the server
        String path = DorisProtocol.streamLoadPath(txn.database(), table);
        return budget.run(() -> endpoint.call("PUT", path, headers, body, true), (reply, failure) -> {
            if (reply == null) {
                mayHaveLoaded[0] = true;
                return settleLoad(txn, "I/O error " + failure.getMessage(), FailureClass.CONNECTION, bodyBytes,
                        budget);
            }
            if (reply.statusIn(DorisProtocol.SUCCESS)) {
                if (!"true".equalsIgnoreCase(String.valueOf(reply.text("TwoPhaseCommit")).trim())) {
                    throw new TransactionException(what + ": the server took the load WITHOUT two-phase commit"
                            + " (TwoPhaseCommit '" + reply.text("TwoPhaseCommit") + "'), so it is committed already"
                            + " and cannot wait for the checkpoint: " + reply.describe() + ". Check that the server"
                            + " is Apache Doris with stream load 2PC and that no group_commit is configured",
                            reply.status());
                }
                return RetryBudget.done(new LoadReply(reply.number("LoadBytes", bodyBytes), budget.attempts()));
            }
            if (reply.statusIn(DorisProtocol.LABEL_ALREADY_EXISTS)) {
                return labelConflict(txn, reply, mayHaveLoaded[0], bodyBytes, budget, what);
            }
            if (reply.httpStatus() >= 500 || (reply.httpStatus() == 200 && !reply.isJson())) {
                mayHaveLoaded[0] = true;
                FailureClass troubleClass = reply.httpStatus() >= 500 ? FailureClass.HTTP_5XX : FailureClass.OTHER;
                return settleLoad(txn, "reply " + reply.describe(), troubleClass, bodyBytes, budget);
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
     * After an unclear load outcome: done when the label is PRECOMMITTED (the load was taken); otherwise a retry, so
     * the load is sent again after the backoff; throws when the label says it never can.
     */
    private RetryBudget.Step<LoadReply> settleLoad(TransactionRef txn, String trouble, FailureClass troubleClass,
                                                   long bodyBytes, RetryBudget budget) throws TransactionException {
        LabelState state;
        try {
            state = twoPhase.pollWhilePrepare(txn);
        } catch (TransactionException e) {
            throw new TransactionException("outcome of the load of " + txn + " is unknown after " + trouble
                    + ", and the label state could not be read: " + e.getMessage(), null, e);
        }
        if (state == LabelState.PREPARED) {
            LOG.info("load of {}: settled as pre-committed by label state after {}", txn, trouble);
            return RetryBudget.done(new LoadReply(bodyBytes, budget.attempts()));
        }
        if (state.isCommitted()) {
            throw new TransactionException("load of " + txn + " failed: label " + txn.label() + " is already " + state
                    + " in database " + txn.database() + " after " + trouble + "; a label this sink has not committed"
                    + " yet was committed by someone else: use a sink.label-prefix no other writer uses", null);
        }
        return RetryBudget.retry(state == LabelState.PREPARE ? FailureClass.LABEL_STILL_OPEN : troubleClass,
                trouble + "; label state " + state, null, null);
    }

    /** "Label Already Exists": done = it is this call's earlier attempt, pre-committed; retry = send again. */
    private RetryBudget.Step<LoadReply> labelConflict(TransactionRef txn, ServerReply reply, boolean mayHaveLoaded,
                                                      long bodyBytes, RetryBudget budget, String what)
            throws TransactionException {
        String existing = DorisProtocol.existingJobStatus(reply);
        OptionalLong txnId = DorisProtocol.conflictingTxnId(reply.message());
        if (existing.equals("FINISHED")) {
            throw new TransactionException(what + " failed: the label is already committed (ExistingJobStatus"
                    + " FINISHED" + (txnId.isPresent() ? ", txn " + txnId.getAsLong() : "") + "): " + reply.describe()
                    + ". Another run or writer used this label; change sink.label-prefix or restore from the latest"
                    + " checkpoint", reply.status());
        }
        if (mayHaveLoaded) {
            if (existing.equals("PRECOMMITTED")) {
                LOG.info("{}: an earlier attempt of this load is pre-committed ({})", what, reply.describe());
                return RetryBudget.done(new LoadReply(bodyBytes, budget.attempts()));
            }
            return RetryBudget.retry(FailureClass.LABEL_STILL_OPEN, reply.describe(), reply.status(), null);
        }
        // First attempt: an orphan of an earlier run holds the label. Nobody will commit it: abort it, load again.
        LOG.warn("{}: label held by an orphan transaction ({}, txn {}) of an earlier run; aborting it and loading"
                + " again", what, existing, txnId.isPresent() ? txnId.getAsLong() : "unknown");
        Map<String, String> headers = new LinkedHashMap<>();
        if (txnId.isPresent()) {
            headers.put("txn_id", Long.toString(txnId.getAsLong()));
        } else {
            headers.put("label", txn.label());
        }
        twoPhase.send(SettledOp.ROLLBACK, txn, headers);
        return RetryBudget.retry(FailureClass.LABEL_STILL_OPEN, "orphan transaction aborted: " + reply.describe(),
                reply.status(), null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Doris pre-commits with the load itself, so this only reads the label state (polling while PREPARE, up to
     * {@code labelStateTimeoutMs}): PRECOMMITTED, COMMITTED or VISIBLE succeed.
     */
    @Override
    public void prepare(TransactionRef txn) throws TransactionException {
        requireSingleTable(txn);
        LabelState state = twoPhase.pollWhilePrepare(txn);
        if (state != LabelState.PREPARED && !state.isCommitted()) {
            throw new TransactionException("prepare of " + txn + " failed: label " + txn.label() + " in database "
                    + txn.database() + " is " + state + ", not PRECOMMITTED. " + DorisTwoPhaseCommit.likelyCause(state), null);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code PUT /api/{db}/_stream_load_2pc} with {@code label} and {@code txn_operation: commit}, through the
     * FE addresses. A label already COMMITTED or VISIBLE succeeds.
     */
    @Override
    public void commit(TransactionRef txn) throws TransactionException {
        requireSingleTable(txn);
        twoPhase.send(SettledOp.COMMIT, txn, Map.of("label", txn.label()));
        timeoutsSeconds.remove(key(txn));
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code PUT /api/{db}/_stream_load_2pc} with {@code label} and {@code txn_operation: abort}; an ABORTED or
     * UNKNOWN label counts as aborted, a COMMITTED or VISIBLE one fails.
     */
    @Override
    public void rollback(TransactionRef txn) throws TransactionException {
        requireSingleTable(txn);
        twoPhase.send(SettledOp.ROLLBACK, txn, Map.of("label", txn.label()));
        timeoutsSeconds.remove(key(txn));
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code GET /api/{db}/get_load_state?label=L} (docs/protocol.md#doris-replies); PRECOMMITTED is
     * {@link LabelState#PREPARED}. See {@link DorisTwoPhaseCommit#labelState}.
     */
    @Override
    public LabelState labelState(String database, String label) throws TransactionException {
        return twoPhase.labelState(database, label);
    }

    /** {@inheritDoc} <p>Doris has no {@code _cancel}: aborts the label through {@code _stream_load_2pc}. */
    @Override
    public void cancel(String database, String table, String label) throws TransactionException {
        rollback(TransactionRef.singleTable(database, table, label));
    }

    @Override
    public void close() {
        endpoint.close();
    }

    private static void requireSingleTable(TransactionRef txn) {
        Objects.requireNonNull(txn, "txn");
        if (txn.multiTable()) {
            throw new IllegalArgumentException(txn + ": Doris has no multi-table transaction over HTTP (one stream"
                    + " load = one table's transaction); use one transaction per table");
        }
    }

    private static String key(TransactionRef txn) {
        return txn.database() + "/" + txn.label();
    }
}
