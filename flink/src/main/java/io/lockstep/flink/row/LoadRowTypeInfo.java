package io.lockstep.flink.row;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information of {@link LoadRow}, serialized by {@link LoadRowSerializer}. Found through the class's
 * {@code @TypeInfo} annotation ({@link LoadRowTypeInfoFactory}).
 */
public final class LoadRowTypeInfo extends LoadRowTypeInfoBase<LoadRow> {
    private static final long serialVersionUID = 1L;
    public static final LoadRowTypeInfo INSTANCE = new LoadRowTypeInfo();

    private LoadRowTypeInfo() {
        super(LoadRow.class);
    }

    @Override
    public TypeSerializer<LoadRow> createSerializer(SerializerConfig config) {
        return new LoadRowSerializer(config);
    }
}
