package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Keyed state of the source transaction an assembler is building on one source partition: its id,
 * where it started, what is buffered and what was received. A Flink POJO (stored in a
 * {@code ValueState}); owned by the assembler's task thread, not thread safe.
 */
public class OpenTransaction {

    private String transactionId;
    private String transactionKey;
    private String startPosition;
    /** The source topic (the rows' {@code source}). */
    private String topic;
    /** Offset of the last event added to the buffer (the position of a part emitted at a bound). */
    private long lastOffset = -1;
    private long openedAtMs;
    private long timerAtMs = -1;
    private String targetDatabase;
    private long bufferedRows;
    private long bufferedSizeBytes;
    private long emittedRows;
    private long receivedEvents;
    private long maxTotalOrder;
    private HashMap<String, Long> receivedByTable = new HashMap<>();
    /** Why the transaction goes to the dead letter whole, or {@code null} while it can load. */
    private String deadLetterReason;
    /** The commit source its events name when they carry a commit position ({@link CommitPosition#carried}), or null. */
    private String commitSource;
    /** Maxwell: the binlog file and offset ({@code position}) of the last row received, or {@code null}/-1. */
    private String lastBinlogFile;
    private long lastBinlogPosition = -1;
    /** Whether it was opened by a data event, not a BEGIN: a tail resumed without its BEGIN after a restart. */
    private boolean headless;

    /** Flink POJO constructor. */
    public OpenTransaction() {
    }

    /**
     * @param first the event that opened the transaction (BEGIN, or its first row)
     * @param nowMs processing time in ms
     * @return a transaction with nothing buffered
     */
    static OpenTransaction openedBy(SourceEvent first, long nowMs) {
        OpenTransaction t = new OpenTransaction();
        t.transactionId = first.getTransactionId();
        t.transactionKey = first.getTransactionKey();
        t.startPosition = first.describePosition();
        t.topic = first.getTopic();
        t.lastOffset = first.getOffset();
        t.openedAtMs = nowMs;
        return t;
    }

    /** @return {@code transaction 'ID'} as named in messages, or {@code transaction without id} */
    String describe() {
        return transactionId == null ? "transaction without id" : "transaction '" + transactionId + "'";
    }

    void countReceived(SourceEvent event) {
        if (commitSource == null && CommitPosition.carried(event)) {
            commitSource = event.getCommitSource();
        }
        receivedEvents++;
        receivedByTable.merge(event.dataCollection(), 1L, Long::sum);
    }

    /** @return received events per table, sorted by table name */
    Map<String, Long> receivedByTableSorted() {
        return new TreeMap<>(receivedByTable);
    }

    public String getTransactionId() {
        return transactionId;
    }

    public void setTransactionId(String transactionId) {
        this.transactionId = transactionId;
    }

    public String getTransactionKey() {
        return transactionKey;
    }

    public void setTransactionKey(String transactionKey) {
        this.transactionKey = transactionKey;
    }

    public String getStartPosition() {
        return startPosition;
    }

    public void setStartPosition(String startPosition) {
        this.startPosition = startPosition;
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public long getLastOffset() {
        return lastOffset;
    }

    public void setLastOffset(long lastOffset) {
        this.lastOffset = lastOffset;
    }

    public long getOpenedAtMs() {
        return openedAtMs;
    }

    public void setOpenedAtMs(long openedAtMs) {
        this.openedAtMs = openedAtMs;
    }

    public long getTimerAtMs() {
        return timerAtMs;
    }

    public void setTimerAtMs(long timerAtMs) {
        this.timerAtMs = timerAtMs;
    }

    public String getTargetDatabase() {
        return targetDatabase;
    }

    public void setTargetDatabase(String targetDatabase) {
        this.targetDatabase = targetDatabase;
    }

    public long getBufferedRows() {
        return bufferedRows;
    }

    public void setBufferedRows(long bufferedRows) {
        this.bufferedRows = bufferedRows;
    }

    public long getBufferedSizeBytes() {
        return bufferedSizeBytes;
    }

    public void setBufferedSizeBytes(long bufferedSizeBytes) {
        this.bufferedSizeBytes = bufferedSizeBytes;
    }

    public long getEmittedRows() {
        return emittedRows;
    }

    public void setEmittedRows(long emittedRows) {
        this.emittedRows = emittedRows;
    }

    public long getReceivedEvents() {
        return receivedEvents;
    }

    public void setReceivedEvents(long receivedEvents) {
        this.receivedEvents = receivedEvents;
    }

    public long getMaxTotalOrder() {
        return maxTotalOrder;
    }

    public void setMaxTotalOrder(long maxTotalOrder) {
        this.maxTotalOrder = maxTotalOrder;
    }

    /** @return why the transaction goes to the dead letter whole, or {@code null} while it can load */
    public String getDeadLetterReason() {
        return deadLetterReason;
    }

    public void setDeadLetterReason(String deadLetterReason) {
        this.deadLetterReason = deadLetterReason;
    }

    /** @return the commit source its events name, or {@code null} */
    public String getCommitSource() {
        return commitSource;
    }

    public void setCommitSource(String commitSource) {
        this.commitSource = commitSource;
    }

    /** @return whether a data event opened it (no BEGIN seen): a tail resumed after a connector restart */
    public boolean isHeadless() {
        return headless;
    }

    public void setHeadless(boolean headless) {
        this.headless = headless;
    }

    /** @return Maxwell: the binlog file of the last row's {@code position}, or {@code null} */
    public String getLastBinlogFile() {
        return lastBinlogFile;
    }

    public void setLastBinlogFile(String lastBinlogFile) {
        this.lastBinlogFile = lastBinlogFile;
    }

    /** @return Maxwell: the offset of the last row's {@code position}, or -1 */
    public long getLastBinlogPosition() {
        return lastBinlogPosition;
    }

    public void setLastBinlogPosition(long lastBinlogPosition) {
        this.lastBinlogPosition = lastBinlogPosition;
    }

    public HashMap<String, Long> getReceivedByTable() {
        return receivedByTable;
    }

    public void setReceivedByTable(HashMap<String, Long> receivedByTable) {
        this.receivedByTable = receivedByTable;
    }
}
