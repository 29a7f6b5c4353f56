package io.lockstep.app.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.app.assemble.InputStop;
import io.lockstep.app.assemble.CommittedSource;
import io.lockstep.app.assemble.OpenTransaction;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.LoadRowTypeInfo;
import io.lockstep.flink.row.SinkInput;
import io.lockstep.flink.row.SinkInputTypeInfo;
import io.lockstep.flink.types.DefaultStarRocksRowDataTypeInfo;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The types that cross operators or live in state are Flink POJOs (the rows: their own type information) and survive a
 * serializer round trip; none falls back to Kryo.
 */
class FlinkTypesTest {

    @Test
    void eventsAndStateAreFlinkPojosAndRowsHaveTheirOwnType() {
        assertThat(TypeInformation.of(SourceRecord.class)).isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(SourceEvent.class)).isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(OpenTransaction.class)).isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(CommittedSource.class)).isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(DefaultStarRocksRowData.class))
                .isInstanceOf(DefaultStarRocksRowDataTypeInfo.class);
        assertThat(TypeInformation.of(LoadRow.class)).isInstanceOf(LoadRowTypeInfo.class);
    }

    @Test
    void controlMarksArePojosOnTheSinkInputChannel() {
        assertThat(TypeInformation.of(InputStop.class)).isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(SchemaChangeBarrier.class)).isInstanceOf(PojoTypeInfo.class);
        assertThat(TypeInformation.of(SinkInput.class)).isInstanceOf(SinkInputTypeInfo.class);
    }

    @Test
    void endEventSurvivesTheSerializer() throws Exception {
        SourceEvent end = SourceEvent.at(SourceEventKind.END, new SourceRecord("t", 1, 42, null, null));
        end.setTransactionId("571:53195832");
        end.setTransactionKey("571");
        end.setEventCount(3);
        end.putTableEventCounts(Map.of("shop.orders", 1L, "shop.order_items", 2L));
        TypeSerializer<SourceEvent> serializer =
                TypeInformation.of(SourceEvent.class).createSerializer(new SerializerConfigImpl());

        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(end, out);
        SourceEvent copy = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));

        assertThat(copy).isEqualTo(end);
        assertThat(copy.getTableEventCounts()).isEqualTo(Map.of("shop.orders", 1L, "shop.order_items", 2L));
        assertThat(copy.describePosition()).isEqualTo("topic 't' partition 1 offset 42");
    }
}
