package com.starrocks.connector.flink.table.data;

import io.lockstep.flink.row.TableRow;

/**
 * One row for the StarRocks sink, already serialized, with its target table and, in multi-table
 * transaction mode, its source-transaction bookkeeping.
 *
 * <p>This is the documented connector API (StarRocks' multi-table transaction guide,
 * https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/, {@code StarRocksRowData}): jobs written
 * against the StarRocks Flink connector compile unchanged against Lockstep.
 *
 * <p>Multi-table transaction contract (the components the same guide asks the user to write): rows of one source
 * transaction are emitted together; the last of them has {@link #isTransactionEnd()} {@code true}; every row carries
 * its {@link #getSourcePartition()}, and the stream is keyed by it before the sink.
 *
 * <p>A {@link TableRow} (what Lockstep's sinks read), with the connector's defaults for the bookkeeping getters so
 * that implementations written against the connector compile unchanged.
 */
public interface StarRocksRowData extends TableRow {

    /**
     * The routing key of the row's region (one buffer per target table).
     *
     * @return the key, or {@code null}; implementations that store no explicit key derive
     *     {@code database + "." + table}
     */
    @Override
    String getUniqueKey();

    /** @return the target database name */
    @Override
    String getDatabase();

    /** @return the target table name */
    @Override
    String getTable();

    /**
     * @return the row serialized in the load format of the sink ({@code sink.properties.format}):
     *     one JSON object for {@code json}, one delimited line for {@code csv}
     */
    @Override
    String getRow();

    /**
     * Marks the last row of a source transaction. In multi-table transaction mode the sink
     * commits only at such boundaries, so a source transaction is never split across two
     * StarRocks transactions.
     *
     * @return {@code true} if this row closes its source transaction; {@code false} by default
     */
    @Override
    default boolean isTransactionEnd() {
        return false;
    }

    /**
     * The source partition this row came from (for example a Kafka partition). Multi-table
     * transaction mode tracks transaction boundaries per source partition.
     *
     * @return the partition id (&gt;= 0), or {@code -1} when partition tracking does not apply
     */
    @Override
    default int getSourcePartition() {
        return -1;
    }

    /**
     * The position of this row's source transaction within its source partition (for example the
     * Kafka offset of the transaction's last event, or of the emitted part where a large transaction
     * is split). Positions grow with each source transaction of one (source, source partition). The
     * multi-table exactly-once mode commits the highest position with the data and, after a restart,
     * drops every source transaction at or below the committed one (docs/exactly-once.md).
     *
     * <p>An addition to the StarRocks connector's API: implementations written against it keep
     * compiling and report {@code -1}.
     *
     * @return the position (&gt;= 0), or {@code -1} when not tracked (the default)
     */
    @Override
    default long getSourcePosition() {
        return -1L;
    }

    /**
     * The source this row came from, for example the Kafka topic name, so that partition 0 of two
     * topics never shares a position. Required with {@link #getSourcePosition()} in the multi-table
     * exactly-once mode. An addition to the StarRocks connector's API.
     *
     * @return the source name, or {@code null} when not tracked (the default)
     */
    @Override
    default String getSource() {
        return null;
    }
}
