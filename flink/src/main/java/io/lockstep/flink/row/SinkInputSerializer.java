package io.lockstep.flink.row;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.TypeExtractor;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink's serializer of {@link SinkInput}, for the network channel from a transaction assembler to its sink: a tag
 * byte, then {@value #ROW}: the row in {@link LoadRowSerializer}'s format; {@value #MARK}: the mark's class name,
 * then the mark in the serializer Flink's type analysis gives its class (a POJO). Not meant for operator state
 * (rows are kept as {@link LoadRow}s there).
 *
 * <p>Not thread-safe (it caches the marks' serializers): Flink {@linkplain #duplicate() duplicates} it per thread.
 */
@NotThreadSafe
public final class SinkInputSerializer extends TypeSerializer<SinkInput> {
    private static final long serialVersionUID = 1L;
    static final byte ROW = 0;
    static final byte MARK = 1;

    private final SerializerConfig config;
    private final LoadRowSerializer rows;
    /** Serializers of the mark classes met so far, by class name; this instance's thread only. */
    private transient Map<String, TypeSerializer<ControlMark>> marks;

    /** With the job's serializer configuration. */
    public SinkInputSerializer(SerializerConfig config) {
        this.config = config;
        this.rows = new LoadRowSerializer(config);
    }

    /** With Flink's default serializer configuration. */
    public SinkInputSerializer() {
        this(new SerializerConfigImpl());
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<SinkInput> duplicate() {
        return new SinkInputSerializer(config);
    }

    @Override
    public SinkInput createInstance() {
        return rows.createInstance();
    }

    @Override
    public SinkInput copy(SinkInput from) {
        if (from instanceof LoadRow row) {
            return rows.copy(row);
        }
        ControlMark mark = (ControlMark) from;
        return markSerializer(mark.getClass()).copy(mark);
    }

    @Override
    public SinkInput copy(SinkInput from, SinkInput reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(SinkInput record, DataOutputView target) throws IOException {
        if (record instanceof LoadRow row) {
            target.writeByte(ROW);
            rows.serialize(row, target);
            return;
        }
        ControlMark mark = (ControlMark) record;
        target.writeByte(MARK);
        target.writeUTF(mark.getClass().getName());
        markSerializer(mark.getClass()).serialize(mark, target);
    }

    @Override
    public SinkInput deserialize(DataInputView source) throws IOException {
        byte tag = source.readByte();
        if (tag == ROW) {
            return rows.deserialize(source);
        }
        return markSerializer(checkMarkTag(tag, source)).deserialize(source);
    }

    @Override
    public SinkInput deserialize(SinkInput reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        byte tag = source.readByte();
        target.writeByte(tag);
        if (tag == ROW) {
            rows.copy(source, target);
            return;
        }
        String name = checkMarkTag(tag, source);
        target.writeUTF(name);
        markSerializer(name).copy(source, target);
    }

    /**
     * @return the mark's class name, read after a {@link #MARK} tag
     * @throws IOException for another tag, naming it
     */
    private static String checkMarkTag(byte tag, DataInputView source) throws IOException {
        if (tag != MARK) {
            throw new IOException("unknown SinkInput record tag " + tag + " (expected " + ROW + " or " + MARK + ")");
        }
        return source.readUTF();
    }

    private TypeSerializer<ControlMark> markSerializer(String name) throws IOException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Class<?> type;
        try {
            type = Class.forName(name, false, loader != null ? loader : ControlMark.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IOException("cannot load control mark class " + name + " of a serialized record", e);
        }
        if (!ControlMark.class.isAssignableFrom(type)) {
            throw new IOException("class " + name + " of a serialized record is not a ControlMark");
        }
        return markSerializer(type);
    }

    @SuppressWarnings("unchecked")
    private TypeSerializer<ControlMark> markSerializer(Class<?> type) {
        if (marks == null) {
            marks = new HashMap<>();
        }
        return marks.computeIfAbsent(type.getName(),
                name -> (TypeSerializer<ControlMark>) TypeExtractor.createTypeInfo(type).createSerializer(config));
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof SinkInputSerializer;
    }

    @Override
    public int hashCode() {
        return SinkInputSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<SinkInput> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot (version 1, no payload); needed by Flink, never kept in operator state. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<SinkInput> {
        public Snapshot() {
            super(SinkInputSerializer::new);
        }
    }
}
