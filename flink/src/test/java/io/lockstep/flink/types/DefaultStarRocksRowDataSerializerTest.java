package io.lockstep.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DefaultStarRocksRowDataSerializerTest {
    /**
     * Written by Flink 1.20.5's generic POJO serializer for DefaultStarRocksRowData before the class had its own
     * serializer: the versioned serializer snapshot (as a savepoint stores it), then {@link #fullRow()} and
     * {@link #sparseRow()}.
     */
    private static final String POJO_FIXTURE = "/serializer/default-row-data-pojo-flink-1.20.bin";

    /**
     * {@link #fullRow()} then {@link #sparseRow()} as the serializer wrote them before it wrote strings as UTF-8
     * (record tag 0, strings as Flink StringValues).
     */
    private static final String STRING_VALUE_RECORDS = "00036b310573686f70076f7264657273097b226964223a317d0b73686f"
            + "702d746f7069630100000003000000000000002a00000573686f700c6f726465725f6974656d73000000ffffffffffffffff"
            + "ffffffff";

    private static DefaultStarRocksRowData fullRow() {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData("k1", "shop", "orders", "{\"id\":1}");
        row.setSourcePartition(3);
        row.setSource("shop-topic");
        row.setSourcePosition(42);
        row.setTransactionEnd(true);
        return row;
    }

    /** Unique key derived, no row, defaults elsewhere. */
    private static DefaultStarRocksRowData sparseRow() {
        return new DefaultStarRocksRowData(null, "shop", "order_items", null);
    }

    /** A job's own row type: must keep its class and its field across a keyBy. */
    public static class MarkerRow extends DefaultStarRocksRowData {
        private String reason;

        public MarkerRow() {
        }

        public String getReason() {
            return reason;
        }

        public void setReason(String reason) {
            this.reason = reason;
        }
    }

    private static TypeSerializer<DefaultStarRocksRowData> serializer() {
        return TypeInformation.of(DefaultStarRocksRowData.class).createSerializer(new SerializerConfigImpl());
    }

    private static DefaultStarRocksRowData roundTrip(TypeSerializer<DefaultStarRocksRowData> s,
                                                     DefaultStarRocksRowData row) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(row, out);
        return s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    @Test
    void theClassGetsItsOwnTypeInformationAndSerializer() {
        assertThat(TypeInformation.of(DefaultStarRocksRowData.class)).isEqualTo(DefaultStarRocksRowDataTypeInfo.INSTANCE);
        assertThat(serializer()).isInstanceOf(DefaultStarRocksRowDataSerializer.class);
    }

    @Test
    void everyFieldSurvivesARoundTripAndADerivedUniqueKeyStaysDerived() throws Exception {
        TypeSerializer<DefaultStarRocksRowData> s = serializer();
        assertThat(roundTrip(s, fullRow())).isEqualTo(fullRow());
        DefaultStarRocksRowData sparse = roundTrip(s, sparseRow());
        assertThat(sparse).isEqualTo(sparseRow());
        assertThat(sparse.hasExplicitUniqueKey()).isFalse();
        assertThat(sparse.getUniqueKey()).isEqualTo("shop.order_items");
        assertThat(sparse.getSourcePartition()).isEqualTo(-1);
        assertThat(s.copy(fullRow())).isEqualTo(fullRow());
        assertThat(s.copy(fullRow(), new DefaultStarRocksRowData())).isEqualTo(fullRow());
    }

    @Test
    void aSerializedRecordIsCopiedBetweenViewsUnchanged() throws Exception {
        TypeSerializer<DefaultStarRocksRowData> s = serializer();
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(fullRow(), out);
        DataOutputSerializer copied = new DataOutputSerializer(64);
        s.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
    }

    @Test
    void aSubclassKeepsItsClassAndFieldsThroughTheSerializerAndItsOwnTypeIsAPojo() throws Exception {
        assertThat(TypeInformation.of(MarkerRow.class)).isInstanceOf(PojoTypeInfo.class);
        MarkerRow marker = new MarkerRow();
        marker.setReason("bad input at offset 7");
        marker.setSourcePartition(2);
        DefaultStarRocksRowData back = roundTrip(serializer(), marker);
        assertThat(back).isInstanceOf(MarkerRow.class);
        assertThat(((MarkerRow) back).getReason()).isEqualTo("bad input at offset 7");
        assertThat(back.getSourcePartition()).isEqualTo(2);
        assertThat(serializer().copy(marker)).isInstanceOf(MarkerRow.class);
    }

    @Test
    void anUnknownRecordTagFailsNamingIt() {
        assertThatThrownBy(() -> serializer().deserialize(new DataInputDeserializer(new byte[] {9})))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown DefaultStarRocksRowData record tag 9 (expected 0 to 6)");
    }

    @Test
    void recordsInTheEarlierStringValueFormatStillReadAndCopy() throws Exception {
        byte[] old = HexFormat.of().parseHex(STRING_VALUE_RECORDS);
        DataInputDeserializer in = new DataInputDeserializer(old);
        assertThat(serializer().deserialize(in)).isEqualTo(fullRow());
        DefaultStarRocksRowData sparse = serializer().deserialize(in);
        assertThat(sparse).isEqualTo(sparseRow());
        assertThat(sparse.hasExplicitUniqueKey()).isFalse();
        assertThat(in.available()).isZero();

        DataOutputSerializer copied = new DataOutputSerializer(64);
        DataInputDeserializer again = new DataInputDeserializer(old);
        serializer().copy(again, copied);
        serializer().copy(again, copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(old);
    }

    @Test
    void rowsWithCharsOutsideAsciiRoundTripAsUtf8() throws Exception {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "shöp", "orders",
                "{\"name\":\"Zoë 東京 \uD83D\uDE80\",\"empty\":\"\"}");
        row.setSource("");
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer().serialize(row, out);
        byte[] bytes = out.getCopyOfBuffer();
        assertThat(bytes[0]).isEqualTo((byte) 2);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        DefaultStarRocksRowData back = serializer().deserialize(in);
        assertThat(back).isEqualTo(row);
        assertThat(back.getSource()).isEmpty();
        assertThat(in.available()).isZero();
        DataOutputSerializer copied = new DataOutputSerializer(64);
        serializer().copy(new DataInputDeserializer(bytes), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(bytes);
    }

    @Test
    void stateWrittenByTheGenericPojoSerializerRestoresAndMigrates() throws Exception {
        byte[] bytes;
        try (InputStream in = getClass().getResourceAsStream(POJO_FIXTURE)) {
            bytes = in.readAllBytes();
        }
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        TypeSerializerSnapshot<DefaultStarRocksRowData> old = TypeSerializerSnapshot.readVersionedSnapshot(in,
                getClass().getClassLoader());
        assertThat(old).isInstanceOf(PojoSerializerSnapshot.class);

        // what a state backend does on restore: the new serializer's snapshot judges the old one ...
        TypeSerializer<DefaultStarRocksRowData> current = serializer();
        TypeSerializerSchemaCompatibility<DefaultStarRocksRowData> compatibility =
                current.snapshotConfiguration().resolveSchemaCompatibility(old);
        assertThat(compatibility.isCompatibleAfterMigration()).isTrue();
        // ... the old serializer reads the stored records, the new one writes them again
        TypeSerializer<DefaultStarRocksRowData> previous = old.restoreSerializer();
        DefaultStarRocksRowData first = previous.deserialize(in);
        DefaultStarRocksRowData second = previous.deserialize(in);
        assertThat(first).isEqualTo(fullRow());
        assertThat(second).isEqualTo(sparseRow());
        assertThat(roundTrip(current, first)).isEqualTo(fullRow());
        assertThat(roundTrip(current, second)).isEqualTo(sparseRow());
    }

    @Test
    void itsOwnSnapshotRestoresAsIs() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer().snapshotConfiguration());
        TypeSerializerSnapshot<DefaultStarRocksRowData> read = TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
        assertThat(serializer().snapshotConfiguration().resolveSchemaCompatibility(read).isCompatibleAsIs())
                .isTrue();
        assertThat(read.restoreSerializer()).isEqualTo(serializer());
    }
}
