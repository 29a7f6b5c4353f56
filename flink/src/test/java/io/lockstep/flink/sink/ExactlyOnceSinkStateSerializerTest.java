package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.LingeringScope;
import io.lockstep.core.restart.TableId;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.junit.jupiter.api.Test;

class ExactlyOnceSinkStateSerializerTest {
    private final ExactlyOnceSinkStateSerializer serializer = new ExactlyOnceSinkStateSerializer();

    private static ExactlyOnceSinkState sample() {
        return new ExactlyOnceSinkState("shop", 3, "lq2x9a7bcd12", 42,
                List.of(new TableId("db", "orders"), new TableId("db2", "表 items")),
                List.of(new CheckpointedTransaction("db", "orders", "shop-orders-3-lq2x9a7bcd12-41", 41, "lq2x9a7bcd12"),
                        new CheckpointedTransaction("db2", "表 items", "shop-___items-3-lq2x9a7bcd12-42", 42,
                                "lq2x9a7bcd12")));
    }

    @Test
    void roundTripsThroughTheVersionedEnvelope() throws IOException {
        ExactlyOnceSinkState state = sample();

        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(serializer, state);
        ExactlyOnceSinkState back = SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, bytes);

        assertThat(back).isEqualTo(state);
        assertThat(back.lingeringScope()).isEqualTo(new LingeringScope("shop", 3, "lq2x9a7bcd12", 42,
                List.of(new TableId("db", "orders"), new TableId("db2", "表 items"))));
    }

    @Test
    void anEmptyStateRoundTrips() throws IOException {
        ExactlyOnceSinkState empty = new ExactlyOnceSinkState("p", 0, "r", 0, List.of(), List.of());

        assertThat(serializer.deserialize(1, serializer.serialize(empty))).isEqualTo(empty);
    }

    @Test
    void anUnknownVersionIsRejectedNamingIt() throws IOException {
        byte[] body = serializer.serialize(sample());

        assertThatThrownBy(() -> serializer.deserialize(2, body))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2")
                .hasMessageContaining("only version 1");
    }

    @Test
    void truncatedOrTrailingBytesAreRejected() throws IOException {
        byte[] body = serializer.serialize(sample());

        assertThatThrownBy(() -> serializer.deserialize(1, Arrays.copyOf(body, body.length - 3)))
                .isInstanceOf(IOException.class).hasMessageContaining("malformed");
        assertThatThrownBy(() -> serializer.deserialize(1, Arrays.copyOf(body, body.length + 2)))
                .isInstanceOf(IOException.class).hasMessageContaining("unexpected bytes");
    }
}
