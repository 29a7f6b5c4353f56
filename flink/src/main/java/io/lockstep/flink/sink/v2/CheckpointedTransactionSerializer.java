package io.lockstep.flink.sink.v2;

import io.lockstep.core.exactlyonce.CheckpointedTransaction;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned binary form of the exactly-once committable, a {@link CheckpointedTransaction} (no Kryo).
 *
 * <p>Version 1, big-endian: UTF database, UTF table, UTF label, long checkpointId (the writer's epoch that prepared
 * it), UTF runId. Stateless and thread-safe.
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
        out.writeUTF(txn.database());
        out.writeUTF(txn.table());
        out.writeUTF(txn.label());
        out.writeLong(txn.checkpointId());
        out.writeUTF(txn.runId());
        return out.getCopyOfBuffer();
    }

    /**
     * @throws IOException if {@code version} is not one this class reads (naming it), or the bytes are truncated or
     *                     malformed
     */
    @Override
    public CheckpointedTransaction deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("exactly-once committable has version " + version + ", but this Lockstep reads only "
                    + "version " + VERSION + "; restore with the Lockstep release that wrote it");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        try {
            CheckpointedTransaction txn = new CheckpointedTransaction(in.readUTF(), in.readUTF(), in.readUTF(),
                    in.readLong(), in.readUTF());
            if (in.available() > 0) {
                throw new IOException(in.available() + " unexpected bytes after the committable");
            }
            return txn;
        } catch (IOException | RuntimeException e) {
            throw new IOException("exactly-once committable (version " + version + ", " + serialized.length
                    + " bytes) is malformed: " + e.getMessage(), e);
        }
    }
}
