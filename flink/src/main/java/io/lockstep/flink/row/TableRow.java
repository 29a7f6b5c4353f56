package io.lockstep.flink.row;

import java.util.Map;

/**
 * What the sinks read from one row: its target table, its content already serialized in the load format, and, in
 * multi-table transaction mode, its source-transaction bookkeeping. The sinks take any {@code TableRow}; the
 * StarRocks connector's documented row ({@code com.starrocks.connector.flink.table.data.StarRocksRowData}) is one,
 * and {@link LoadRow} is the concrete row Lockstep's own operators build.
 *
 * <p>Multi-table transaction contract (docs/sinks.md): rows of one source transaction are emitted together; the
 * last of them has {@link #isTransactionEnd()} {@code true}; every row carries its {@link #getSourcePartition()},
 * and the stream is partitioned by it before the sink.
 */
public interface TableRow {

    /**
     * The routing key of the row's region (one buffer per target table).
     *
     * @return the key, or {@code null}; implementations that store no explicit key derive
     *     {@code database + "." + table}
     */
    String getUniqueKey();

    /** @return the target database name */
    String getDatabase();

    /** @return the target table name */
    String getTable();

    /**
     * @return the row serialized in the load format of the sink ({@code sink.properties.format}):
     *     one JSON object for {@code json}, one delimited line for {@code csv}
     */
    String getRow();

    /**
     * Marks the last row of a source transaction. In multi-table transaction mode the sink commits only at such
     * boundaries, so a source transaction is never split across two load transactions.
     *
     * @return {@code true} if this row closes its source transaction
     */
    boolean isTransactionEnd();

    /**
     * The source partition this row came from (for example a Kafka partition). Multi-table transaction mode tracks
     * transaction boundaries per source partition.
     *
     * @return the partition id (&gt;= 0), or {@code -1} when partition tracking does not apply
     */
    int getSourcePartition();

    /**
     * The position of this row's source transaction within its source partition (for example the Kafka offset of
     * the transaction's last event, or of the emitted part where a large transaction is split). Positions grow with
     * each source transaction of one (source, source partition). The multi-table exactly-once mode commits the
     * highest position with the data and, after a restart, drops every source transaction at or below the committed
     * one (docs/exactly-once.md).
     *
     * @return the position (&gt;= 0), or {@code -1} when not tracked
     */
    long getSourcePosition();

    /**
     * The source this row came from, for example the Kafka topic name, so that partition 0 of two topics never
     * shares a position. Required with {@link #getSourcePosition()} in the multi-table exactly-once mode.
     *
     * @return the source name, or {@code null} when not tracked
     */
    String getSource();

    /**
     * The source database whose commit position {@link #getCommitPosition()} holds, on a transaction-end row: e.g.
     * {@code postgresql:pg1} (Debezium connector and server name) or {@code maxwell}. At most 200 characters, not
     * blank, not starting with {@code #}. The multi-table exactly-once sink commits the pair with the data, as the
     * progress row {@code #commit:<commitSource>} of the row's source partition (docs/exactly-once.md).
     *
     * @return the commit source, or {@code null} (the default: the row carries no commit position)
     */
    default String getCommitSource() {
        return null;
    }

    /**
     * The commit position of the row's source transaction in its source database, on a transaction-end row with a
     * {@link #getCommitSource()}: an opaque text (the transaction assembler's JSON) the sink stores as is and never
     * parses; at most 65,533 UTF-8 bytes.
     *
     * @return the commit position text, or {@code null} (the default)
     */
    default String getCommitPosition() {
        return null;
    }

    /**
     * On the end row of a transaction rebuilt from several Kafka topics (Debezium's one-topic-per-table layout): per
     * topic partition the rebuild reads, keyed {@code topic/partition} (the topic as the row's source is named, the
     * partition a decimal int), the highest offset below which nothing of that partition is still held. The
     * multi-table exactly-once sink commits each as the ordinary progress row of (topic, partition), highest wins, in
     * the same transaction as the row's data; they do not pass the position gate (they are no rows)
     * (docs/exactly-once.md#progress-rows-of-the-multi-topic-layout).
     *
     * @return the covered positions (offsets &gt;= 0), or {@code null} (the default: none)
     */
    default Map<String, Long> getCoveredPositions() {
        return null;
    }
}
