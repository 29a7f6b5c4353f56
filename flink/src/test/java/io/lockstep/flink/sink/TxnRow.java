package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.io.Serializable;

/**
 * One row a test source emits, kept serializable inside the source function (DefaultStarRocksRowData is a Flink POJO
 * but not {@link Serializable}).
 *
 * @param json one JSON object, or null for a row that only ends its transaction
 */
record TxnRow(int partition, String database, String table, String json, boolean end) implements Serializable {

    static TxnRow data(int partition, String database, String table, String json) {
        return new TxnRow(partition, database, table, json, false);
    }

    /** A row that only ends the partition's source transaction. */
    static TxnRow endOnly(int partition) {
        return new TxnRow(partition, null, null, null, true);
    }

    /** This row with {@code transactionEnd=true}. */
    TxnRow withEnd() {
        return new TxnRow(partition, database, table, json, true);
    }

    DefaultStarRocksRowData toRowData() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, database, table, json);
        row.setSourcePartition(partition);
        row.setTransactionEnd(end);
        return row;
    }
}
