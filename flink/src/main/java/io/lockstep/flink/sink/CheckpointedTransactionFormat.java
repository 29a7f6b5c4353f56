package io.lockstep.flink.sink;

import io.lockstep.core.exactlyonce.CheckpointedTransaction;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The one binary form of a prepared transaction in Flink state, shared by the SinkFunction's operator state
 * ({@link ExactlyOnceSinkStateSerializer}, one record per pending transaction) and the Sink V2 committable
 * ({@code v2.CheckpointedTransactionSerializer}, one record per committable), so both APIs write the same bytes.
 *
 * <p>Big-endian ({@link DataOutputView}): UTF database, UTF table, UTF label, long checkpointId (the epoch that
 * prepared it), UTF runId. Changing this changes both serializers' formats: bump their versions. Stateless.
 */
public final class CheckpointedTransactionFormat {
    private CheckpointedTransactionFormat() {
    }

    /** Writes one record. */
    public static void write(CheckpointedTransaction txn, DataOutputView out) throws IOException {
        out.writeUTF(txn.database());
        out.writeUTF(txn.table());
        out.writeUTF(txn.label());
        out.writeLong(txn.checkpointId());
        out.writeUTF(txn.runId());
    }

    /**
     * Reads one record.
     *
     * @throws IOException when the bytes end before the record does
     */
    public static CheckpointedTransaction read(DataInputView in) throws IOException {
        return new CheckpointedTransaction(in.readUTF(), in.readUTF(), in.readUTF(), in.readLong(), in.readUTF());
    }
}
