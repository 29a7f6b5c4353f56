package io.lockstep.emulator.http;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The FE's transaction reply vocabulary ({@code TransactionResult},
 * docs/protocol.md#starrocks-transaction-stream-load): {@code Status} one of {@code OK}, {@code FAILED},
 * {@code LABEL_ALREADY_EXISTS}; {@code Message}; then entries such as {@code TxnId}, {@code Label},
 * {@code ExistingJobStatus}. Errors carry the Java exception class of the FE in front of the message, as StarRocks'
 * {@code TransactionLoadAction} writes them.
 */
public final class FeResult {
    /** Exception class StarRocks' FE throws for most transaction-handler errors. */
    public static final String STARROCKS_EXCEPTION = "com.starrocks.common.StarRocksException";
    /** Exception class of DDL-level errors (e.g. the missing 100-continue header). */
    public static final String DDL_EXCEPTION = "com.starrocks.common.DdlException";

    private final ObjectNode json = JsonText.object();

    private FeResult(String status, String message) {
        json.put("Status", status);
        json.put("Message", message);
    }

    /** {@code {"Status":"OK","Message":""}}. */
    public static FeResult ok() {
        return new FeResult("OK", "");
    }

    /** OK with a message (idempotent replies such as "Transaction N has already committed, label is L"). */
    public static FeResult ok(String message) {
        return new FeResult("OK", message);
    }

    /** FAILED with {@code "class <exceptionClass>: <message>"}. */
    public static FeResult failed(String exceptionClass, String message) {
        return new FeResult("FAILED", "class " + exceptionClass + ": " + message);
    }

    /** FAILED from a {@code StarRocksException}. */
    public static FeResult failed(String message) {
        return failed(STARROCKS_EXCEPTION, message);
    }

    /** FAILED with a message set verbatim (multi-table task replies set their messages without a class). */
    public static FeResult failedPlain(String message) {
        return new FeResult("FAILED", message);
    }

    /** LABEL_ALREADY_EXISTS with the plain message and {@code ExistingJobStatus}. */
    public static FeResult labelAlreadyExists(String message, String existingJobStatus) {
        FeResult r = new FeResult("LABEL_ALREADY_EXISTS", message);
        r.json.put("ExistingJobStatus", existingJobStatus);
        return r;
    }

    /** Adds a result entry ({@code Label}, {@code Db}, {@code ErrorURL}, ...) after Status and Message. */
    public FeResult with(String key, String value) {
        json.put(key, value);
        return this;
    }

    /** Adds a numeric result entry ({@code TxnId}). */
    public FeResult with(String key, long value) {
        json.put(key, value);
        return this;
    }

    /** HTTP 200 with the pretty-printed body. */
    public Reply reply() {
        return Reply.json(JsonText.write(json));
    }
}
