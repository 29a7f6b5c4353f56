package io.lockstep.flink.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import io.lockstep.flink.row.LoadRowSerializerTest.TaggedRow;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The covered positions of a rebuilt transaction's end row in {@link LoadRowFieldsSerializer}'s records. */
class LoadRowCoveredPositionsSerializerTest {

    private static Map<String, Long> covered() {
        Map<String, Long> covered = new HashMap<>();
        covered.put("pg.public.orders/0", 17L);
        covered.put("pg.public.accounts/3", 0L);
        covered.put("pg.transaction/0", 41L);
        return covered;
    }

    private static <R extends LoadRow> R endRow(R row, boolean commit) {
        row.setDatabase("shop");
        row.setTable("orders");
        row.setRow("{\"id\":1}");
        row.setSource("pg.transaction+rebuilt");
        row.setSourcePartition(0);
        row.setSourcePosition(9);
        row.setTransactionEnd(true);
        if (commit) {
            row.setCommitSource("postgresql:pg1");
            row.setCommitPosition("{\"lsn\":\"0/16B3748\"}");
        }
        row.setCoveredPositions(covered());
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

    private static byte[] byteCopy(byte[] record) throws IOException {
        DataOutputSerializer copied = new DataOutputSerializer(64);
        new LoadRowSerializer().copy(new DataInputDeserializer(record), copied);
        return copied.getCopyOfBuffer();
    }

    @Test
    void anEndRowKeepsItsCoveredPositionsAndCommitPositionThroughSerializeCopyAndByteCopy() throws Exception {
        LoadRow row = endRow(new LoadRow(), true);
        byte[] record = record(row);
        assertThat(record[0]).isEqualTo(LoadRowFieldsSerializer.FIELDS_COVERED);
        LoadRow back = read(record);
        assertThat(back).isEqualTo(row);
        assertThat(back.getCoveredPositions()).isEqualTo(covered());
        assertThat(back.getCommitPosition()).isEqualTo("{\"lsn\":\"0/16B3748\"}");
        LoadRow copy = new LoadRowSerializer().copy(row);
        assertThat(copy).isEqualTo(row);
        assertThat(copy.getCoveredPositions()).isNotSameAs(row.getCoveredPositions());
        assertThat(new LoadRowSerializer().copy(row, new LoadRow())).isEqualTo(row);
        assertThat(byteCopy(record)).isEqualTo(record);
        assertThat(row.toString()).contains("coveredPositions=3").doesNotContain("pg.public.orders/0");
    }

    @Test
    void anEndRowWithCoveredPositionsButNoCommitPositionReadsWithoutOne() throws Exception {
        LoadRow row = endRow(new LoadRow(), false);
        byte[] record = record(row);
        assertThat(record[0]).isEqualTo(LoadRowFieldsSerializer.FIELDS_COVERED);
        LoadRow back = read(record);
        assertThat(back).isEqualTo(row);
        assertThat(back.getCommitSource()).isNull();
        assertThat(back.getCommitPosition()).isNull();
        assertThat(back.getCoveredPositions()).isEqualTo(covered());
        assertThat(byteCopy(record)).isEqualTo(record);
    }

    /** Rows without covered positions keep the earlier tags (their bytes are unchanged). */
    @Test
    void rowsWithoutCoveredPositionsKeepTheirEarlierTags() throws Exception {
        LoadRow commitOnly = endRow(new LoadRow(), true);
        commitOnly.setCoveredPositions(null);
        assertThat(record(commitOnly)[0]).isEqualTo(LoadRowFieldsSerializer.FIELDS_COMMIT);
        assertThat(read(record(commitOnly)).getCoveredPositions()).isNull();
        LoadRow plain = endRow(new LoadRow(), false);
        plain.setCoveredPositions(null);
        assertThat(record(plain)[0]).isEqualTo(LoadRowFieldsSerializer.FIELDS);
    }

    @Test
    void aSubclassRowKeepsItsCoveredPositionsThroughSerializeCopyAndByteCopy() throws Exception {
        TaggedRow row = endRow(new TaggedRow(), true);
        row.setTag("t");
        byte[] record = record(row);
        assertThat(record[0]).isEqualTo(LoadRowFieldsSerializer.SUBCLASS_COVERED);
        LoadRow back = read(record);
        assertThat(back).isInstanceOf(TaggedRow.class).isEqualTo(row);
        assertThat(back.getCoveredPositions()).isEqualTo(covered());
        assertThat(new LoadRowSerializer().copy(row).getCoveredPositions()).isEqualTo(covered());
        assertThat(byteCopy(record)).isEqualTo(record);
    }

    @Test
    void aNullCoveredPositionIsRefusedNamingItsKey() {
        LoadRow row = endRow(new LoadRow(), false);
        row.getCoveredPositions().put("pg.public.orders/1", null);
        assertThatThrownBy(() -> record(row)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pg.public.orders/1");
    }

    /** Kryo cannot carry the transient map: a row with covered positions is refused, not written without them. */
    @Test
    void kryoRefusesARowWithCoveredPositionsInOneLine() {
        Kryo kryo = new Kryo();
        LoadRow row = endRow(new LoadRow(), false);
        assertThatThrownBy(() -> new LoadRowKryoSerializer<>(kryo, LoadRow.class).write(kryo, new Output(256), row))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("covered positions").hasMessageContaining("type the stream or state as LoadRow");
    }
}
