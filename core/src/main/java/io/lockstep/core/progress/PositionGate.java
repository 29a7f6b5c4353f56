package io.lockstep.core.progress;

import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import javax.annotation.concurrent.NotThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task thread's check of source positions in the multi-table exactly-once mode: drops every source transaction
 * at or below the committed position of its (source, source partition), and refuses rows that break the position
 * contract.
 *
 * <p>Contract (docs/exactly-once.md): every row names its source and carries its source transaction's position; all
 * rows of one source transaction carry the same position; each source transaction of a (source, partition) has a
 * higher position than the one before. What the sink can see and refuses: a row without source or position, a
 * reserved source name ({@code #...}), rows of one transaction with different positions, a position not above the
 * previous transaction's of the same partition. What it cannot see (the source's job, e.g. {@code lockstep run}
 * checks Kafka offsets): a committed position beyond what the source still holds, or a source that was recreated
 * under the same name; a first position far below the committed one is normal after a restore from an older
 * checkpoint and is dropped.
 *
 * <p>Dropped source transactions count in {@link MetricNames#SOURCE_TRANSACTIONS_SKIPPED}; the first drop of each
 * partition logs one INFO line.
 *
 * <p>Task thread only.
 */
@NotThreadSafe
public final class PositionGate {
    private static final Logger LOG = LoggerFactory.getLogger(PositionGate.class);

    /** What to do with one row. */
    public enum Decision { KEEP, DROP }

    /** Per (source, partition): the transaction in progress and the last one ended. */
    private static final class PartitionState {
        long openPosition = -1;
        boolean openDropped;
        long lastEndedPosition = -1;
        boolean loggedDrop;
        long dropped;
    }

    private final CommittedPositions committed;
    private final LoadMetrics metrics;
    private final Map<SourcePartition, PartitionState> partitions = new HashMap<>();
    /**
     * Per partition number, the (source, partition) seen last with it and its state: a row finds its state by an int
     * and one compare of its source name, instead of hashing a new key (a deserialized row's source is a new string).
     */
    private final Map<Integer, Known> byPartitionNumber = new HashMap<>();
    /** The (source, partition) of the row decided last; null before the first. */
    private SourcePartition lastKey;

    /** A (source, partition) and its state, as {@code partitions} holds them. */
    private record Known(SourcePartition key, PartitionState state) {
    }

    /** @param committed the positions read at open (after the settle) */
    public PositionGate(CommittedPositions committed, LoadMetrics metrics) {
        this.committed = committed;
        this.metrics = metrics;
    }

    /**
     * Decides one row.
     *
     * @param source         the row's source (e.g. Kafka topic)
     * @param partition      its source partition
     * @param position       its source transaction's position
     * @param transactionEnd whether it is the last row of its source transaction
     * @param where          how messages name the row (target table, partition), never its content; built only
     *                       for a message
     * @return KEEP to load it, DROP when its transaction is at or below the committed position
     * @throws IllegalArgumentException naming the row and the broken rule; nothing about the row changed state
     */
    public Decision admit(String source, int partition, long position, boolean transactionEnd,
                          Supplier<String> where) {
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("row " + where.get() + " has no source: multi-table exactly-once needs "
                    + "every row to name its source (setSource, e.g. the Kafka topic) and its position "
                    + "(setSourcePosition)");
        }
        if (source.startsWith("#")) {
            throw new IllegalArgumentException("row " + where.get() + " names source '" + source + "': names starting with "
                    + "'#' are reserved for the progress table's run rows");
        }
        if (position < 0) {
            throw new IllegalArgumentException("row " + where.get() + " of source " + source + " partition " + partition
                    + " has source position " + position + ": multi-table exactly-once needs every row to carry the "
                    + "position of its source transaction (setSourcePosition, >= 0, e.g. the Kafka offset of the "
                    + "transaction's last event)");
        }
        SourcePartition key;
        PartitionState state;
        Known known = byPartitionNumber.get(partition);
        if (known != null && known.key().source().equals(source)) {
            key = known.key();
            state = known.state();
        } else {
            key = new SourcePartition(source, partition);
            state = partitions.computeIfAbsent(key, k -> new PartitionState());
            byPartitionNumber.put(partition, new Known(key, state));
        }
        lastKey = key;
        if (state.openPosition >= 0) {
            if (position != state.openPosition) {
                throw new IllegalArgumentException("row " + where.get() + " of " + key + " has source position " + position
                        + " but earlier rows of the same source transaction have " + state.openPosition
                        + ": every row of one source transaction must carry the same position");
            }
        } else {
            if (state.lastEndedPosition >= 0 && position <= state.lastEndedPosition) {
                throw new IllegalArgumentException("row " + where.get() + " of " + key + " has source position " + position
                        + ", not above the previous source transaction's position " + state.lastEndedPosition
                        + ": positions must grow with each source transaction of a partition (is the input keyed "
                        + "and ordered by source partition?)");
            }
            OptionalLong done = committed.of(key);
            state.openPosition = position;
            state.openDropped = done.isPresent() && position <= done.getAsLong();
            if (state.openDropped && !state.loggedDrop) {
                state.loggedDrop = true;
                LOG.info("source {} partition {}: dropping replayed source transactions at or below the committed "
                        + "position {} (first one at {})", source, partition, done.getAsLong(), position);
            }
        }
        boolean drop = state.openDropped;
        if (transactionEnd) {
            state.lastEndedPosition = position;
            state.openPosition = -1;
            if (drop) {
                state.dropped++;
                metrics.counter(MetricNames.SOURCE_TRANSACTIONS_SKIPPED).inc();
            }
        }
        return drop ? Decision.DROP : Decision.KEEP;
    }

    /**
     * The (source, partition) of the row {@link #admit} decided last, or null before the first (the same instance for
     * every row of one source partition while no other source shares its number, so that the caller need not build
     * one per transaction end).
     */
    public SourcePartition lastPartition() {
        return lastKey;
    }

    /** Source transactions dropped so far for {@code partition}. */
    public long droppedTransactions(SourcePartition partition) {
        PartitionState state = partitions.get(partition);
        return state == null ? 0 : state.dropped;
    }
}
