package io.lockstep.app.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The rebuild's state types are Flink POJOs (none falls back to Kryo) and survive a serializer round trip. */
class RebuildStateTypesTest {

    @Test
    void stateTypesArePojos() {
        for (Class<?> type : new Class<?>[] {PartitionCursor.class, HeldLink.class, TransactionSlots.class,
                RebuildProgress.class}) {
            assertThat(TypeInformation.of(type)).as(type.getSimpleName()).isInstanceOf(PojoTypeInfo.class);
        }
    }

    @Test
    void transactionSlotsSurviveTheSerializer() throws Exception {
        TransactionSlots slots = new TransactionSlots();
        slots.setFilled(3);
        slots.setMaxOrder(4);
        slots.setBytes(120);
        slots.setByTable(new HashMap<>(Map.of("public.orders", 2L, "public.items", 1L)));
        slots.setCommitSource("postgresql:pg");
        slots.setFirstPosition("topic 'pg.public.orders' partition 1 offset 7");
        TypeSerializer<TransactionSlots> serializer =
                TypeInformation.of(TransactionSlots.class).createSerializer(new SerializerConfigImpl());

        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(slots, out);
        TransactionSlots copy = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));

        assertThat(copy).usingRecursiveComparison().isEqualTo(slots);
    }
}
