package io.lockstep.emulator.be;

import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.LoadBodyParser;
import io.lockstep.emulator.load.LoadFormat;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.load.LoadStreamCarry;
import io.lockstep.emulator.load.ParsedBatch;
import io.lockstep.emulator.load.RowChange;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The BE side of one table in one transaction: the planned load parameters (fixed by the first load), the rows received
 * so far and their counters (docs/protocol.md#load-headers, #timeouts-limits-and-concurrency).
 *
 * <p>Two guards: {@link #inFlight} admits one request at a time (a second concurrent request gets
 * TXN_IN_PROCESSING; it is held for a whole request, never across requests); the monitor {@code this} guards
 * the data fields for short critical sections.
 */
@ThreadSafe
public final class TableChannel {
    /** Error-log lines kept per channel, as StarRocks keeps the first rejected rows. */
    private static final int MAX_ERROR_ROWS = 1000;

    private final TableSchema table;
    private final ReentrantLock inFlight = new ReentrantLock();
    /** The unterminated CSV record waiting for the next load; guarded by {@link #inFlight} (its holder only). */
    private final LoadStreamCarry carry = new LoadStreamCarry();

    @GuardedBy("this")
    private LoadFormat plannedFormat;
    @GuardedBy("this")
    private final List<RowChange> rows = new ArrayList<>();
    @GuardedBy("this")
    private final List<String> errorRows = new ArrayList<>();
    @GuardedBy("this")
    private ChannelTotals totals = ChannelTotals.EMPTY;
    @GuardedBy("this")
    private long jsonBytes;

    public TableChannel(TableSchema table) {
        this.table = table;
    }

    public TableSchema table() {
        return table;
    }

    /** Admits the calling request if no other request of this channel is in flight. */
    public boolean tryEnter() {
        return inFlight.tryLock();
    }

    /** Waits up to {@code timeoutMs} for the in-flight request to finish (commit of a multi-table channel). */
    public boolean enter(long timeoutMs) throws InterruptedException {
        return inFlight.tryLock(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** True while a request holds this channel (diagnostics only: the answer may change at once). */
    public boolean inFlight() {
        return inFlight.isLocked();
    }

    /** Ends the calling request's turn; must be called by the thread that entered. */
    public void exit() {
        inFlight.unlock();
    }

    /**
     * Plans the channel with the first load's format, or checks a later load's against it with
     * {@link LoadFormat#sameLoadRequest} (the fields of docs/protocol.md#load-headers; {@code max_filter_ratio} is not
     * compared).
     *
     * @param format this load's parsed format (kept when this is the first load)
     * @return the planned format every load of this channel is parsed with (the first load's)
     * @throws LoadParametersMismatch when the request differs from the first load's
     */
    public synchronized LoadFormat plan(LoadFormat format) throws LoadParametersMismatch {
        if (plannedFormat == null) {
            plannedFormat = format;
            return format;
        }
        if (!plannedFormat.sameLoadRequest(format)) {
            throw new LoadParametersMismatch();
        }
        return plannedFormat;
    }

    /** The stream carry of this channel; use only while holding the channel ({@link #tryEnter}/{@link #enter}). */
    public LoadStreamCarry carry() {
        return carry;
    }

    /**
     * Ends the channel's stream at prepare/commit: a carried unterminated CSV record is read as the last record, as the
     * BE reads the end of its input (docs/protocol.md#data-formats-and-filtered-rows). Call only while holding the
     * channel.
     *
     * @throws LoadFormatException if the parser rejects the request as a whole
     */
    public void finishStream(LoadBodyParser parser) throws LoadFormatException {
        LoadFormat format;
        synchronized (this) {
            format = plannedFormat;
        }
        if (format == null || carry.pendingBytes() == 0) {
            return;
        }
        addStreamTail(parser.finish(table, format, carry));
    }

    /** Adds the last record read from the carry (no body bytes, not a load of its own). */
    private synchronized void addStreamTail(ParsedBatch batch) {
        rows.addAll(batch.rows());
        for (String line : batch.errorRows()) {
            if (errorRows.size() >= MAX_ERROR_ROWS) {
                break;
            }
            errorRows.add(line);
        }
        totals = totals.plus(new ChannelTotals(batch.totalRows(), batch.rows().size(), batch.filteredRows(),
                batch.unselectedRows(), 0, 0));
    }

    /** Bytes received so far, and the JSON bytes counted against the JSON batch limit. */
    public synchronized long loadBytes() {
        return totals.loadBytes();
    }

    public synchronized long jsonBytes() {
        return jsonBytes;
    }

    /** Adds one parsed load body. */
    public synchronized void add(ParsedBatch batch, long bodyBytes, boolean countsAsJson) {
        rows.addAll(batch.rows());
        for (String line : batch.errorRows()) {
            if (errorRows.size() >= MAX_ERROR_ROWS) {
                break;
            }
            errorRows.add(line);
        }
        totals = totals.plus(new ChannelTotals(batch.totalRows(), batch.rows().size(), batch.filteredRows(),
                batch.unselectedRows(), bodyBytes, 1));
        if (countsAsJson) {
            jsonBytes += bodyBytes;
        }
    }

    public synchronized ChannelTotals totals() {
        return totals;
    }

    /** A copy of the rows received so far, in load order. */
    public synchronized List<RowChange> rows() {
        return List.copyOf(rows);
    }

    /** A copy of the error-log lines of the rows filtered so far. */
    public synchronized List<String> errorRows() {
        return List.copyOf(errorRows);
    }

    /** The planned {@code max_filter_ratio} (first load's), 0 before any load. */
    public synchronized double maxFilterRatio() {
        return plannedFormat == null ? 0 : plannedFormat.maxFilterRatio();
    }
}
