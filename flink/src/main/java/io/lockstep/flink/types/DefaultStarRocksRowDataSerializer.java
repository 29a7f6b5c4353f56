package io.lockstep.flink.types;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.flink.row.LoadRowFieldsSerializer;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;

/**
 * Flink's serializer of the StarRocks facade row {@link DefaultStarRocksRowData} and its subclasses (the rows of
 * every multi-table job written against the connector's API cross a keyBy), in the record format of
 * {@link LoadRowFieldsSerializer}.
 *
 * <p>Why it lives here, importing the facade: checkpoints and savepoints name its snapshot class,
 * {@code io.lockstep.flink.types.DefaultStarRocksRowDataSerializer$Snapshot} (the assembler's buffered rows of
 * {@code lockstep run} before they became {@code LoadRow}s, and any job's own state of
 * {@code DefaultStarRocksRowData}), so the class keeps its package and name, and a restore of such state makes
 * {@code DefaultStarRocksRowData} instances again. This package is the facade's Flink type information; the
 * internal row model ({@code io.lockstep.flink.row}) does not depend on it.
 *
 * <p>Not thread-safe (it caches the subclasses' serializers): Flink {@linkplain #duplicate() duplicates} it per thread.
 */
@NotThreadSafe
public final class DefaultStarRocksRowDataSerializer extends LoadRowFieldsSerializer<DefaultStarRocksRowData> {
    private static final long serialVersionUID = 1L;

    /** With the job's serializer configuration. */
    public DefaultStarRocksRowDataSerializer(SerializerConfig config) {
        super(DefaultStarRocksRowData.class, config);
    }

    /** With Flink's default serializer configuration (a restore before the job's is known). */
    public DefaultStarRocksRowDataSerializer() {
        this(new SerializerConfigImpl());
    }

    @Override
    protected DefaultStarRocksRowData newRow() {
        return new DefaultStarRocksRowData();
    }

    @Override
    public TypeSerializer<DefaultStarRocksRowData> duplicate() {
        return new DefaultStarRocksRowDataSerializer(config());
    }

    @Override
    public TypeSerializerSnapshot<DefaultStarRocksRowData> snapshotConfiguration() {
        return new Snapshot();
    }

    /**
     * The serializer's snapshot (version 1; class name written into checkpoints, kept). State written by the
     * generic POJO serializer the class had before (a {@code PojoSerializerSnapshot} in a savepoint or checkpoint)
     * is compatible after migration: Flink reads it with the POJO serializer restored from that snapshot and writes
     * it again with this one. See {@link LoadRowFieldsSerializer.FieldsSnapshot}.
     */
    public static final class Snapshot extends FieldsSnapshot<DefaultStarRocksRowData> {
        public Snapshot() {
            super(DefaultStarRocksRowData.class, DefaultStarRocksRowDataSerializer::new);
        }
    }
}
