package io.lockstep.flink.sink.v2;

import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.flink.sink.CheckpointedTransactionFormat;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned binary form of the exactly-once committable, a {@link CheckpointedTransaction} (no Kryo).
 *
 * <p>Version 1: one {@link CheckpointedTransactionFormat} record (UTF database, UTF table, UTF label, long
 * checkpointId, UTF runId), the bytes the SinkFunction's state keeps per pending transaction. Stateless and
 * thread-safe.
 */
public final class CheckpointedTransactionSerializer implements SimpleVersionedSerializer<CheckpointedTransaction> {
    /** The version this class writes. */
    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(CheckpointedTransaction txn) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        CheckpointedTransactionFormat.write(txn, out);
        return out.getCopyOfBuffer();
    }

    /**
     * @throws IOException if {@code version} is not one this class reads (naming it), or the bytes are truncated or
     *                     malformed
     */
    @Override
    public CheckpointedTransaction deserialize(int version, byte[] serialized) throws IOException {
        return CheckpointedTransactionFormat.readWhole("exactly-once committable", version, VERSION,
                "restore with the Lockstep release that wrote it", serialized, CheckpointedTransactionFormat::read);
    }
}
