package io.lockstep.flink.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class SinkInputSerializerTest {

    /** A job's own mark: must keep its class and fields across the channel. */
    public static class StopMark extends ControlMark {
        private String reason;

        public StopMark() {
        }

        StopMark(String reason, int partition) {
            super(partition);
            this.reason = reason;
        }

        public String getReason() {
            return reason;
        }

        public void setReason(String reason) {
            this.reason = reason;
        }
    }

    private static SinkInput roundTrip(SinkInput element) throws IOException {
        TypeSerializer<SinkInput> serializer =
                TypeInformation.of(SinkInput.class).createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(element, out);
        byte[] bytes = out.getCopyOfBuffer();
        DataOutputSerializer copied = new DataOutputSerializer(64);
        serializer.copy(new DataInputDeserializer(bytes), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(bytes);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        SinkInput back = serializer.deserialize(in);
        assertThat(in.available()).isZero();
        return back;
    }

    @Test
    void rowsAndMarksCrossTheChannelWithTheirClassAndFields() throws Exception {
        assertThat(TypeInformation.of(SinkInput.class)).isEqualTo(SinkInputTypeInfo.INSTANCE);
        LoadRow row = new LoadRow(null, "shop", "orders", "{\"id\":1}");
        row.setSourcePartition(2);
        row.setTransactionEnd(true);
        assertThat(roundTrip(row)).isEqualTo(row).isExactlyInstanceOf(LoadRow.class);

        SinkInput mark = roundTrip(new StopMark("bad input at offset 7", 4));
        assertThat(mark).isInstanceOf(StopMark.class);
        assertThat(((StopMark) mark).getReason()).isEqualTo("bad input at offset 7");
        assertThat(mark.getSourcePartition()).isEqualTo(4);
    }

    @Test
    void anUnknownTagFailsNamingIt() {
        assertThatThrownBy(() -> new SinkInputSerializer().deserialize(new DataInputDeserializer(new byte[] {7})))
                .isInstanceOf(IOException.class)
                .hasMessage("unknown SinkInput record tag 7 (expected 0 or 1)");
    }
}
