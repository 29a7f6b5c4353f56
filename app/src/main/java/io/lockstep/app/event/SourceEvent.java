package io.lockstep.app.event;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One decoded CDC event: a transaction BEGIN, a changed row, or a transaction END, with the source
 * position it came from (for error messages). A Flink POJO with only scalar, enum and {@link HashMap}
 * fields, so it is serialized without {@code List.of}-style immutable collections. Not thread safe.
 *
 * <p>Fields by kind:
 * <ul>
 *   <li>{@link SourceEventKind#ROW}: {@code sourceDatabase}, {@code sourceTable}, {@code row} (one JSON
 *       object: the after-image for an upsert, the before-image plus {@code "__op":1} for a delete),
 *       {@code delete}; optionally {@code previousKeyDeleteRow} (a primary-key-changing update: delete
 *       the old key first, then upsert {@code row}); {@code transactionId}/{@code transactionKey}, or
 *       {@code standalone = true} when the row is loaded as its own transaction (snapshot rows, rows
 *       without a transaction block); Maxwell sets {@code commit = true} on a transaction's last row;
 *       Debezium sets {@code totalOrder} (the event's 1-based position in its transaction, or -1).
 *   <li>{@link SourceEventKind#BEGIN}: {@code transactionId}, {@code transactionKey}.
 *   <li>{@link SourceEventKind#END}: as BEGIN, plus {@code eventCount} and {@code tableEventCounts}
 *       (data collection {@code db.table} to its number of data events).
 * </ul>
 *
 * <p>Source commit position (docs/input-formats.md#source-commit-positions-and-re-sends), where the format carries
 * one: {@code commitSource} (the source database: {@code postgresql:<name>}, {@code mysql:<name>} on Debezium data
 * events; {@code maxwell} or {@code maxwell:<server_id>} on Maxwell rows), {@code commitLsn} (PostgreSQL: the LSN of
 * an END id {@code txId:LSN}, the end of the commit record), {@code gtid} (MySQL {@code uuid[:tag]:n}: Debezium
 * {@code source.gtid} and GTID-shaped BEGIN/END ids, Maxwell {@code gtid}), {@code binlogFile}/{@code binlogPosition}
 * (Debezium MySQL ids {@code file=F,pos=P}: the transaction's BEGIN event; Maxwell {@code position} {@code F:P}: just
 * after the row's rows event) and {@code commitTimeMs} (Debezium END {@code ts_ms}, Maxwell {@code ts} x 1000).
 * Absent: {@code null} or -1.
 *
 * <p>{@code transactionKey} is the part of the id that is the same on every event of one transaction: the whole id,
 * except for PostgreSQL's {@code txId:LSN}, whose LSN part varies (docs/input-formats.md#transaction-ids), where it is
 * the {@code txId}.
 */
public class SourceEvent {

    private SourceEventKind kind;
    private String topic;
    private int partition;
    private long offset;

    private String transactionId;
    private String transactionKey;
    private boolean standalone;
    private boolean commit;

    private String sourceDatabase;
    private String sourceTable;
    private boolean delete;
    private String row;
    private String previousKeyDeleteRow;

    private long totalOrder = -1;

    private String schemaColumns;
    private String droppedColumns;

    private long eventCount = -1;
    private HashMap<String, Long> tableEventCounts;

    private String commitSource;
    private long commitLsn = -1;
    private String gtid;
    private String binlogFile;
    private long binlogPosition = -1;
    private long commitTimeMs = -1;

    private HashMap<String, Long> coveredPositions;
    private long previousCommitLsn = -1;
    private String rebuiltSource;
    private long rebuiltPosition = -1;

    /** The message's key and value as read; kept only while a dead letter is configured ({@link DecodeFunction}). */
    private String rawKey;
    private String rawValue;

    /** Creates an empty event (Flink POJO constructor). */
    public SourceEvent() {
    }

    /**
     * Creates an event of a kind at a source position; the other fields are set afterwards.
     *
     * @param kind what the event is
     * @param record the message it was decoded from (topic, partition, offset are copied)
     * @return the new event
     */
    public static SourceEvent at(SourceEventKind kind, SourceRecord record) {
        SourceEvent event = new SourceEvent();
        event.kind = kind;
        event.topic = record.getTopic();
        event.partition = record.getPartition();
        event.offset = record.getOffset();
        return event;
    }

    /** @return {@code topic 'T' partition P offset O}, for error messages */
    public String describePosition() {
        return SourcePositions.describe(topic, partition, offset);
    }

    /**
     * @param ddl a DDL statement
     * @return it on one line, cut to 200 characters (it goes into error lines)
     */
    public static String ddlExcerpt(String ddl) {
        String oneLine = ddl.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }

    /** @return {@code sourceDatabase.sourceTable}: the Debezium data collection name of a ROW event */
    public String dataCollection() {
        return sourceDatabase + "." + sourceTable;
    }

    /** @return the number of rows this event puts into the sink: 2 for a key-changing update, else 1 */
    public int sinkRowCount() {
        return previousKeyDeleteRow == null ? 1 : 2;
    }

    public SourceEventKind getKind() { return kind; }
    public void setKind(SourceEventKind kind) { this.kind = kind; }

    public String getTopic() { return topic; }
    public void setTopic(String topic) { this.topic = topic; }

    public int getPartition() { return partition; }
    public void setPartition(int partition) { this.partition = partition; }

    public long getOffset() { return offset; }
    public void setOffset(long offset) { this.offset = offset; }

    public String getTransactionId() { return transactionId; }
    public void setTransactionId(String transactionId) { this.transactionId = transactionId; }

    public String getTransactionKey() { return transactionKey; }
    public void setTransactionKey(String transactionKey) { this.transactionKey = transactionKey; }

    public boolean isStandalone() { return standalone; }
    public void setStandalone(boolean standalone) { this.standalone = standalone; }

    public boolean isCommit() { return commit; }
    public void setCommit(boolean commit) { this.commit = commit; }

    public String getSourceDatabase() { return sourceDatabase; }
    public void setSourceDatabase(String sourceDatabase) { this.sourceDatabase = sourceDatabase; }

    public String getSourceTable() { return sourceTable; }
    public void setSourceTable(String sourceTable) { this.sourceTable = sourceTable; }

    public boolean isDelete() { return delete; }
    public void setDelete(boolean delete) { this.delete = delete; }

    public String getRow() { return row; }
    public void setRow(String row) { this.row = row; }

    public String getPreviousKeyDeleteRow() { return previousKeyDeleteRow; }
    public void setPreviousKeyDeleteRow(String previousKeyDeleteRow) { this.previousKeyDeleteRow = previousKeyDeleteRow; }

    /** @return Debezium's {@code transaction.total_order} (1-based position in the transaction), or -1 */
    public long getTotalOrder() { return totalOrder; }
    public void setTotalOrder(long totalOrder) { this.totalOrder = totalOrder; }

    public long getEventCount() { return eventCount; }
    public void setEventCount(long eventCount) { this.eventCount = eventCount; }

    public HashMap<String, Long> getTableEventCounts() { return tableEventCounts; }
    public void setTableEventCounts(HashMap<String, Long> tableEventCounts) { this.tableEventCounts = tableEventCounts; }

    /** @return the source database the event comes from ({@code postgresql:pg1}, {@code maxwell}...), or {@code null} */
    public String getCommitSource() { return commitSource; }
    public void setCommitSource(String commitSource) { this.commitSource = commitSource; }

    /** @return PostgreSQL END: the commit LSN (the part after {@code :} of its id); else -1 */
    public long getCommitLsn() { return commitLsn; }
    public void setCommitLsn(long commitLsn) { this.commitLsn = commitLsn; }

    /** @return the MySQL GTID {@code uuid[:tag]:n} of the event's transaction, or {@code null} */
    public String getGtid() { return gtid; }
    public void setGtid(String gtid) { this.gtid = gtid; }

    /** @return the binlog file of the event's binlog position, or {@code null} */
    public String getBinlogFile() { return binlogFile; }
    public void setBinlogFile(String binlogFile) { this.binlogFile = binlogFile; }

    /** @return the offset in {@link #getBinlogFile()} (bytes), or -1 */
    public long getBinlogPosition() { return binlogPosition; }
    public void setBinlogPosition(long binlogPosition) { this.binlogPosition = binlogPosition; }

    /** @return the source's commit time in epoch ms (Debezium END {@code ts_ms}, Maxwell {@code ts} x 1000), or -1 */
    public long getCommitTimeMs() { return commitTimeMs; }
    public void setCommitTimeMs(long commitTimeMs) { this.commitTimeMs = commitTimeMs; }

    /**
     * @return the message as read (coordinates, key and value text): what a dead letter keeps of this event; key and
     *     value are {@code null} unless they were kept for a dead letter
     */
    public SourceRecord rawRecord() {
        return new SourceRecord(getTopic(), getPartition(), getOffset(), rawKey, rawValue);
    }

    /** @return the message key as read, when kept for a dead letter; else {@code null} */
    public String getRawKey() { return rawKey; }
    public void setRawKey(String rawKey) { this.rawKey = rawKey; }

    /** @return the message value as read, when kept for a dead letter; else {@code null} */
    public String getRawValue() { return rawValue; }
    public void setRawValue(String rawValue) { this.rawValue = rawValue; }

    /**
     * @return on an END rebuilt from several topics (Debezium's default layout, one topic per table): per table topic
     *     partition, keyed {@code topic/partition}, the highest offset at or below which every event belongs to this
     *     transaction or an earlier one in commit order (the next start reads from that offset + 1); {@code null}
     *     otherwise. Only partitions whose value moved since the previous END are present; a lower value is always
     *     safe (events read again are dropped as already loaded).
     */
    public HashMap<String, Long> getCoveredPositions() { return coveredPositions; }
    public void setCoveredPositions(HashMap<String, Long> coveredPositions) { this.coveredPositions = coveredPositions; }

    /**
     * @return on a Debezium PostgreSQL data event: the commit LSN of the transaction committed just before this
     *     event's transaction ({@code source.sequence[0]}); -1 when absent
     */
    public long getPreviousCommitLsn() { return previousCommitLsn; }
    public void setPreviousCommitLsn(long previousCommitLsn) { this.previousCommitLsn = previousCommitLsn; }

    /**
     * @return on an END or standalone row released by the cross-topic rebuild: the source name its rows carry
     *     ({@code io.lockstep.app.rebuild.TopicLayout#rebuiltSource}); {@code null} otherwise (rows then carry the
     *     event's own topic and offset)
     */
    public String getRebuiltSource() { return rebuiltSource; }
    public void setRebuiltSource(String rebuiltSource) { this.rebuiltSource = rebuiltSource; }

    /**
     * @return with {@link #getRebuiltSource()}: the position its rows carry, growing by one with each unit (source
     *     transaction or standalone row) the rebuild releases; -1 otherwise
     */
    public long getRebuiltPosition() { return rebuiltPosition; }
    public void setRebuiltPosition(long rebuiltPosition) { this.rebuiltPosition = rebuiltPosition; }

    /** @param counts data collection to event count; copied into a {@link HashMap} */
    public void putTableEventCounts(Map<String, Long> counts) {
        this.tableEventCounts = new HashMap<>(counts);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SourceEvent)) {
            return false;
        }
        SourceEvent that = (SourceEvent) o;
        return partition == that.partition && offset == that.offset && standalone == that.standalone
                && commit == that.commit && delete == that.delete && eventCount == that.eventCount
                && totalOrder == that.totalOrder && commitLsn == that.commitLsn
                && binlogPosition == that.binlogPosition && commitTimeMs == that.commitTimeMs
                && Objects.equals(commitSource, that.commitSource) && Objects.equals(gtid, that.gtid)
                && Objects.equals(binlogFile, that.binlogFile)
                && kind == that.kind && Objects.equals(topic, that.topic)
                && Objects.equals(transactionId, that.transactionId)
                && Objects.equals(transactionKey, that.transactionKey)
                && Objects.equals(sourceDatabase, that.sourceDatabase)
                && Objects.equals(sourceTable, that.sourceTable) && Objects.equals(row, that.row)
                && Objects.equals(previousKeyDeleteRow, that.previousKeyDeleteRow)
                && Objects.equals(tableEventCounts, that.tableEventCounts)
                && Objects.equals(coveredPositions, that.coveredPositions)
                && previousCommitLsn == that.previousCommitLsn && rebuiltPosition == that.rebuiltPosition
                && Objects.equals(rebuiltSource, that.rebuiltSource);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, topic, partition, offset, transactionId, row);
    }

    /** Describes the event without row content (rows may hold personal data and must not reach logs). */
    @Override
    public String toString() {
        return "SourceEvent{" + kind + " at " + describePosition()
                + (transactionId != null ? ", transaction=" + transactionId : "")
                + (standalone ? ", standalone" : "") + (commit ? ", commit" : "")
                + (sourceTable != null ? ", table=" + dataCollection() : "")
                + (delete ? ", delete" : "")
                + (previousKeyDeleteRow != null ? ", keyChange" : "")
                + (kind == SourceEventKind.END ? ", eventCount=" + eventCount + ", tables=" + tableEventCounts : "")
                + "}";
    }

    /**
     * @return for a {@link SourceEventKind#SCHEMA_CHANGE} that describes its table: the table's columns after the
     *     change, one {@code name<TAB>source type} per line in table order (e.g. {@code note\tvarchar(64)}); else
     *     {@code null}
     */
    public String getSchemaColumns() { return schemaColumns; }
    public void setSchemaColumns(String schemaColumns) { this.schemaColumns = schemaColumns; }

    /** @return for a {@link SourceEventKind#SCHEMA_CHANGE}: the columns it drops, one name per line; else {@code null} */
    public String getDroppedColumns() { return droppedColumns; }
    public void setDroppedColumns(String droppedColumns) { this.droppedColumns = droppedColumns; }
}
