package io.lockstep.core.engine;

import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.format.LoadBody;

import java.util.List;
import java.util.Map;

/**
 * How the single-table engine loads a table's rows and ends its transactions: one implementation per
 * {@link LoadMethod}, driven by {@link TableTransactionCycle} on the manager thread (except {@link #send}, which runs on
 * an I/O thread). The cycle owns the flush (timer, requests, cut) and the load hand-off; this owns the transactions.
 *
 * <ul>
 *   <li>{@link TransactionStreamTableLoads}: frozen chunks stream into each table's open transaction as they come; a
 *       flush prepares it and commits it (at-least-once) or hands it out (exactly-once).</li>
 *   <li>{@link ClassicTableLoads}: no transaction; a table's flush is one classic stream load under a fresh label.</li>
 *   <li>{@link TwoPhaseTableLoads}: Doris; a table's flush is one load that pre-commits its own transaction; the
 *       barrier hands the epoch's transactions out.</li>
 * </ul>
 */
interface TableLoads {
    /**
     * True if frozen chunks load as they come; false if nothing loads before a flush's cut, and a table's flush is ONE
     * load of all its rows up to the cut (so memory pressure starts a flush).
     */
    boolean loadsBeforeCut();

    /**
     * Manager thread: the transaction (or label) the next load of {@code key}'s rows goes under, begun if needed.
     * Called before the chunks are taken from the region, so a failed begin leaves them there.
     */
    TransactionRef nextLoad(RegionKey key) throws TransactionException;

    /** I/O thread: sends one load body of {@code txn}'s table; by default into the transaction through {@code client}. */
    default LoadReply send(TransactionClient client, TransactionRef txn, LoadBody body,
                           Map<String, String> properties) throws TransactionException {
        return client.load(txn, txn.table(), body, properties);
    }

    /** Manager thread: a load under {@code txn} (keyed {@code database.table}) succeeded. */
    void loaded(String key, TransactionRef txn);

    /** Manager thread: per-table transactions open now. */
    int openTransactions();

    /**
     * Manager thread: the flush's cut is loaded; ends the transactions it covers.
     *
     * @param checkpointId the highest checkpoint among the flush requests the cut completes, -1 if none
     * @return the prepared transactions the flush hands out (exactly-once), else empty
     */
    List<PreparedTransaction> finishFlush(long checkpointId) throws TransactionException;

    /** Manager thread: close or failure; rolls back what is open and not handed out. Never throws. */
    void rollbackOpen(String when);
}
