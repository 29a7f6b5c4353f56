package io.lockstep.flink.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import io.lockstep.flink.row.LoadRowSerializerTest.TaggedRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The commit source and position of a transaction-end row in {@link LoadRowFieldsSerializer}'s records. */
class LoadRowCommitPositionSerializerTest {
    private static final String POSITION = "{\"kind\":\"pg\",\"lsn\":\"0/16B3748\",\"txId\":\"771\",\"é\":1}";

    private static LoadRow endRow(LoadRow row) {
        row.setDatabase("shop");
        row.setTable("orders");
        row.setRow("{\"id\":1}");
        row.setSource("oltp.all");
        row.setSourcePartition(2);
        row.setSourcePosition(41);
        row.setTransactionEnd(true);
        row.setCommitSource("postgresql:pg1");
        row.setCommitPosition(POSITION);
        return row;
    }

    private static byte[] record(LoadRow row) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        new LoadRowSerializer().serialize(row, out);
        return out.getCopyOfBuffer();
    }

    private static LoadRow read(byte[] record) throws IOException {
        return new LoadRowSerializer().deserialize(new DataInputDeserializer(record));
    }

    private static void utf8(DataOutputSerializer out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    /** A plain row as the previous release wrote it: tag 2, five strings, end, partition, position. */
    private static byte[] previousReleaseRecord() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeByte(2);
        utf8(out, null); // derived unique key
        utf8(out, "shop");
        utf8(out, "orders");
        utf8(out, "{\"id\":1}");
        utf8(out, "oltp.all");
        out.writeBoolean(true);
        out.writeInt(2);
        out.writeLong(41);
        return out.getCopyOfBuffer();
    }

    @Test
    void anEndRowKeepsItsCommitSourceAndPositionThroughSerializeCopyAndByteCopy() throws Exception {
        LoadRow row = endRow(new LoadRow());
        byte[] record = record(row);
        assertThat(record[0]).isEqualTo(LoadRowFieldsSerializer.FIELDS_COMMIT);
        LoadRow back = read(record);
        assertThat(back).isEqualTo(row);
        assertThat(back.getCommitSource()).isEqualTo("postgresql:pg1");
        assertThat(back.getCommitPosition()).isEqualTo(POSITION);
        assertThat(new LoadRowSerializer().copy(back)).isEqualTo(row);
        assertThat(new LoadRowSerializer().copy(back, new LoadRow())).isEqualTo(row);
        DataOutputSerializer copied = new DataOutputSerializer(64);
        new LoadRowSerializer().copy(new DataInputDeserializer(record), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(record);
        SinkInputSerializer input = new SinkInputSerializer();
        DataOutputSerializer out = new DataOutputSerializer(64);
        input.serialize(row, out);
        assertThat(input.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()))).isEqualTo(row);
        assertThat(row.toString()).doesNotContain("0/16B3748").contains("commitSource=postgresql:pg1");
    }

    /** Rows without a commit position cost nothing more: the very bytes of the previous release. */
    @Test
    void aRowWithoutCommitPositionIsWrittenByteForByteAsThePreviousRelease() throws Exception {
        LoadRow row = endRow(new LoadRow());
        row.setCommitSource(null);
        row.setCommitPosition(null);
        assertThat(record(row)).isEqualTo(previousReleaseRecord());
    }

    /** A checkpoint of the previous release restores: its records read, without a commit position. */
    @Test
    void recordsWrittenByThePreviousReleaseStillRead() throws Exception {
        LoadRow back = read(previousReleaseRecord());
        LoadRow expected = endRow(new LoadRow());
        expected.setCommitSource(null);
        expected.setCommitPosition(null);
        assertThat(back).isEqualTo(expected);
        assertThat(back.getCommitSource()).isNull();
        assertThat(back.getCommitPosition()).isNull();

        // a job's subclass as the previous release wrote it: tag 1, class name, the subclass's POJO record
        @SuppressWarnings("unchecked")
        TypeSerializer<TaggedRow> pojo = (TypeSerializer<TaggedRow>) (TypeSerializer<?>) TypeInformation
                .of(TaggedRow.class).createSerializer(new SerializerConfigImpl());
        TaggedRow tagged = new TaggedRow();
        tagged.setTable("orders");
        tagged.setTag("t");
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeByte(1);
        out.writeUTF(TaggedRow.class.getName());
        pojo.serialize(tagged, out);
        LoadRow subclass = read(out.getCopyOfBuffer());
        assertThat(subclass).isInstanceOf(TaggedRow.class).isEqualTo(tagged);
        assertThat(((TaggedRow) subclass).getTag()).isEqualTo("t");
        assertThat(record(tagged)).isEqualTo(out.getCopyOfBuffer());
    }

    @Test
    void aSubclassRowKeepsItsCommitPositionThroughSerializeCopyAndByteCopy() throws Exception {
        TaggedRow row = (TaggedRow) endRow(new TaggedRow());
        row.setTag("t");
        byte[] record = record(row);
        assertThat(record[0]).isEqualTo(LoadRowFieldsSerializer.SUBCLASS_COMMIT);
        LoadRow back = read(record);
        assertThat(back).isInstanceOf(TaggedRow.class).isEqualTo(row);
        assertThat(back.getCommitPosition()).isEqualTo(POSITION);
        assertThat(new LoadRowSerializer().copy(row).getCommitSource()).isEqualTo("postgresql:pg1");
        DataOutputSerializer copied = new DataOutputSerializer(64);
        new LoadRowSerializer().copy(new DataInputDeserializer(record), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(record);
    }

    /** Kryo cannot carry the transient fields: a row with a commit position is refused, not written without it. */
    @Test
    void kryoRefusesARowWithACommitPositionInOneLine() {
        Kryo kryo = new Kryo();
        LoadRow row = endRow(new LoadRow());
        assertThatThrownBy(() -> new LoadRowKryoSerializer<>(kryo, LoadRow.class).write(kryo, new Output(256), row))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shop.orders").hasMessageContaining("type the stream or state as LoadRow")
                .hasMessageNotContaining("0/16B3748");
    }
}
