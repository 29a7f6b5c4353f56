package io.lockstep.flink.types;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information of {@link DefaultStarRocksRowData}: one opaque field (no key or field expressions on it;
 * key rows by a {@code KeySelector} such as {@code StarRocksRowData::getSourcePartition}), serialized by
 * {@link DefaultStarRocksRowDataSerializer}. Found through the class's {@code @TypeInfo} annotation.
 */
public final class DefaultStarRocksRowDataTypeInfo extends TypeInformation<DefaultStarRocksRowData> {
    private static final long serialVersionUID = 1L;
    public static final DefaultStarRocksRowDataTypeInfo INSTANCE = new DefaultStarRocksRowDataTypeInfo();

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
    public Class<DefaultStarRocksRowData> getTypeClass() {
        return DefaultStarRocksRowData.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    /** The serializer (Flink 1.20 and 2.x). */
    public TypeSerializer<DefaultStarRocksRowData> createSerializer(SerializerConfig config) {
        return new DefaultStarRocksRowDataSerializer(config);
    }

    /** The serializer (the Flink 1.20 signature; no override in Flink 2.x, where it is gone). */
    public TypeSerializer<DefaultStarRocksRowData> createSerializer(ExecutionConfig config) {
        return new DefaultStarRocksRowDataSerializer(config.getSerializerConfig());
    }

    @Override
    public String toString() {
        return "DefaultStarRocksRowData";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof DefaultStarRocksRowDataTypeInfo;
    }

    @Override
    public int hashCode() {
        return DefaultStarRocksRowDataTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof DefaultStarRocksRowDataTypeInfo;
    }
}
