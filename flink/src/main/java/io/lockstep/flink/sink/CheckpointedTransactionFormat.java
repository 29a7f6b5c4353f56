package io.lockstep.flink.sink;

import io.lockstep.core.restart.CheckpointedTransaction;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The one binary form of a prepared transaction in Flink state, shared by the SinkFunction's operator state
 * ({@link ExactlyOnceSinkStateSerializer}, one record per pending transaction) and the Sink V2 committable
 * ({@code v2.CheckpointedTransactionSerializer}, one record per committable), so both APIs write the same bytes.
 *
 * <p>Big-endian ({@link DataOutputView}): UTF database, UTF table, UTF label, long checkpointId (the epoch that
 * prepared it), UTF runId. Changing this changes both serializers' formats: bump their versions. Both read through
 * {@link #readWhole}, the same version check and error messages. Stateless.
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

    /** Reads one serializer's body from a {@link DataInputView}. */
    @FunctionalInterface
    public interface Body<T> {
        T read(DataInputView in) throws IOException;
    }

    /**
     * Reads {@code serialized} with {@code body}, which must consume every byte.
     *
     * @param what        what the bytes hold, for messages, e.g. "exactly-once committable"
     * @param version     the version the bytes were written with
     * @param supported   the one version the caller reads
     * @param restoreHint what to do about another version, e.g. "restore with the Lockstep release that wrote it"
     * @throws IOException if {@code version} is not {@code supported} (naming both), or the bytes are truncated,
     *                     malformed or longer than the body
     */
    public static <T> T readWhole(String what, int version, int supported, String restoreHint, byte[] serialized,
                                  Body<T> body) throws IOException {
        if (version != supported) {
            throw new IOException(what + " has version " + version + ", but this Lockstep reads only version "
                    + supported + "; " + restoreHint);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        try {
            T value = body.read(in);
            if (in.available() > 0) {
                throw new IOException(in.available() + " unexpected bytes after the " + what);
            }
            return value;
        } catch (IOException | RuntimeException e) {
            throw new IOException(what + " (version " + version + ", " + serialized.length + " bytes) is malformed: "
                    + e.getMessage(), e);
        }
    }
}
