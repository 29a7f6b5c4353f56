package io.lockstep.core.engine;

import io.lockstep.core.format.JsonLoadFormat;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.buffer.Region;
import io.lockstep.core.buffer.RegionKey;

import org.junit.jupiter.api.Test;

class PartitionRegionsTest {
    private static final byte[] COMMA = JsonLoadFormat.INSTANCE.rowSeparator();
    private final Region orders = new Region(new RegionKey(0, "db", "orders"), COMMA);
    private final Region items = new Region(new RegionKey(0, "db", "items"), COMMA);
    private final PartitionRegions partition = new PartitionRegions();

    PartitionRegionsTest() {
        partition.add(orders);
        partition.add(items);
    }

    @Test
    void aTransactionEndSwitchesOnceTheMiniIntervalPassedSinceTheLatestRegionSwitch() {
        orders.write(new byte[10]);
        orders.markClean();
        orders.switchChunk(1, 1_000);
        items.write(new byte[10]);
        partition.markClean();
        assertThat(orders.cleanBoundary()).isTrue();
        assertThat(items.cleanBoundary()).isTrue();
        assertThat(partition.switchDueAtTxnEnd(1_099, 100, Long.MAX_VALUE)).as("99 ms after orders switched").isFalse();
        assertThat(partition.switchDueAtTxnEnd(1_100, 100, Long.MAX_VALUE)).isTrue();
    }

    @Test
    void aTransactionEndSwitchesInsideTheMiniIntervalOnceTheActiveChunksHoldSwitchBytesTogether() {
        orders.write(new byte[5]);
        orders.markClean();
        orders.switchChunk(1, 1_000);
        orders.write(new byte[30]);
        items.write(new byte[30]);
        assertThat(partition.switchDueAtTxnEnd(1_010, 100, 61)).isFalse();
        assertThat(partition.switchDueAtTxnEnd(1_010, 100, 60)).as("30 + 30 row bytes").isTrue();
    }

    @Test
    void anIdleSwitchNeedsEveryRegionCleanEvenUnderPressure() {
        orders.write(new byte[10]);
        partition.markClean();
        items.write(new byte[10]); // a source transaction open on items
        assertThat(partition.switchDueWhileIdle(5_000, 100, true)).isFalse();
        partition.markClean();
        assertThat(partition.switchDueWhileIdle(50, 100, false)).as("a new partition's last switch is 0").isFalse();
        assertThat(partition.switchDueWhileIdle(50, 100, true)).isTrue();
        assertThat(partition.switchDueWhileIdle(100, 100, false)).isTrue();
    }
}
