package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import io.lockstep.core.format.LoadBody;
import io.lockstep.core.metrics.LoadMetrics;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The configured FE addresses as one load client sees them, shared by both dialects' clients and loaders: sends a
 * request and decodes the JSON reply ({@link ServerReply}), opens the retry budget of one operation on the client's
 * config, clock and metrics ({@link RetryBudget}), fetches the error-log excerpt a reply's {@code ErrorURL} names
 * and words the hint for an access-denied reply.
 *
 * <p>Thread-safe: every field is final and thread-safe; owned (and closed) by one client or loader.
 */
@ThreadSafe
final class LoadEndpoint implements AutoCloseable {
    private final TransactionClientConfig config;
    private final LoadMetrics metrics;
    private final Ticker ticker;
    private final StarRocksHttp http;
    private final String privileges;

    /**
     * @param privileges the privileges a load needs, for the access-denied hint, e.g. {@code "its LOAD privilege"}
     */
    LoadEndpoint(TransactionClientConfig config, LoadMetrics metrics, Ticker ticker, String privileges) {
        this.config = Objects.requireNonNull(config, "config");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.privileges = privileges;
        this.http = new StarRocksHttp(config);
    }

    TransactionClientConfig config() {
        return config;
    }

    Ticker ticker() {
        return ticker;
    }

    /**
     * One HTTP exchange (redirects followed as {@link StarRocksHttp} does), decoded.
     *
     * @param body           the body, or null for none; written on every hop and attempt
     * @param expectContinue whether to send {@code Expect: 100-continue} before the body
     * @throws IOException when no reply arrived (connection refused, reset, timed out)
     */
    ServerReply call(String method, String path, Map<String, String> headers, LoadBody body, boolean expectContinue)
            throws IOException {
        return ServerReply.decode(http.send(method, path, headers, body, expectContinue));
    }

    /**
     * One HTTP exchange (redirects followed as {@link StarRocksHttp} does), not decoded: for replies that are not one
     * JSON object (the HTTP SQL API answers newline-delimited JSON).
     *
     * @throws IOException when no reply arrived (connection refused, reset, timed out)
     */
    StarRocksHttp.HttpReply callRaw(String method, String path, Map<String, String> headers, byte[] body)
            throws IOException {
        return http.send(method, path, headers, body == null ? null : LoadBody.of(body), false);
    }

    /** The retry budget of one operation; {@code operation} names it in messages, e.g. "commit of label L". */
    RetryBudget budget(String operation) {
        return new RetryBudget(config, ticker, metrics, operation);
    }

    /** The wait of one begin for a running-transaction slot; {@code operation} names it in messages. */
    RunningTransactionSlotWait slotWait(String operation) {
        return new RunningTransactionSlotWait(config, ticker, metrics, operation);
    }

    /** An excerpt of the error log the reply's {@code ErrorURL} names, prefixed for a message; "" when none. */
    String errorLog(ServerReply reply) {
        return ErrorLogExcerpt.fetch(http, reply.text("ErrorURL"), config.sanitizeErrorLog());
    }

    /** For {@link FailureClass#ACCESS_DENIED}: which user and privileges to check; "" for any other class. */
    String accessHint(FailureClass failureClass) {
        if (failureClass == FailureClass.ACCESS_DENIED) {
            return " (check username '" + config.username() + "', its password and " + privileges + ")";
        }
        return "";
    }

    @Override
    public void close() {
        http.close();
    }
}
