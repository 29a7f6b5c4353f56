package io.lockstep.flink.types;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.flink.row.LoadRowTypeInfoBase;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information of the StarRocks facade row {@link DefaultStarRocksRowData}: one opaque field (no key or
 * field expressions on it; key rows by a {@code KeySelector} such as {@code StarRocksRowData::getSourcePartition}),
 * serialized by {@link DefaultStarRocksRowDataSerializer}. Found through the class's {@code @TypeInfo} annotation.
 * In this package with its serializer, whose snapshot's class name checkpoints hold.
 */
public final class DefaultStarRocksRowDataTypeInfo extends LoadRowTypeInfoBase<DefaultStarRocksRowData> {
    private static final long serialVersionUID = 1L;
    public static final DefaultStarRocksRowDataTypeInfo INSTANCE = new DefaultStarRocksRowDataTypeInfo();

    private DefaultStarRocksRowDataTypeInfo() {
        super(DefaultStarRocksRowData.class);
    }

    @Override
    public TypeSerializer<DefaultStarRocksRowData> createSerializer(SerializerConfig config) {
        return new DefaultStarRocksRowDataSerializer(config);
    }
}
