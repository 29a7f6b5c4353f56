package io.lockstep.flink.row;

import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;

/**
 * Flink's serializer of {@link LoadRow} and its subclasses (the record format of {@link LoadRowFieldsSerializer}).
 * Operator state of {@code LoadRow}s written before the class existed, as {@code DefaultStarRocksRowData} under
 * {@code io.lockstep.flink.types.DefaultStarRocksRowDataSerializer$Snapshot}, restores as is ({@link Snapshot}).
 *
 * <p>Not thread-safe: Flink {@linkplain #duplicate() duplicates} it per thread.
 */
@NotThreadSafe
public final class LoadRowSerializer extends LoadRowFieldsSerializer<LoadRow> {
    private static final long serialVersionUID = 1L;

    /** With the job's serializer configuration. */
    public LoadRowSerializer(SerializerConfig config) {
        super(LoadRow.class, config);
    }

    /** With Flink's default serializer configuration (a restore before the job's is known). */
    public LoadRowSerializer() {
        this(new SerializerConfigImpl());
    }

    @Override
    protected LoadRow newRow() {
        return new LoadRow();
    }

    @Override
    public TypeSerializer<LoadRow> duplicate() {
        return new LoadRowSerializer(config());
    }

    @Override
    public TypeSerializerSnapshot<LoadRow> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot; see {@link LoadRowFieldsSerializer.FieldsSnapshot} for what restores. */
    public static final class Snapshot extends FieldsSnapshot<LoadRow> {
        public Snapshot() {
            super(LoadRow.class, LoadRowSerializer::new);
        }
    }
}
