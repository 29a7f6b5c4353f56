package io.lockstep.flink.row;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.types.DefaultStarRocksRowDataSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
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

    /** A job's own row that overrides the row's text: its serializer is Flink's POJO serializer. */
    public static class TaggedRow extends LoadRow {
        private String tag;

        public TaggedRow() {
        }

        public String getTag() {
            return tag;
        }

        public void setTag(String tag) {
            this.tag = tag;
        }

        @Override
        public String getRow() {
            String row = super.getRow();
            return row == null ? null : "{\"tag\":\"" + tag + "\"," + row.substring(1);
        }
    }

    private static final String NON_ASCII = "{\"name\":\"café 😀 中文\"}";

    private static byte[] record(LoadRow row) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        new LoadRowSerializer().serialize(row, out);
        return out.getCopyOfBuffer();
    }

    private static LoadRow read(byte[] record) throws IOException {
        return new LoadRowSerializer().deserialize(new DataInputDeserializer(record));
    }

    /** Deserialize keeps the row's bytes: the sink gets that one array, never a fresh encoding of a String. */
    @Test
    void aDeserializedRowHandsTheBytesItWasReadAsToTheSinkWithoutEncodingAgain() throws Exception {
        LoadRow back = read(record(fullRow()));
        byte[] utf8 = back.rowUtf8();
        assertThat(utf8).isEqualTo("{\"id\":1}".getBytes(StandardCharsets.UTF_8));
        assertThat(back.rowUtf8()).isSameAs(utf8);
        assertThat(RowRouting.payload(back)).isSameAs(utf8);
        assertThat(back.getRow()).isEqualTo("{\"id\":1}");
        assertThat(back.rowUtf8()).as("decoding for getRow() keeps the bytes").isSameAs(utf8);

        LoadRow constructed = fullRow();
        assertThat(constructed.rowUtf8()).isEqualTo(utf8).isNotSameAs(constructed.rowUtf8());
    }

    @Test
    void aCopyOfADeserializedRowSharesItsBytesAndWritesTheSameRecord() throws Exception {
        LoadRowSerializer serializer = new LoadRowSerializer();
        LoadRow back = read(record(fullRow()));
        byte[] utf8 = back.rowUtf8();
        assertThat(serializer.copy(back).rowUtf8()).isSameAs(utf8);
        assertThat(serializer.copy(back, new LoadRow("x", "y", "z", "{}")).rowUtf8()).isSameAs(utf8);
        assertThat(serializer.copy(back)).isEqualTo(fullRow());
        assertThat(record(serializer.copy(back))).isEqualTo(record(fullRow()));
    }

    /** é, an emoji (a surrogate pair) and CJK: the same bytes after deserialize, and again after a second keyBy. */
    @Test
    void rowsOutsideAsciiCrossByteExactAndDecodeToTheSameText() throws Exception {
        LoadRow row = new LoadRow(null, "shop", "customers", NON_ASCII);
        byte[] first = record(row);
        LoadRow back = read(first);
        assertThat(back.rowUtf8()).isEqualTo(NON_ASCII.getBytes(StandardCharsets.UTF_8));
        assertThat(record(back)).as("written again from the kept bytes").isEqualTo(first);
        assertThat(back.getRow()).isEqualTo(NON_ASCII);
        assertThat(record(back)).isEqualTo(first);
        assertThat(back).isEqualTo(row).hasSameHashCodeAs(row);
    }

    @Test
    void setRowAfterDeserializeReplacesTheBytes() throws Exception {
        LoadRow back = read(record(fullRow()));
        back.setRow("{\"id\":2}");
        assertThat(back.rowUtf8()).isEqualTo("{\"id\":2}".getBytes(StandardCharsets.UTF_8));
        assertThat(RowRouting.payload(back)).isEqualTo("{\"id\":2}".getBytes(StandardCharsets.UTF_8));
        assertThat(read(record(back)).getRow()).isEqualTo("{\"id\":2}");
        back.setRow(null);
        assertThat(back.rowUtf8()).isNull();
        assertThat(RowRouting.payload(back)).isNull();
    }

    /** A reused instance that held a String takes the record's bytes; an empty or null row stays no data. */
    @Test
    void deserializingIntoAReusedRowReplacesItsTextAndEmptyRowsCarryNoData() throws Exception {
        LoadRow reuse = new LoadRow("old", "db", "t", "{\"old\":true}");
        LoadRow back = new LoadRowSerializer().deserialize(reuse, new DataInputDeserializer(record(fullRow())));
        assertThat(back).isSameAs(reuse).isEqualTo(fullRow());
        assertThat(back.getRow()).isEqualTo("{\"id\":1}");

        LoadRow empty = read(record(new LoadRow(null, "db", "t", "")));
        assertThat(empty.getRow()).isEmpty();
        assertThat(RowRouting.payload(empty)).isNull();
        LoadRow none = read(record(new LoadRow(null, "db", "t", null)));
        assertThat(none.getRow()).isNull();
        assertThat(none.rowUtf8()).isNull();
    }

    /** Equality and hash do not depend on whether the row was decoded yet, in either direction. */
    @Test
    void aDeserializedRowEqualsAndHashesLikeTheConstructedOne() throws Exception {
        LoadRow constructed = fullRow();
        assertThat(read(record(constructed)).hashCode()).isEqualTo(constructed.hashCode());
        assertThat(constructed).isEqualTo(read(record(constructed)));
        assertThat(read(record(constructed))).isEqualTo(constructed);
        assertThat(read(record(constructed))).isEqualTo(read(record(constructed)));
        assertThat(read(record(constructed))).isNotEqualTo(read(record(new LoadRow("k1", "shop", "orders", "{}"))));
        assertThat(read(record(constructed)).toString()).isEqualTo(constructed.toString());
    }

    /** The sink sends what a subclass's getRow() says, also after the subclass crossed a keyBy. */
    @Test
    void aSubclassOverridingGetRowIsWhatTheSinkSends() throws Exception {
        TaggedRow row = new TaggedRow();
        row.setDatabase("shop");
        row.setTable("orders");
        row.setRow("{\"id\":1}");
        row.setTag("é");
        byte[] expected = "{\"tag\":\"é\",\"id\":1}".getBytes(StandardCharsets.UTF_8);
        assertThat(RowRouting.payload(row)).isEqualTo(expected);
        LoadRow back = read(record(row));
        assertThat(back).isInstanceOf(TaggedRow.class);
        assertThat(RowRouting.payload(back)).isEqualTo(expected);
    }

    /** The kept bytes are transient: Flink's POJO analysis of a subclass sees the fields it always saw. */
    @Test
    void aSubclassIsAPojoWithTheSameFieldsAsBefore() {
        PojoTypeInfo<TaggedRow> pojo = (PojoTypeInfo<TaggedRow>) TypeInformation.of(TaggedRow.class);
        String[] names = pojo.getFieldNames();
        Arrays.sort(names);
        assertThat(names).containsExactly("database", "row", "source", "sourcePartition", "sourcePosition", "table",
                "tag", "transactionEnd", "uniqueKey");
        assertThat(pojo.createSerializer(new SerializerConfigImpl())).isNotNull();
    }
}
