package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fewer, larger loads: while the shared transaction is open, a table's frozen chunks load only once they hold the
 * minimum load ({@link LoadEngineConfig#minLoadRowBytes()}) or one waited a second; the commit loads the rest of
 * its cut, and memory pressure loads at once. Under pressure a transaction end switches inside the mini interval only once the
 * partition's active chunks hold buffer-size / 64, not at every transaction.
 */
class MultiTableLoadBatchingTest {
    /** buffer 1 MiB: maximum load 1 MiB, minimum load 128 KiB (buffer-size / 8). */
    private final EngineFixture f = new EngineFixture(b -> b.minLoadRowBytes(128 * 1024));

    @AfterEach
    void close() {
        f.close();
    }

    private static byte[] row(int id, int bytes) {
        String head = "{\"id\":" + id + ",\"v\":\"";
        return (head + "x".repeat(bytes - head.length() - 2) + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    /** One source transaction on partition 0: an order and an item, then the end; one mini interval later. */
    private void txn(int id, int rowBytes) throws InterruptedException {
        f.engine.write(0, "db", "orders", row(id, rowBytes));
        f.engine.write(0, "db", "items", row(id, rowBytes));
        f.engine.txnEnd(0);
        f.clock.advanceMs(f.engine.config().miniIntervalMs());
        f.drive();
    }

    @Test
    void theDefaultMinimumLoadIsAQuarterOfTheMaximumAndAtMostAnEighthOfTheBuffer() {
        assertThat(LoadEngineConfig.builder().build().minLoadRowBytes()).as("default buffer 128 MiB")
                .isEqualTo(4L << 20);
        assertThat(LoadEngineConfig.builder().bufferSizeBytes(1 << 20).build().minLoadRowBytes())
                .isEqualTo(128 * 1024);
        assertThat(LoadEngineConfig.builder().bufferSizeBytes(1 << 20).minLoadRowBytes(0).build().minLoadRowBytes())
                .isZero();
    }

    @Test
    void smallFrozenChunksWaitForTheCommitAndGoOutInOneLoadPerTable() throws Exception {
        for (int id = 0; id < 2; id++) {
            txn(id, 1000); // a mini interval apart: 2 chunks per table, both within the load hold
        }
        assertThat(f.region(0, "orders").frozenChunks()).isEqualTo(2);
        assertThat(f.client.calls("load")).as("2 KB per table is below the minimum load").isEmpty();

        f.advanceAndDrive(f.engine.config().commitIntervalMs());
        List<FakeTransactionClient.Call> loads = f.client.calls("load");
        assertThat(loads).as("one load per table at the commit").hasSize(2);
        for (FakeTransactionClient.Call load : loads) {
            assertThat(FakeTransactionClient.splitRows(load.body())).hasSize(2);
        }
        assertThat(f.client.calls("commit")).hasSize(1);
        assertThat(f.engine.bufferedBytes()).isZero();
    }

    @Test
    void aSmallFrozenChunkWaitsAtMostASecondUnderALongCommitInterval() throws Exception {
        try (EngineFixture slow = new EngineFixture(b -> b.commitIntervalMs(300_000).minLoadRowBytes(128 * 1024))) {
            slow.engine.write(0, "db", "orders", row(1, 1000));
            slow.engine.txnEnd(0); // freezes at T0
            slow.drive();
            slow.advanceAndDrive(LoadBatching.MAX_LOAD_HOLD_MS - 1);
            assertThat(slow.client.calls("load")).as("below the minimum, waited 999 ms").isEmpty();
            slow.advanceAndDrive(1);
            assertThat(slow.client.calls("load")).as("waited a second: loaded under the open label").hasSize(1);
            assertThat(slow.client.calls("commit")).isEmpty();
        }
    }

    @Test
    void aSmallFrozenChunkWaitsAQuarterOfAShortCommitInterval() throws Exception {
        try (EngineFixture quick = new EngineFixture(b -> b.commitIntervalMs(1000).minLoadRowBytes(128 * 1024))) {
            assertThat(LoadBatching.loadHoldMs(quick.engine.config())).isEqualTo(250);
            quick.engine.write(0, "db", "orders", row(1, 1000));
            quick.engine.txnEnd(0); // freezes at T0
            quick.drive();
            quick.advanceAndDrive(249);
            assertThat(quick.client.calls("load")).as("below the minimum, waited 249 ms").isEmpty();
            quick.advanceAndDrive(1);
            assertThat(quick.client.calls("load")).as("waited 250 ms: loaded under the open label").hasSize(1);
            assertThat(quick.client.calls("commit")).as("the commit is not due yet").isEmpty();
        }
    }

    @Test
    void aTableLoadsBeforeTheCommitOnceItsFrozenChunksHoldTheMinimum() throws Exception {
        for (int id = 0; id < 4; id++) {
            txn(id, 40 * 1024); // 160 KiB per table after 4 transactions
        }
        assertThat(f.client.calls("load")).as("both tables passed 128 KiB: loaded under the open label").hasSize(2);
        assertThat(f.client.calls("commit")).isEmpty();
    }

    @Test
    void underMemoryPressureEveryFrozenChunkLoadsAtOnce() throws Exception {
        try (EngineFixture small = new EngineFixture(b -> b.bufferSizeBytes(16 * 1024).minLoadRowBytes(8 * 1024))) {
            small.engine.write(0, "db", "orders", row(1, 9 * 1024));
            small.engine.txnEnd(0); // first end switches; 9 KiB of 16 KiB: no pressure, and above the minimum
            small.drive();
            assertThat(small.client.calls("load")).hasSize(1);

            small.clock.advanceMs(small.engine.config().miniIntervalMs());
            small.engine.write(0, "db", "orders", row(2, 17 * 1024)); // 17 KiB buffered: at the soft limit
            small.engine.write(0, "db", "items", row(3, 100));
            small.engine.txnEnd(0);
            small.drive();
            assertThat(small.client.calls("load")).as("the small items chunk loads too, under pressure").hasSize(3);
        }
    }

    @Test
    void underPressureATransactionEndSwitchesInsideTheMiniIntervalOnlyOnceThePartitionHoldsEnough()
            throws Exception {
        // buffer 64 KiB: soft limit 64 KiB, switch under pressure at 1 KiB of active rows (buffer-size / 64)
        try (EngineFixture small = new EngineFixture(b -> b.bufferSizeBytes(64 * 1024))) {
            small.engine.write(1, "db", "items", row(0, 65 * 1024)); // another partition, open: pressure stays
            small.engine.write(0, "db", "orders", row(1, 300));
            small.engine.txnEnd(0); // first end of partition 0 switches
            assertThat(small.region(0, "orders").frozenChunks()).isEqualTo(1);

            small.engine.write(0, "db", "orders", row(2, 300));
            small.engine.txnEnd(0); // inside the mini interval, 300 B active: stays active
            small.engine.write(0, "db", "orders", row(3, 300));
            small.engine.txnEnd(0); // 600 B
            assertThat(small.region(0, "orders").frozenChunks()).as("no chunk per transaction").isEqualTo(1);
            small.engine.write(0, "db", "orders", row(4, 500));
            small.engine.txnEnd(0); // 1,100 B >= 1 KiB: switches
            RegionTable.RegionView view = small.region(0, "orders");
            assertThat(view.frozenChunks()).isEqualTo(2);
            assertThat(view.activeHasData()).isFalse();
        }
    }
}
