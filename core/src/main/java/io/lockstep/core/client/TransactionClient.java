package io.lockstep.core.client;

import io.lockstep.core.format.LoadBody;
import java.util.Map;

/**
 * Drives a server's transaction stream load interface: begin, load, prepare, commit, rollback, label state and
 * cancel, for single-table and multi-table ({@code transaction_type: multi}) transactions. One dialect per
 * server family: {@link StarRocksTransactionClient}, and {@link DorisTransactionClient} (single-table only; one load
 * per transaction, pre-committed by the load; see its Javadoc for how each call maps onto Doris stream load 2PC).
 *
 * <p>Each method returns only on a settled outcome. Retriable failures ({@code TXN_IN_PROCESSING}, running-txn
 * limit, lock timeouts, connection errors) are retried on the same label with bounded backoff; ambiguous
 * outcomes of prepare/commit (non-OK reply, I/O error, timeout, {@code TXN_NOT_EXISTS}, publish timeout) are
 * settled by a label-state query. Thread-safe: the manager thread and checkpoint threads may call it at once.
 */
public interface TransactionClient extends AutoCloseable {

    /**
     * Begins a transaction under {@code txn.label()}.
     *
     * @param timeoutSeconds the server-side transaction timeout ({@code timeout} header), seconds; 0 = server default
     * @return the server's transaction id, or -1 when the server does not return one (multi-table begin)
     * @throws TransactionException on a terminal failure (label already used, unknown database, access denied...)
     */
    long begin(TransactionRef txn, int timeoutSeconds) throws TransactionException;

    /**
     * Loads one body into an open transaction.
     *
     * @param table          target table (for single-table transactions it must equal {@code txn.table()})
     * @param body           the whole body, e.g. a JSON array of rows; sent as a repeatable entity
     * @param loadProperties stream load headers for this table ({@code format}, {@code strip_outer_array}, ...),
     *                       identical for every load of one (label, table)
     * @throws TransactionException on a terminal failure; data errors carry an error-log excerpt
     */
    LoadReply load(TransactionRef txn, String table, byte[] body, Map<String, String> loadProperties)
            throws TransactionException;

    /**
     * Loads one body into an open transaction, as {@link #load(TransactionRef, String, byte[], Map)} does, writing it
     * from its source (the chunks' segments) as it is sent: the engine's load path. The body is written again on a
     * retry or a redirect, so its source must not change until this returns. The HTTP clients stream it; this default,
     * for clients that only take an array, copies it into one.
     *
     * @throws TransactionException on a terminal failure; data errors carry an error-log excerpt
     */
    default LoadReply load(TransactionRef txn, String table, LoadBody body, Map<String, String> loadProperties)
            throws TransactionException {
        return load(txn, table, body.toByteArray(), loadProperties);
    }

    /**
     * Prepares (pre-commits) a single-table transaction; PREPARED afterwards, or a terminal failure.
     *
     * @throws TransactionException if the transaction is not PREPARED afterwards; the message names the label,
     *                              the database and the state found
     */
    void prepare(TransactionRef txn) throws TransactionException;

    /**
     * Commits; returns when the label is COMMITTED or VISIBLE (a publish timeout counts as committed).
     *
     * @throws TransactionException if the label ends ABORTED or UNKNOWN; the message names the label, the database
     *                              and the likely cause (e.g. the transaction timed out on the server)
     */
    void commit(TransactionRef txn) throws TransactionException;

    /**
     * Rolls back (aborts) an open or prepared transaction. Rolling back an already aborted label succeeds.
     *
     * @throws TransactionException if the server refuses (e.g. the label is already committed)
     */
    void rollback(TransactionRef txn) throws TransactionException;

    /**
     * The state of the latest transaction with this label in {@code database}.
     *
     * @throws TransactionException if the state cannot be read after retries
     */
    LabelState labelState(String database, String label) throws TransactionException;

    /**
     * Cancels a transaction by label through the FE ({@code POST /api/{db}/{table}/_cancel}).
     *
     * @throws TransactionException if the server refuses
     */
    void cancel(String database, String table, String label) throws TransactionException;

    @Override
    void close();
}
