package io.lockstep.flink.sink;

import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.TableId;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned binary form of {@link ExactlyOnceSinkState} (no Kryo; versioned like apache/flink-connector-kafka's
 * {@code KafkaWriterStateSerializer}). The sink stores
 * {@code SimpleVersionedSerialization.writeVersionAndSerialize(...)} bytes in a {@code ListState<byte[]>}, so the
 * version travels with every element.
 *
 * <p>Version 1, big-endian ({@link DataOutputSerializer}): UTF labelPrefix, int subtaskIndex, UTF runId, long
 * checkpointId; int table count, then per table UTF database, UTF table; int pending count, then per transaction
 * its {@link CheckpointedTransactionFormat} record (the Sink V2 committable's bytes). Stateless and thread-safe.
 */
public final class ExactlyOnceSinkStateSerializer implements SimpleVersionedSerializer<ExactlyOnceSinkState> {
    /** The version this class writes. */
    public static final int VERSION = 1;
    /** Upper bound on element counts, against reading garbage as a huge list. */
    private static final int MAX_ELEMENTS = 1_000_000;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ExactlyOnceSinkState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeUTF(state.labelPrefix());
        out.writeInt(state.subtaskIndex());
        out.writeUTF(state.runId());
        out.writeLong(state.checkpointId());
        out.writeInt(state.tables().size());
        for (TableId table : state.tables()) {
            out.writeUTF(table.database());
            out.writeUTF(table.table());
        }
        out.writeInt(state.pending().size());
        for (CheckpointedTransaction txn : state.pending()) {
            CheckpointedTransactionFormat.write(txn, out);
        }
        return out.getCopyOfBuffer();
    }

    /**
     * @throws IOException if {@code version} is not one this class reads (naming it and the supported one), or the
     *                     bytes are truncated or malformed
     */
    @Override
    public ExactlyOnceSinkState deserialize(int version, byte[] serialized) throws IOException {
        return CheckpointedTransactionFormat.readWhole("exactly-once sink state", version, VERSION,
                "restore with the Lockstep release that wrote it, or start without state", serialized, in -> {
                    String prefix = in.readUTF();
                    int subtask = in.readInt();
                    String runId = in.readUTF();
                    long checkpointId = in.readLong();
                    int tableCount = count(in.readInt(), "table");
                    List<TableId> tables = new ArrayList<>(tableCount);
                    for (int i = 0; i < tableCount; i++) {
                        tables.add(new TableId(in.readUTF(), in.readUTF()));
                    }
                    int pendingCount = count(in.readInt(), "pending transaction");
                    List<CheckpointedTransaction> pending = new ArrayList<>(pendingCount);
                    for (int i = 0; i < pendingCount; i++) {
                        pending.add(CheckpointedTransactionFormat.read(in));
                    }
                    return new ExactlyOnceSinkState(prefix, subtask, runId, checkpointId, tables, pending);
                });
    }

    private static int count(int value, String what) throws IOException {
        if (value < 0 || value > MAX_ELEMENTS) {
            throw new IOException(what + " count " + value + " is out of range");
        }
        return value;
    }
}
