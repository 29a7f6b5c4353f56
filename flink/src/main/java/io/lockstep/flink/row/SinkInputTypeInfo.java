package io.lockstep.flink.row;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information of {@link SinkInput}: one opaque field, serialized by {@link SinkInputSerializer}. Found
 * through the interface's {@code @TypeInfo} annotation ({@link SinkInputTypeInfoFactory}).
 */
public final class SinkInputTypeInfo extends TypeInformation<SinkInput> {
    private static final long serialVersionUID = 1L;
    public static final SinkInputTypeInfo INSTANCE = new SinkInputTypeInfo();

    private SinkInputTypeInfo() {
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<SinkInput> getTypeClass() {
        return SinkInput.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    /** The serializer (Flink 1.20 and 2.x). */
    public TypeSerializer<SinkInput> createSerializer(SerializerConfig config) {
        return new SinkInputSerializer(config);
    }

    /** The serializer (the Flink 1.20 signature; no override in Flink 2.x, where it is gone). */
    public TypeSerializer<SinkInput> createSerializer(ExecutionConfig config) {
        return new SinkInputSerializer(config.getSerializerConfig());
    }

    @Override
    public String toString() {
        return "SinkInput";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof SinkInputTypeInfo;
    }

    @Override
    public int hashCode() {
        return SinkInputTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof SinkInputTypeInfo;
    }
}
