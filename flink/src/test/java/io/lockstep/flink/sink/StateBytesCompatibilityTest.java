package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.TableId;
import io.lockstep.flink.sink.v2.CheckpointedTransactionSerializer;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.junit.jupiter.api.Test;

/**
 * Savepoints and checkpoints written by earlier releases restore: the bytes below were written (version envelope
 * included) by the exactly-once state serializer and the Sink V2 committable serializer before they shared
 * {@link CheckpointedTransactionFormat}. Both must still read them, and write the same bytes again.
 */
class StateBytesCompatibilityTest {
    private static final String RUN = "lq2x9a7bcd12";
    private static final CheckpointedTransaction ORDERS_41 =
            new CheckpointedTransaction("db", "orders", "shop-orders-3-lq2x9a7bcd12-41", 41, RUN);
    private static final CheckpointedTransaction ITEMS_42 =
            new CheckpointedTransaction("db2", "表 items", "shop-___items-3-lq2x9a7bcd12-42", 42, RUN);

    /** {@link ExactlyOnceSinkStateSerializer} version 1, written by the release before the shared format. */
    private static final String STATE_V1 = "00000001000000cc000473686f7000000003000c6c7132783961376263643132"
            + "000000000000002a000000020002646200066f726465727300036462320009e8a1a8206974656d730000000200026462"
            + "00066f7264657273001d73686f702d6f72646572732d332d6c71327839613762636431322d3431000000000000002900"
            + "0c6c713278396137626364313200036462320009e8a1a8206974656d73001f73686f702d5f5f5f6974656d732d332d6c"
            + "71327839613762636431322d3432000000000000002a000c6c7132783961376263643132";

    /** {@link CheckpointedTransactionSerializer} version 1, written by the release before the shared format. */
    private static final String COMMITTABLE_V1 = "000000010000004700036462320009e8a1a8206974656d73001f73686f702d5f5f5f"
            + "6974656d732d332d6c71327839613762636431322d3432000000000000002a000c6c7132783961376263643132";

    @Test
    void theSinkFunctionStateOfAnEarlierReleaseRestoresAndIsWrittenAlike() throws IOException {
        ExactlyOnceSinkState expected = new ExactlyOnceSinkState("shop", 3, RUN, 42,
                List.of(new TableId("db", "orders"), new TableId("db2", "表 items")), List.of(ORDERS_41, ITEMS_42));
        ExactlyOnceSinkStateSerializer serializer = new ExactlyOnceSinkStateSerializer();
        byte[] old = HexFormat.of().parseHex(STATE_V1);

        assertThat(SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, old)).isEqualTo(expected);
        assertThat(SimpleVersionedSerialization.writeVersionAndSerialize(serializer, expected)).isEqualTo(old);
    }

    @Test
    void theSinkV2CommittableOfAnEarlierReleaseRestoresAndIsWrittenAlike() throws IOException {
        CheckpointedTransactionSerializer serializer = new CheckpointedTransactionSerializer();
        byte[] old = HexFormat.of().parseHex(COMMITTABLE_V1);

        assertThat(SimpleVersionedSerialization.readVersionAndDeSerialize(serializer, old)).isEqualTo(ITEMS_42);
        assertThat(SimpleVersionedSerialization.writeVersionAndSerialize(serializer, ITEMS_42)).isEqualTo(old);
    }
}
