package io.lockstep.flink.row;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink's type information of a plain {@link LoadRow} class: one opaque field (no key or field expressions on it;
 * key rows by a {@code KeySelector} such as {@code TableRow::getSourcePartition}), serialized by a
 * {@link LoadRowFieldsSerializer}. Equal to any other instance of the same type information class.
 *
 * @param <T> the plain row class
 */
public abstract class LoadRowTypeInfoBase<T extends LoadRow> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> plain;

    /** @param plain the plain row class */
    protected LoadRowTypeInfoBase(Class<T> plain) {
        this.plain = plain;
    }

    /** The serializer (Flink 1.20 and 2.x). */
    public abstract TypeSerializer<T> createSerializer(SerializerConfig config);

    /** The serializer (the Flink 1.20 signature; no override in Flink 2.x, where it is gone). */
    public TypeSerializer<T> createSerializer(ExecutionConfig config) {
        return createSerializer(config.getSerializerConfig());
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
    public Class<T> getTypeClass() {
        return plain;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public String toString() {
        return plain.getSimpleName();
    }

    @Override
    public boolean equals(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }
}
