package io.lockstep.core.client;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Why a transaction operation failed, and whether it may be retried on the same label. The retriable classes
 * are reported as retry counters {@code retries.<NAME>} ({@link io.lockstep.core.metrics.MetricNames#RETRIES_PREFIX}).
 *
 * <p>Classification reads the HTTP status first, then the {@code Status} value, then well-known, stable message
 * fragments (docs/protocol.md#status-values, #timeouts-limits-and-concurrency,
 * #what-the-official-starrocks-connector-does). It never decides success: success is an allow-list per operation, and
 * ambiguous commit/prepare/rollback outcomes are settled by a label-state query, not by a message.
 */
public enum FailureClass {
    /**
     * Another request holds the label's BE context ({@code TXN_IN_PROCESSING},
     * docs/protocol.md#timeouts-limits-and-concurrency).
     */
    TXN_IN_PROCESSING(true),
    /** Begin refused: {@code current running txns on db ...} ({@code max_running_txn_num_per_db},
     * docs/protocol.md#timeouts-limits-and-concurrency). */
    RUNNING_TXN_LIMIT(true),
    /** The FE could not take a database or table lock in time. */
    LOCK_TIMEOUT(true),
    /** Nothing reached the server (connect refused, timed out, unresolvable), or an idempotent call broke. */
    CONNECTION(true),
    /**
     * HTTP 5xx: the server failed before acting on the request. (A load answered 502/504 by a gateway is not
     * retried: the server may have applied it, see {@link LoadOutcomeUnknownException}.)
     */
    HTTP_5XX(true),
    /** The label is still open (PREPARE/PREPARED) after an unclear reply: the operation is sent again. */
    LABEL_STILL_OPEN(true),
    /** The data or the request is wrong (filtered rows, parse errors, differing load parameters, unknown table). */
    DATA_ERROR(false),
    /** HTTP 401/403 or "Access denied": wrong user, password or privilege. */
    ACCESS_DENIED(false),
    /** Anything else, including replies that are not JSON. */
    OTHER(false);

    /**
     * The FE's "Database[D] does not exist." / "Table[T] does not exist." (what the multi-table begin answers for an
     * unknown database); not "stream load task L does not exist", an unknown label, which is not the data's fault.
     */
    private static final Pattern MISSING_DATABASE_OR_TABLE =
            Pattern.compile("(database|table)\\[[^\\]]*\\] does not exist");
    private static final Pattern LOCK_TIMEOUT_PATTERN =
            Pattern.compile("lock.{0,60}time ?out|time ?out.{0,60}lock|try ?lock failed|failed to acquire .{0,20}lock");
    private static final List<String> DATA_ERROR_FRAGMENTS = List.of(
            "too many filtered rows", "parse", "load request not equal last", "unknown table", "unknown database",
            "failed to find table", "primary key size exceed", "only primary key table support partial update",
            "not equal transaction table", "not equal transaction database", "unknown data format",
            "malformed json", "exceed limit", "exceed the max size", "no database selected", "empty label",
            "label format error");

    private final boolean retriable;

    FailureClass(boolean retriable) {
        this.retriable = retriable;
    }

    /** Whether the operation may be sent again on the same label. */
    public boolean retriable() {
        return retriable;
    }

    /** Classifies a reply that is not on the operation's success allow-list. */
    static FailureClass classify(ServerReply reply) {
        int http = reply.httpStatus();
        if (http == 401 || http == 403) {
            return ACCESS_DENIED;
        }
        if (http >= 500) {
            return HTTP_5XX;
        }
        if (http != 200 || !reply.isJson()) {
            return OTHER;
        }
        return classify(reply.status(), reply.message());
    }

    /** Classifies a {@code Status} value and message. */
    static FailureClass classify(String status, String message) {
        String text = message == null ? "" : message.toLowerCase(Locale.ROOT);
        if ("TXN_IN_PROCESSING".equalsIgnoreCase(status) || text.contains("is in processing")) {
            return TXN_IN_PROCESSING;
        }
        if (text.contains("current running txns on db")) {
            return RUNNING_TXN_LIMIT;
        }
        if (LOCK_TIMEOUT_PATTERN.matcher(text).find()) {
            return LOCK_TIMEOUT;
        }
        if (text.contains("access denied")) {
            return ACCESS_DENIED;
        }
        if (MISSING_DATABASE_OR_TABLE.matcher(text).find()) {
            return DATA_ERROR;
        }
        for (String fragment : DATA_ERROR_FRAGMENTS) {
            if (text.contains(fragment)) {
                return DATA_ERROR;
            }
        }
        return OTHER;
    }
}
