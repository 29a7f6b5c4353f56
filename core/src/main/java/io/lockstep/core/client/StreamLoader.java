package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import java.util.Map;

/**
 * Classic stream load ({@code PUT /api/{db}/{table}/_stream_load}, docs/protocol.md#starrocks-transaction-stream-load,
 * #starrocks-classic-stream-load): one request begins, loads and commits one transaction under the given label. The
 * single-table engine's CLASSIC load method sends each table's flush through it. Implementations are thread-safe and
 * re-send a request whose reply was lost under the same label, so the server deduplicates it
 * (docs/protocol.md#labels-and-label-state).
 */
public interface StreamLoader extends AutoCloseable {

    /**
     * Loads one body as one transaction; returns once it is committed.
     *
     * @param label          the label, {@code ^[-\w]{1,128}$}; the same label on a retry deduplicates
     * @param body           the whole body, e.g. a JSON array of rows
     * @param loadProperties stream load headers ({@code format}, {@code strip_outer_array}, ...)
     * @return the bytes the server reports and the attempts made
     * @throws TransactionException on a terminal failure (data error with an error-log excerpt, access denied,
     *                              another writer's label, retries used up)
     */
    LoadReply load(String database, String table, String label, byte[] body, Map<String, String> loadProperties)
            throws TransactionException;

    /**
     * Loads one body as one transaction, as {@link #load(String, String, String, byte[], Map)} does, writing it from
     * its source (the chunks' segments) as it is sent: the engine's load path. The body is written again on a retry
     * or a redirect, so its source must not change until this returns. The HTTP loaders stream it; this default, for
     * loaders that only take an array, copies it into one.
     *
     * @throws TransactionException on a terminal failure, as the array form
     */
    default LoadReply load(String database, String table, String label, LoadBody body,
                           Map<String, String> loadProperties) throws TransactionException {
        return load(database, table, label, body.toByteArray(), loadProperties);
    }

    @Override
    void close();
}
