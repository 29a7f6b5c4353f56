package io.lockstep.flink.sink;

import io.lockstep.core.progress.CommitPosition;
import io.lockstep.core.progress.PositionGate;
import io.lockstep.core.progress.ProgressTableException;
import io.lockstep.core.progress.SourcePartition;
import io.lockstep.flink.row.TableRow;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import javax.annotation.concurrent.NotThreadSafe;

/**
 * Turns the sink's input elements into engine calls (docs/sinks.md#what-each-call-does, invoke): a row with data →
 * {@link EngineCalls#write}; a row with {@code transactionEnd=true} → {@link EngineCalls#txnEnd} for its source
 * partition, after its data. A row may carry data and the end, or only the end ({@code getRow()} null or empty).
 *
 * <p>Multi-table mode needs each row's source partition: a row with {@code sourcePartition < 0} is refused with a
 * message explaining the keyBy contract. In the multi-table exactly-once mode each row's source and position go
 * through a {@link PositionGate} first: replayed source transactions (at or below the committed position) are
 * dropped whole, and rows without a position or with a position going back are refused; a transaction end's commit
 * source and position ({@link TableRow#getCommitSource()}, {@link TableRow#getCommitPosition()}) go with its
 * source position to the engine, which commits them with the data (a {@link CommitPosition} that cannot be stored,
 * or one on a row that is not a transaction end, fails the job in one line), as do its covered positions
 * ({@link TableRow#getCoveredPositions()}: keys {@code topic/partition} become {@link SourcePartition}s; they do not
 * pass the gate, they are no rows; docs/exactly-once.md#progress-rows-of-the-multi-topic-layout). Other modes ignore
 * them. Single-table
 * modes ignore partitions and transaction ends (each flush commits per table).
 *
 * <p>Task thread only.
 */
@NotThreadSafe
public final class RowDispatcher {

    /** The engine operations the dispatcher drives (the multi-table or single-table engine, or a test fake). */
    public interface EngineCalls {
        /**
         * Buffers one JSON row.
         *
         * @param partition the row's source partition (-1 in single-table modes)
         */
        void write(int partition, String database, String table, byte[] row) throws InterruptedException;

        /** The source transaction of {@code partition} ended (multi-table mode only). */
        void txnEnd(int partition);

        /**
         * The source transaction at {@code position} of {@code source} ended (multi-table exactly-once mode); the
         * engine commits the position, and {@code commit} (null: none) as its commit position row, with the data.
         */
        default void txnEnd(int partition, SourcePartition source, long position, @Nullable CommitPosition commit) {
            throw new UnsupportedOperationException("this engine does not track source positions");
        }

        /**
         * As {@link #txnEnd(int, SourcePartition, long, CommitPosition)}; the engine also commits each of
         * {@code covered} (null: none) as the progress row of its (source, source partition), highest wins.
         */
        default void txnEnd(int partition, SourcePartition source, long position, @Nullable CommitPosition commit,
                            @Nullable Map<SourcePartition, Long> covered) {
            if (covered != null) {
                throw new UnsupportedOperationException("this engine does not track covered positions");
            }
            txnEnd(partition, source, position, commit);
        }
    }

    private final RowRouting routing;
    private final boolean multiTable;
    private final EngineCalls engine;
    /** Multi-table exactly-once mode: drops replayed source transactions and checks positions; null otherwise. */
    @Nullable
    private final PositionGate gate;
    /** The row the gate decides now; only {@code describeGated} reads it, during that call. */
    private TableRow gated;
    /** Names {@code gated} in the gate's messages; one instance, so a row allocates no message supplier. */
    private final Supplier<String> describeGated = () -> RowRouting.describe(gated);

    /**
     * @param multiTable whether source partitions and transaction ends matter (multi-table mode)
     */
    public RowDispatcher(RowRouting routing, boolean multiTable, EngineCalls engine) {
        this(routing, multiTable, engine, null);
    }

    /**
     * @param gate multi-table exactly-once mode: every row's source and position go through it first, and a dropped
     *             row reaches neither write nor txnEnd; null in other modes
     */
    public RowDispatcher(RowRouting routing, boolean multiTable, EngineCalls engine, @Nullable PositionGate gate) {
        this.routing = Objects.requireNonNull(routing, "routing");
        this.multiTable = multiTable;
        this.engine = Objects.requireNonNull(engine, "engine");
        if (gate != null && !multiTable) {
            throw new IllegalArgumentException("source positions are tracked in multi-table mode only");
        }
        this.gate = gate;
    }

