package io.lockstep.flink.row;

import static org.assertj.core.api.Assertions.assertThat;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.flink.types.DefaultStarRocksRowDataSerializer;
import java.io.IOException;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class LoadRowKryoSerializerTest {
    private static final String ROW = "{\"name\":\"café 😀 中文\"}";

    private static <T extends LoadRow> T keptAsBytes(TypeSerializer<T> serializer, T row) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(row, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    /** A stream or state typed by an interface goes through Kryo: a row held as bytes must keep its text there. */
    @Test
    void aRowHeldAsBytesCrossesFlinksKryoSerializerWithItsText() throws Exception {
        TypeSerializer<TableRow> kryo = new GenericTypeInfo<>(TableRow.class).createSerializer(
                new SerializerConfigImpl());
        LoadRow constructed = new LoadRow("k", "shop", "customers", ROW);
        DefaultStarRocksRowData facade = new DefaultStarRocksRowData(null, "shop", "customers", ROW);
        for (LoadRow row : new LoadRow[] {keptAsBytes(new LoadRowSerializer(), constructed),
                keptAsBytes(new DefaultStarRocksRowDataSerializer(), facade)}) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            kryo.serialize(row, out);
            TableRow back = kryo.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertThat(back).isEqualTo(row).hasSameClassAs(row);
            assertThat(back.getRow()).isEqualTo(ROW);
            assertThat(kryo.copy(row)).isEqualTo(row);
        }
    }

    /** Same bytes as Kryo's FieldSerializer writes for the constructed row: Kryo state of rows still reads. */
    @Test
    void itWritesWhatKryosFieldSerializerWritesAndOnlyThePlainClassesUseIt() throws Exception {
        Kryo kryo = new Kryo();
        LoadRow constructed = new LoadRow("k", "shop", "customers", ROW);
        Output expected = new Output(256);
        new FieldSerializer<LoadRow>(kryo, LoadRow.class).write(kryo, expected, constructed);
        Output actual = new Output(256);
        new LoadRowKryoSerializer<>(kryo, LoadRow.class).write(kryo, actual,
                keptAsBytes(new LoadRowSerializer(), constructed));
        assertThat(actual.toBytes()).isEqualTo(expected.toBytes());

        assertThat(kryo.getDefaultSerializer(LoadRow.class)).isInstanceOf(LoadRowKryoSerializer.class);
        assertThat(kryo.getDefaultSerializer(DefaultStarRocksRowData.class)).isInstanceOf(LoadRowKryoSerializer.class);
        assertThat(kryo.getDefaultSerializer(LoadRowSerializerTest.TaggedRow.class))
                .as("a job's subclass keeps Kryo's own serializer").isExactlyInstanceOf(FieldSerializer.class);
    }
}
