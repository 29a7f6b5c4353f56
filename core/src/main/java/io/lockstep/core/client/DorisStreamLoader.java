package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import io.lockstep.core.time.Ticker;
import io.lockstep.core.metrics.LoadMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apache Doris stream load without two-phase commit ({@code PUT /api/{db}/{table}/_stream_load};
 * docs/protocol.md#doris-endpoints-redirects-and-headers, #doris-replies): one request begins, loads and commits one
 * transaction under the given label. The single-table engine's CLASSIC load method uses it for the at-least-once Doris
 * sink.
 *
 * <p>Success allow-list: {@code Status} {@code Success} or {@code Publish Timeout} (committed, visible later;
 * docs/protocol.md#doris-replies). "Label Already Exists" with {@code ExistingJobStatus: FINISHED} is an earlier
 * attempt that committed (label dedup, docs/protocol.md#doris-states-labels-and-timers); RUNNING is still loading and
 * is retried after a backoff; PRECOMMITTED (a two-phase transaction under this label, which this loader never makes)
 * fails. A load whose outcome is unclear (a lost reply, HTTP 5xx, a body that is not JSON) is settled by a label-state
 * query ({@code get_load_state}): COMMITTED or VISIBLE is success; ABORTED or UNKNOWN sends it again under the same
 * label (an aborted label is reusable at once); PREPARE is polled, then sent again, and the server's dedup answers
 * RUNNING or FINISHED. Data errors fail at once with an error-log excerpt; other failures are classified and retried
 * like the StarRocks dialect ({@link FailureClass}).
 *
 * <p>Thread-safe.
 */
@ThreadSafe
public final class DorisStreamLoader implements StreamLoader {
    private static final Logger LOG = LoggerFactory.getLogger(DorisStreamLoader.class);

    private final LoadEndpoint endpoint;
    /** Label-state queries after unclear outcomes. */
    private final DorisTwoPhaseCommit labels;

    /** A loader on the real clock. */
    public DorisStreamLoader(TransactionClientConfig config, LoadMetrics metrics) {
        this(config, metrics, Ticker.system());
    }

    /** A loader whose backoff waits go through {@code ticker} (tests pass a fake). */
    public DorisStreamLoader(TransactionClientConfig config, LoadMetrics metrics, Ticker ticker) {
        this.endpoint = new LoadEndpoint(config, metrics, ticker, "its LOAD privilege");
        this.labels = new DorisTwoPhaseCommit(endpoint);
    }

    /** {@inheritDoc} <p>Sends {@code body} as {@link #load(String, String, String, LoadBody, Map)} does. */
    @Override
    public LoadReply load(String database, String table, String label, byte[] body, Map<String, String> loadProperties)
            throws TransactionException {
        return load(database, table, label, LoadBody.of(Objects.requireNonNull(body, "body")), loadProperties);
    }

    /**
     * Loads one body as one committed Doris transaction.
     *
     * @param label          the label, {@code ^[-\w]{1,128}$}; the same label on a retry deduplicates
     * @param body           the body, sent as a repeatable entity with {@code Expect: 100-continue}
     * @param loadProperties stream load headers ({@code format}, {@code strip_outer_array}, {@code timeout}, ...);
     *                       a {@code two_phase_commit} entry is dropped
     * @return the bytes the server reports ({@code LoadBytes}, or the body size) and the attempts made
     * @throws TransactionException on a data error (with an error-log excerpt), access denied, a label held by a
     *                              two-phase transaction, or when retries are used up
     */
    @Override
    public LoadReply load(String database, String table, String label, LoadBody body,
                          Map<String, String> loadProperties) throws TransactionException {
        long bodyBytes = body.contentLength();
        Map<String, String> headers = new LinkedHashMap<>();
        loadProperties.forEach((name, value) -> {
            if (!TransactionHeaders.isProtocolHeader(name) && !name.equalsIgnoreCase(DorisProtocol.TWO_PHASE_COMMIT)) {
                headers.put(name, value);
            }
        });
        headers.put("label", label);
        String path = DorisProtocol.streamLoadPath(database, table);
        String what = "stream load of " + bodyBytes + " bytes into " + database + "." + table + " under label "
                + label;
        RetryBudget budget = endpoint.budget(what);
        TransactionRef txn = TransactionRef.singleTable(database, table, label);
        return budget.run(() -> endpoint.call("PUT", path, headers, body, true), (reply, failure) -> {
            if (reply == null) {
                return settle(txn, "I/O error " + failure.getMessage(), FailureClass.CONNECTION, bodyBytes,
                        budget);
            }
            if (reply.httpStatus() >= 500 || (reply.httpStatus() == 200 && !reply.isJson())) {
                FailureClass troubleClass = reply.httpStatus() >= 500 ? FailureClass.HTTP_5XX : FailureClass.OTHER;
                return settle(txn, "reply " + reply.describe(), troubleClass, bodyBytes, budget);
            }
            if (reply.statusIn(DorisProtocol.SUCCESS, DorisProtocol.PUBLISH_TIMEOUT)) {
                return RetryBudget.done(new LoadReply(reply.number("LoadBytes", bodyBytes), budget.attempts()));
            }
            if (reply.statusIn(DorisProtocol.LABEL_ALREADY_EXISTS)) {
                String existing = DorisProtocol.existingJobStatus(reply);
                if (existing.equals("FINISHED")) {
                    LOG.info("{}: an earlier load with this label already committed (label dedup)", what);
                    return RetryBudget.done(new LoadReply(bodyBytes, budget.attempts()));
                }
                if (existing.equals("RUNNING") || existing.isEmpty()) {
                    return RetryBudget.retry(FailureClass.LABEL_STILL_OPEN, reply.describe(), reply.status(), null);
                }
                throw new TransactionException(what + " failed: the label is held by a transaction in state "
                        + existing + " that this loader did not make: " + reply.describe()
                        + "; use a sink.label-prefix no other writer uses", reply.status());
            }
            FailureClass failureClass = FailureClass.classify(reply);
            if (failureClass.retriable() && failureClass != FailureClass.LABEL_STILL_OPEN) {
                return RetryBudget.retry(failureClass, reply.describe(), reply.status(), null);
            }
            throw new TransactionException(what + " failed (" + failureClass + "): " + reply.describe()
                    + endpoint.errorLog(reply),
                    reply.status(), failureClass, null);
        });
    }

    /**
     * After an unclear outcome: done when the label is COMMITTED or VISIBLE (the load was applied); otherwise a retry,
     * so the load is sent again under the same label after the backoff (ABORTED, UNKNOWN, or still PREPARE after
     * {@code labelStateTimeoutMs}); throws for a label held PRECOMMITTED, which this loader never makes.
     */
    private RetryBudget.Step<LoadReply> settle(TransactionRef txn, String trouble, FailureClass troubleClass,
                                               long bodyBytes, RetryBudget budget) throws TransactionException {
        LabelState state;
        try {
            state = labels.pollWhilePrepare(txn);
        } catch (TransactionException e) {
            throw new TransactionException("outcome of the stream load of " + txn + " is unknown after " + trouble
                    + ", and the label state could not be read: " + e.getMessage(), null, e);
        }
        if (state.isCommitted()) {
            LOG.info("stream load of {}: settled as committed by label state {} after {}", txn, state, trouble);
            return RetryBudget.done(new LoadReply(bodyBytes, budget.attempts()));
        }
        if (state == LabelState.PREPARED) {
            throw new TransactionException("stream load of " + txn + " failed: its label is held PRECOMMITTED by a"
                    + " two-phase transaction this loader did not make (after " + trouble + "); use a"
                    + " sink.label-prefix no other writer uses", null);
        }
        return RetryBudget.retry(state == LabelState.PREPARE ? FailureClass.LABEL_STILL_OPEN : troubleClass,
                trouble + "; label state " + state, null, null);
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
