package io.lockstep.emulator.be;

import io.lockstep.emulator.catalog.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The BE's volatile state of one transaction (StarRocks {@code StreamLoadContext}): one table channel for a
 * single-table transaction, one per table for a multi-table transaction. Lost on restart; dropped after prepare, commit
 * or rollback (docs/protocol.md#the-emulators-state-tables, #timeouts-limits-and-concurrency).
 *
 * <p>The monitor {@code this} guards the channel map and the abort status.
 */
@ThreadSafe
public final class LoadContext {
    private final long txnId;
    private final String database;
    private final String label;
    private final boolean multiTable;
    /** The single table of a single-table transaction; null for multi-table. */
    private final String table;
    private final long beginTimeMs;
    /** BE-only idle abort ({@code idle_transaction_timeout}) in ms; -1 = off. */
    private final long idleTimeoutMs;
    /** Last time a request of this context finished or started (clock ms). */
    @GuardedBy("this")
    private long lastActiveMs;

    @GuardedBy("this")
    private final Map<String, TableChannel> channels = new LinkedHashMap<>();
    /** Set by a multi-table commit: channels are final, new loads are refused. */
    @GuardedBy("this")
    private boolean closedForCommit;
    /** Set once when the transaction was aborted while the context was alive; null while healthy. */
    @GuardedBy("this")
    private String abortMessage;

    /**
     * @param singleTable the table of a single-table transaction (its channel is created now), or null for
     *                    multi-table (channels are added per table at the first load)
     */
    public LoadContext(long txnId, String database, String label, TableSchema singleTable, long beginTimeMs) {
        this(txnId, database, label, singleTable, beginTimeMs, -1);
    }

    /**
     * @param idleTimeoutMs {@code idle_transaction_timeout} in ms, or -1 when off
     */
    public LoadContext(long txnId, String database, String label, TableSchema singleTable, long beginTimeMs,
                       long idleTimeoutMs) {
        this.txnId = txnId;
        this.idleTimeoutMs = idleTimeoutMs;
        this.lastActiveMs = beginTimeMs;
        this.database = database;
        this.label = label;
        this.multiTable = singleTable == null;
        this.table = singleTable == null ? null : singleTable.name();
        this.beginTimeMs = beginTimeMs;
        if (singleTable != null) {
            channels.put(singleTable.name(), new TableChannel(singleTable));
        }
    }

    public long txnId() {
        return txnId;
    }

    public String database() {
        return database;
    }

    public String label() {
        return label;
    }

    public boolean multiTable() {
        return multiTable;
    }

    /** The table of a single-table context; null for multi-table. */
    public String table() {
        return table;
    }

    /** Begin time on the emulator clock, epoch ms. */
    public long beginTimeMs() {
        return beginTimeMs;
    }

    /** Last load activity on the emulator clock, epoch ms. */
    public synchronized long lastActiveMs() {
        return lastActiveMs;
    }

    /** True while one of its channels has a request in flight. */
    public boolean inProcessing() {
        for (TableChannel c : channels()) {
            if (c.inFlight()) {
                return true;
            }
        }
        return false;
    }

    /** The only channel of a single-table context. */
    public synchronized TableChannel singleChannel() {
        return channels.get(table);
    }

    /** The channel of a table, if a load already created it. */
    public synchronized Optional<TableChannel> channel(String tableName) {
        return Optional.ofNullable(channels.get(tableName));
    }

    /** The channel of a table, created on its first load (multi-table sub-task). */
    public synchronized TableChannel channelFor(TableSchema schema) {
        return channels.computeIfAbsent(schema.name(), n -> new TableChannel(schema));
    }

    public synchronized List<TableChannel> channels() {
        return new ArrayList<>(channels.values());
    }

    /**
     * Closes the context for a multi-table commit and returns its channels. A load that checks
     * {@link #closedForCommit()} after entering its channel either ran before this call (and the commit waits
     * for it on that channel) or is refused, so no accepted row is left out of the commit.
     */
    public synchronized List<TableChannel> closeForCommit() {
        closedForCommit = true;
        return new ArrayList<>(channels.values());
    }

    public synchronized boolean closedForCommit() {
        return closedForCommit;
    }

    /** Sum of all channels' counters. */
    public ChannelTotals totals() {
        ChannelTotals sum = ChannelTotals.EMPTY;
        for (TableChannel c : channels()) {
            sum = sum.plus(c.totals());
        }
        return sum;
    }

    /** Records activity (a load started or finished) at {@code nowMs}. */
    public synchronized void touch(long nowMs) {
        lastActiveMs = Math.max(lastActiveMs, nowMs);
    }

    /** True when an idle timeout is set and no activity happened for that long. */
    public synchronized boolean idleExpired(long nowMs) {
        return idleTimeoutMs > 0 && nowMs - lastActiveMs >= idleTimeoutMs;
    }

    public long idleTimeoutMs() {
        return idleTimeoutMs;
    }

    /** Marks the context aborted (first message wins). */
    public synchronized void markAborted(String message) {
        if (abortMessage == null) {
            abortMessage = message;
        }
    }

    /** The abort message, or null while the transaction is healthy. */
    public synchronized String abortMessage() {
        return abortMessage;
    }

    /** {@code ctx->brief()} as StarRocks prints it in messages. */
    public String brief() {
        return "id=" + Long.toHexString(txnId) + ", txn_id=" + txnId + ", label=" + label;
    }
}
