package io.lockstep.app.rebuild;

import java.util.HashMap;

/**
 * What the rebuild ({@link PendingTransactions}) holds of one unreleased transaction's data events: how many slots
 * ({@code transaction.total_order}) are filled, per data collection, the highest total order, the bytes held, the
 * commit source its events name and where its first event was read. A Flink POJO in a {@code MapState}; owned by the
 * rebuild's task thread.
 */
public class TransactionSlots {

    private long filled;
    private long maxOrder;
    private long bytes;
    private HashMap<String, Long> byTable = new HashMap<>();
    private String commitSource;
    private String firstPosition;

    /** Flink POJO constructor. */
    public TransactionSlots() {
    }

    /** @return slots filled (distinct total orders received) */
    public long getFilled() {
        return filled;
    }

    public void setFilled(long filled) {
        this.filled = filled;
    }

    /** @return the highest total order received */
    public long getMaxOrder() {
        return maxOrder;
    }

    public void setMaxOrder(long maxOrder) {
        this.maxOrder = maxOrder;
    }

    /** @return UTF-8 bytes of row text held ({@link PendingTransactions#bytesOf}) */
    public long getBytes() {
        return bytes;
    }

    public void setBytes(long bytes) {
        this.bytes = bytes;
    }

    /** @return data collection ({@code db.table}) to slots filled */
    public HashMap<String, Long> getByTable() {
        return byTable;
    }

    public void setByTable(HashMap<String, Long> byTable) {
        this.byTable = byTable;
    }

    /** @return the commit source its data events name ({@code postgresql:pg1}...), or {@code null} */
    public String getCommitSource() {
        return commitSource;
    }

    public void setCommitSource(String commitSource) {
        this.commitSource = commitSource;
    }

    /** @return where its first held event was read ({@code topic 'T' partition P offset O}) */
    public String getFirstPosition() {
        return firstPosition;
    }

    public void setFirstPosition(String firstPosition) {
        this.firstPosition = firstPosition;
    }
}
