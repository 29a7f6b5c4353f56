package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import io.lockstep.core.time.Ticker;
import io.lockstep.core.metrics.LoadMetrics;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Classic stream load ({@code PUT /api/{db}/{table}/_stream_load}, docs/protocol.md#starrocks-transaction-stream-load,
 * #starrocks-classic-stream-load): one request begins, loads and commits a transaction under the given label. Used by
 * the single-table at-least-once mode.
 *
 * <p>Success allow-list: {@code Success}, {@code Publish Timeout} (committed, visible later) and {@code OK};
 * {@code Label Already Exists} with {@code ExistingJobStatus: FINISHED} is an earlier attempt that succeeded (label
 * dedup, docs/protocol.md#labels-and-label-state), whether it came from this call or from before a restart. Because the
 * label deduplicates, a load whose reply was lost IS re-sent: if the first attempt was applied the retry answers "Label
 * Already Exists"/FINISHED, if it is still running the retry answers RUNNING and is retried after a backoff, and if it
 * failed the label is free again. Data errors fail at once with an error-log excerpt. Thread-safe.
 */
@ThreadSafe
public final class StarRocksStreamLoader implements StreamLoader {
    private static final Logger LOG = LoggerFactory.getLogger(StarRocksStreamLoader.class);

    private final LoadEndpoint endpoint;

    public StarRocksStreamLoader(TransactionClientConfig config, LoadMetrics metrics) {
        this(config, metrics, Ticker.system());
    }

    public StarRocksStreamLoader(TransactionClientConfig config, LoadMetrics metrics, Ticker ticker) {
        this.endpoint = new LoadEndpoint(config, metrics, ticker, "its LOAD/INSERT privileges");
    }

    /** {@inheritDoc} <p>Sends {@code body} as {@link #load(String, String, String, LoadBody, Map)} does. */
    @Override
    public LoadReply load(String database, String table, String label, byte[] body, Map<String, String> loadProperties)
            throws TransactionException {
        return load(database, table, label, LoadBody.of(Objects.requireNonNull(body, "body")), loadProperties);
    }

    /**
     * Loads one body as one transaction.
     *
     * @param label          the label, {@code ^[-\w]{1,128}$}; the same label on a retry deduplicates
     * @param body           the body, sent as a repeatable entity with {@code Expect: 100-continue}
     * @param loadProperties stream load headers ({@code format}, {@code strip_outer_array}, ...)
     * @return the bytes the server reports ({@code LoadBytes}, or the body size) and the attempts made
     * @throws TransactionException on a data error (with an error-log excerpt), access denied, another writer's
     *                              label, or when retries are used up
     */
    @Override
    public LoadReply load(String database, String table, String label, LoadBody body,
                          Map<String, String> loadProperties) throws TransactionException {
        long bodyBytes = body.contentLength();
        Map<String, String> headers = new LinkedHashMap<>(loadProperties);
        headers.put("label", label);
        String path = "/api/" + TransactionHeaders.encode(database) + "/"
                + TransactionHeaders.encode(table) + "/_stream_load";
        String what = "stream load of " + bodyBytes + " bytes into " + database + "." + table + " under label " + label;
        RetryBudget budget = endpoint.budget(what);
        return budget.run(() -> endpoint.call("PUT", path, headers, body, true), (reply, failure) -> {
            if (reply == null) { // classic stream load is deduplicated by its label: sending again is safe
                return RetryBudget.retry(FailureClass.CONNECTION, failure.getMessage(), null, failure);
            }
            if (reply.statusIn("Success", "Publish Timeout", "OK")) {
                return RetryBudget.done(new LoadReply(reply.number("LoadBytes", bodyBytes), budget.attempts()));
            }
            if (reply.statusIn("Label Already Exists")) {
                String existing = String.valueOf(reply.text("ExistingJobStatus")).toUpperCase(Locale.ROOT);
                if (existing.equals("FINISHED")) {
                    LOG.info("{}: an earlier load with this label already finished (label dedup)", what);
                    return RetryBudget.done(new LoadReply(bodyBytes, budget.attempts()));
                }
                if (existing.equals("RUNNING")) {
                    return RetryBudget.retry(FailureClass.LABEL_STILL_OPEN, reply.describe(), reply.status(), null);
                }
                throw new TransactionException(what + " failed: the label is already used (ExistingJobStatus "
                        + existing + "): " + reply.describe(), reply.status());
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

    @Override
    public void close() {
        endpoint.close();
    }
}
