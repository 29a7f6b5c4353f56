package io.lockstep.flink.sink.v2;

import io.lockstep.core.restart.MultiTableRunState;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned binary form of {@link MultiTableRunState}, the writer state of {@link MultiTableSink}. Version 1: one UTF
 * string, {@link MultiTableRunState#encode()} (the same form the SinkFunction keeps). Stateless and thread-safe.
 */
public final class MultiTableRunStateSerializer implements SimpleVersionedSerializer<MultiTableRunState> {
    /** The version this class writes. */
    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(MultiTableRunState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(96);
        out.writeUTF(state.encode());
        return out.getCopyOfBuffer();
    }

    /**
     * @throws IOException if {@code version} is not one this class reads, or the bytes are malformed (naming them)
     */
    @Override
    public MultiTableRunState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("multi-table sink writer state has version " + version + ", but this Lockstep "
                    + "reads only version " + VERSION + "; restore with the Lockstep release that wrote it, or start "
                    + "without state");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        String encoded = in.readUTF();
        try {
            return MultiTableRunState.decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