    /**
     * Handles one input element.
     *
     * @throws IllegalArgumentException if the element is not a {@link TableRow}, has neither data nor a
     *                                  transaction end, cannot be routed, or (multi-table) has no source partition;
     *                                  nothing of the element is buffered then
     * @throws NonRecoverableSinkFailure around the engine's failure when no restart can heal it, and around a
     *                                  {@link ProgressTableException} for a commit position that cannot be stored
     *                                  (before anything of the element is buffered)
     * @throws InterruptedException     if interrupted while the engine blocks on memory
     */
    public void dispatch(Object element) throws InterruptedException {
        TableRow row = RowRouting.asRowData(element);
        byte[] data = RowRouting.payload(row);
        boolean end = row.isTransactionEnd();
        if (data == null && !(multiTable && end)) {
            if (end) {
                return; // single-table modes: an end-only row carries nothing to load
            }
            throw new IllegalArgumentException("row " + RowRouting.describe(row) + " has no data (getRow() is "
                    + "null or empty) and is not a transaction end; every row must carry one JSON object (or, with "
                    + "sink.properties.format=csv, one CSV line), or transactionEnd=true");
        }
        int partition = -1;
        if (multiTable) {
            partition = row.getSourcePartition();
            if (partition < 0) {
                throw new IllegalArgumentException("row " + RowRouting.describe(row) + " has sourcePartition "
                        + partition + ": multi-table mode commits per source partition, so every row needs "
                        + "setSourcePartition(p >= 0) and the stream must be keyed by it before the sink "
                        + "(stream.keyBy(StarRocksRowData::getSourcePartition).addSink(sink)), which keeps each "
                        + "partition's transactions in order on one sink subtask");
            }
        }
        if (gate != null) {
            gated = row;
            if (gate.admit(row.getSource(), partition, row.getSourcePosition(), end, describeGated)
                    == PositionGate.Decision.DROP) {
                return;
            }
        }
        CommitPosition commit = gate != null ? commitOf(row, end) : null;
        Map<SourcePartition, Long> covered = gate != null ? coveredOf(row, end) : null;
        // routed as RowRouting#route (database first), without a Target per row
        String database = data != null ? routing.databaseOf(row) : null;
        String table = data != null ? routing.tableOf(row) : null;
        try {
            if (data != null) {
                engine.write(partition, database, table, data);
            }
            if (multiTable && end) {
                if (gate != null) {
                    // the gate just admitted this row: its (source, partition), without a new key per transaction
                    if (covered == null) {
                        engine.txnEnd(partition, gate.lastPartition(), row.getSourcePosition(), commit);
                    } else {
                        engine.txnEnd(partition, gate.lastPartition(), row.getSourcePosition(), commit, covered);
                    }
                } else {
                    engine.txnEnd(partition);
                }
            }
        } catch (RuntimeException engineFailure) {
            // the engine's first failure surfaces here when a row comes after it
            throw NonRecoverableSinkFailure.classify(engineFailure);
        }
    }

    /**
     * The commit position an admitted row carries, or null when it carries none.
     *
     * @throws NonRecoverableSinkFailure around a {@link ProgressTableException} naming the row's table, source
     *                                   partition and position and what is wrong (never the position text): a
     *                                   commit source that is blank, starts with {@code #} or is too long, a text
     *                                   over 65,533 UTF-8 bytes, or a commit position on a row that is not a
     *                                   transaction end; every replay would bring the same row again
     */
    @Nullable
    private static CommitPosition commitOf(TableRow row, boolean end) {
        String commitSource = row.getCommitSource();
        String text = row.getCommitPosition();
        if (commitSource == null && text == null) {
            return null;
        }
        try {
            if (!end) {
                throw new IllegalArgumentException("it carries a commit position but is not a transaction end");
            }
            return new CommitPosition(commitSource, text);
        } catch (IllegalArgumentException e) {
            throw NonRecoverableSinkFailure.classify(new ProgressTableException("row " + RowRouting.describe(row)
                    + " at source position " + row.getSourcePosition() + ": " + e.getMessage() + "; the progress "
                    + "table cannot commit it (docs/exactly-once.md#commit-position-rows)"));
        }
    }

    /**
     * The covered positions an admitted row carries, by (source, source partition), or null when it carries none.
     *
     * @throws NonRecoverableSinkFailure around a {@link ProgressTableException} naming the row, its source position
     *                                   and the bad entry: a key that is not {@code topic/partition} (a non-blank
     *                                   source not starting with {@code #}, a partition &gt;= 0), a position below 0,
     *                                   or covered positions on a row that is not a transaction end
     */
    @Nullable
    private static Map<SourcePartition, Long> coveredOf(TableRow row, boolean end) {
        Map<String, Long> covered = row.getCoveredPositions();
        if (covered == null) {
            return null;
        }
        try {
            if (!end) {
                throw new IllegalArgumentException("it carries covered positions but is not a transaction end");
            }
            Map<SourcePartition, Long> byPartition = new HashMap<>();
            for (Map.Entry<String, Long> entry : covered.entrySet()) {
                byPartition.put(coveredPartition(entry.getKey()), coveredPosition(entry.getKey(), entry.getValue()));
            }
            return byPartition;
        } catch (IllegalArgumentException e) {
            throw NonRecoverableSinkFailure.classify(new ProgressTableException("row " + RowRouting.describe(row)
                    + " at source position " + row.getSourcePosition() + ": " + e.getMessage() + "; the progress "
                    + "table cannot commit it (docs/exactly-once.md#progress-rows-of-the-multi-topic-layout)"));
        }
    }

    /** @throws IllegalArgumentException naming the key, unless it is {@code source/partition} */
    private static SourcePartition coveredPartition(String key) {
        int slash = key == null ? -1 : key.lastIndexOf('/');
        if (slash <= 0 || key.startsWith("#")) {
            throw new IllegalArgumentException("covered position key '" + key + "' is not topic/partition");
        }
        try {
            return new SourcePartition(key.substring(0, slash), Integer.parseInt(key.substring(slash + 1)));
        } catch (IllegalArgumentException e) { // NumberFormatException included
            throw new IllegalArgumentException("covered position key '" + key + "' is not topic/partition ("
                    + e.getMessage() + ")", e);
        }
    }

    /** @throws IllegalArgumentException naming the key, for a missing or negative position */
    private static long coveredPosition(String key, Long position) {
        if (position == null || position < 0) {
            throw new IllegalArgumentException("covered position of " + key + " is " + position + ", expected >= 0");
        }
        return position;
    }
}
