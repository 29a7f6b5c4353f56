package io.lockstep.flink.row;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.flink.types.DefaultStarRocksRowDataSerializer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class LoadRowSerializerTest {

    private static LoadRow fullRow() {
        LoadRow row = new LoadRow("k1", "shop", "orders", "{\"id\":1}");
        row.setSourcePartition(3);
        row.setSource("shop-topic");
        row.setSourcePosition(42);
        row.setTransactionEnd(true);
        return row;
    }

    private static DefaultStarRocksRowData facadeRow() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData("k1", "shop", "orders", "{\"id\":1}");
        row.setSourcePartition(3);
        row.setSource("shop-topic");
        row.setSourcePosition(42);
        row.setTransactionEnd(true);
        return row;
    }

    @Test
    void theClassGetsItsOwnTypeInformationAndARowRoundTrips() throws Exception {
        assertThat(TypeInformation.of(LoadRow.class)).isEqualTo(LoadRowTypeInfo.INSTANCE);
        TypeSerializer<LoadRow> serializer = new LoadRowSerializer();
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(fullRow(), out);
        LoadRow back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back.getClass()).isEqualTo(LoadRow.class);
        assertThat(back).isEqualTo(fullRow());
    }

    /** The assembler's buffered rows: state written as DefaultStarRocksRowData restores into LoadRow state. */
    @Test
    void stateWrittenForTheFacadeRowRestoresAsIsAsLoadRows() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        DefaultStarRocksRowDataSerializer facade = new DefaultStarRocksRowDataSerializer();
        TypeSerializerSnapshot.writeVersionedSnapshot(out, facade.snapshotConfiguration());
        facade.serialize(facadeRow(), out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        TypeSerializerSnapshot<LoadRow> old = TypeSerializerSnapshot.readVersionedSnapshot(in,
                getClass().getClassLoader());
        assertThat(old).isInstanceOf(DefaultStarRocksRowDataSerializer.Snapshot.class);

        assertThat(new LoadRowSerializer().snapshotConfiguration().resolveSchemaCompatibility(old)
                .isCompatibleAsIs()).isTrue();
        LoadRow restored = new LoadRowSerializer().deserialize(in);
        assertThat(restored.getClass()).isEqualTo(LoadRow.class);
        assertThat(restored).isEqualTo(fullRow());
        assertThat(in.available()).isZero();
    }

    /** A heap state backend restores with the old snapshot's serializer: facade rows, written back and read alike. */
    @Test
    void facadeRowsInLoadRowStateKeepTheirClassAndFields() throws Exception {
        TypeSerializer<LoadRow> serializer = new LoadRowSerializer();
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(facadeRow(), out);
        LoadRow back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back).isInstanceOf(DefaultStarRocksRowData.class).isEqualTo(fullRow());
    }

    @Test
    void loadRowStateDoesNotRestoreAsFacadeRows() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, new LoadRowSerializer().snapshotConfiguration());
        TypeSerializerSnapshot<DefaultStarRocksRowData> old = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(new DefaultStarRocksRowDataSerializer().snapshotConfiguration().resolveSchemaCompatibility(old)
                .isIncompatible()).isTrue();
    }
}
