package io.lockstep.core.engine;

import static io.lockstep.core.engine.EngineFixture.rowText;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Chunk switching on the task thread and the manager's idle fallback
 * (docs/architecture.md#the-multi-table-commit-cycle), on a manual clock.
 */
class MultiTableSwitchTest {
    private final EngineFixture f = new EngineFixture();

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void miniIntervalFollowsTheCommitInterval() {
        assertThat(f.engine.config().miniIntervalMs()).isEqualTo(100);
        assertThat(LoadEngineConfig.builder().commitIntervalMs(30_000).build().miniIntervalMs()).isEqualTo(1000);
        assertThat(LoadEngineConfig.builder().commitIntervalMs(200).build().miniIntervalMs()).isEqualTo(100);
        assertThat(LoadEngineConfig.builder().commitIntervalMs(5000).build().miniIntervalMs()).isEqualTo(500);
    }

    @Test
    void writeMarksUncleanAndNeverFreezes() throws Exception {
        for (int i = 0; i < 100; i++) {
            f.write(0, "orders", "o" + i);
        }
        RegionTable.RegionView view = f.region(0, "orders");
        assertThat(view.cleanBoundary()).isFalse();
        assertThat(view.activeHasData()).isTrue();
        assertThat(view.frozenChunks()).isZero();
        assertThat(view.lastSwitchTimeMs()).isZero();
    }

    @Test
    void firstTxnEndSwitches() throws Exception {
        f.write(0, "orders", "o1");
        f.write(0, "items", "i1");
        f.engine.txnEnd(0);

        for (String table : new String[] {"orders", "items"}) {
            RegionTable.RegionView view = f.region(0, table);
            assertThat(view.cleanBoundary()).isTrue();
            assertThat(view.activeHasData()).isFalse();
            assertThat(view.frozenChunks()).as("all tables of a partition freeze at the same txnEnd").isEqualTo(1);
            assertThat(view.lastSwitchTimeMs()).isEqualTo(EngineFixture.T0);
        }
    }

    @Test
    void txnEndsInsideMiniIntervalBatchIntoOneChunkAndOneLoad() throws Exception {
        f.write(0, "orders", "k1");
        f.engine.txnEnd(0); // first: switches
        f.drive(); // begin + load of k1
        for (String id : new String[] {"k2", "k3", "k4"}) {
            f.clock.advanceMs(20);
            f.write(0, "orders", id);
            f.engine.txnEnd(0);
        }
        RegionTable.RegionView view = f.region(0, "orders");
        assertThat(view.frozenChunks()).isZero();
        assertThat(view.activeHasData()).as("k2..k4 wait in the active chunk (N:1)").isTrue();
        assertThat(view.cleanBoundary()).isTrue();

        f.clock.advanceMs(40); // 100 ms since the first switch
        f.write(0, "orders", "k5");
        f.engine.txnEnd(0);
        assertThat(f.region(0, "orders").frozenChunks()).isEqualTo(1);

        f.drive();
        f.advanceAndDrive(1000); // commit
        assertThat(f.client.calls("load")).hasSize(2);
        assertThat(f.client.calls("load").get(1).body())
                .isEqualTo("[" + rowText("k2") + "," + rowText("k3") + "," + rowText("k4") + "," + rowText("k5") + "]");
        assertThat(f.client.committedRows("orders"))
                .containsExactly(rowText("k1"), rowText("k2"), rowText("k3"), rowText("k4"), rowText("k5"));
        assertThat(f.client.calls("commit")).hasSize(1);
    }

    @Test
    void idleFallbackFreezesCleanChunkAfterMiniInterval() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0); // switch at T0
        f.clock.advanceMs(10);
        f.write(0, "orders", "b");
        f.engine.txnEnd(0); // inside the mini interval: stays active

        f.advanceAndDrive(89); // 99 ms since the switch
        assertThat(f.region(0, "orders").activeHasData()).isTrue();

        f.advanceAndDrive(1); // 100 ms: the source is idle, the boundary is clean
        assertThat(f.region(0, "orders").activeHasData()).isFalse();
        assertThat(f.client.calls("load")).extracting(FakeTransactionClient.Call::body)
                .containsExactly("[" + rowText("a") + "]", "[" + rowText("b") + "]");
    }

    @Test
    void partialSourceTransactionIsNeverFrozenLoadedOrCommitted() throws Exception {
        f.write(0, "orders", "whole");
        f.write(0, "items", "whole-item");
        f.engine.txnEnd(0);
        f.write(0, "orders", "partial");
        f.write(0, "items", "partial-item");

        for (int i = 0; i < 30; i++) {
            f.advanceAndDrive(200);
        }
        assertThat(f.client.committedRows("orders")).containsExactly(rowText("whole"));
        assertThat(f.client.committedRows("items")).containsExactly(rowText("whole-item"));
        assertThat(f.client.calls("load")).extracting(FakeTransactionClient.Call::body)
                .noneMatch(body -> body.contains("partial"));
        assertThat(f.region(0, "orders").activeHasData()).isTrue();
        assertThat(f.region(0, "orders").cleanBoundary()).isFalse();

        f.engine.txnEnd(0);
        f.advanceAndDrive(1000);
        f.advanceAndDrive(1000);
        assertThat(f.client.committedRows("orders")).containsExactly(rowText("whole"), rowText("partial"));
        assertThat(f.client.committedRows("items")).containsExactly(rowText("whole-item"), rowText("partial-item"));
    }

    @Test
    void eachCommitHoldsBothTablesOfWholeSourceTransactionsOnly() throws Exception {
        // two source transactions on P0, each writing orders + items, interleaved with commits
        f.write(0, "orders", "o1");
        f.write(0, "items", "i1");
        f.engine.txnEnd(0);
        f.drive();
        f.clock.advanceMs(1000);
        f.write(0, "orders", "o2"); // second source transaction starts; the commit must not take it
        f.drive();
        assertThat(f.client.calls("commit")).hasSize(1);
        f.write(0, "items", "i2");
        f.engine.txnEnd(0);
        f.advanceAndDrive(1000);

        assertThat(f.client.calls("commit")).hasSize(2);
        String first = f.client.calls("commit").get(0).label();
        assertThat(f.client.calls("load")).filteredOn(c -> c.label().equals(first))
                .extracting(FakeTransactionClient.Call::body)
                .containsExactlyInAnyOrder("[" + rowText("o1") + "]", "[" + rowText("i1") + "]");
        String second = f.client.calls("commit").get(1).label();
        assertThat(f.client.calls("load")).filteredOn(c -> c.label().equals(second))
                .extracting(FakeTransactionClient.Call::body)
                .containsExactlyInAnyOrder("[" + rowText("o2") + "]", "[" + rowText("i2") + "]");
    }

    @Test
    void onePartitionsSwitchNeverTouchesAnothersData() throws Exception {
        f.write(0, "orders", "p0");
        f.write(1, "orders", "p1-partial");
        f.write(2, "orders", "p2");
        f.engine.txnEnd(2);
        f.clock.advanceMs(5);
        f.engine.txnEnd(0);

        assertThat(f.region(0, "orders").frozenChunks()).isEqualTo(1);
        assertThat(f.region(2, "orders").frozenChunks()).isEqualTo(1);
        RegionTable.RegionView p1 = f.region(1, "orders");
        assertThat(p1.frozenChunks()).isZero();
        assertThat(p1.activeHasData()).isTrue();
        assertThat(p1.cleanBoundary()).isFalse();
        assertThat(p1.lastSwitchTimeMs()).isZero();

        f.drive();
        f.advanceAndDrive(1000);
        assertThat(f.client.committedRows("orders")).containsExactlyInAnyOrder(rowText("p0"), rowText("p2"));
        assertThat(f.region(1, "orders").activeHasData()).isTrue();
    }

    @Test
    void tablesOfAPartitionSwitchInStepEvenWhenATransactionSkipsOne() throws Exception {
        f.write(0, "orders", "o1");
        f.write(0, "items", "i1");
        f.engine.txnEnd(0); // both switch at T0
        f.clock.advanceMs(100);
        f.write(0, "orders", "o2"); // this source transaction writes orders only
        f.engine.txnEnd(0); // orders switches at T0+100; items has nothing to freeze
        f.clock.advanceMs(50);
        f.write(0, "orders", "o3");
        f.write(0, "items", "i3");
        f.engine.txnEnd(0); // 50 ms since the partition's last switch: neither table may switch alone

        assertThat(f.region(0, "orders").activeHasData()).isTrue();
        assertThat(f.region(0, "items").activeHasData()).as("items must not freeze i3 without o3").isTrue();
        f.clock.advanceMs(50);
        f.engine.txnEnd(0);
        assertThat(f.region(0, "orders").activeHasData()).isFalse();
        assertThat(f.region(0, "items").activeHasData()).isFalse();
    }

    @Test
    void idleFallbackNeverFreezesACleanTableOfAPartitionInTheMiddleOfATransaction() throws Exception {
        f.write(0, "orders", "o1");
        f.write(0, "items", "i1");
        f.engine.txnEnd(0); // switch at T0
        f.clock.advanceMs(10);
        f.write(0, "orders", "o2");
        f.write(0, "items", "i2");
        f.engine.txnEnd(0); // batched in the active chunks
        f.write(0, "orders", "o3-partial"); // items stays clean, the partition is not

        f.advanceAndDrive(500);
        assertThat(f.region(0, "items").cleanBoundary()).isTrue();
        assertThat(f.region(0, "items").activeHasData()).as("i2 waits with o2").isTrue();
        f.advanceAndDrive(1000);
        assertThat(f.client.committedRows("items")).containsExactly(rowText("i1"));
        assertThat(f.client.committedRows("orders")).containsExactly(rowText("o1"));
    }

    @Test
    void loadBodiesAreJsonArraysWithTheTablesProperties() throws Exception {
        EngineFixture g = new EngineFixture(b -> b.tableLoadProperties("db", "items",
                java.util.Map.of("ignore_json_size", "true")));
        try {
            g.write(0, "orders", "o1");
            g.write(0, "orders", "o2");
            g.write(0, "items", "i1");
            g.engine.txnEnd(0);
            g.drive();
            FakeTransactionClient.Call orders = g.client.calls("load").stream()
                    .filter(c -> c.table().equals("orders")).findFirst().orElseThrow();
            assertThat(orders.body()).isEqualTo("[" + rowText("o1") + "," + rowText("o2") + "]");
            assertThat(orders.properties()).containsEntry("format", "json").containsEntry("strip_outer_array", "true")
                    .doesNotContainKey("ignore_json_size");
            FakeTransactionClient.Call items = g.client.calls("load").stream()
                    .filter(c -> c.table().equals("items")).findFirst().orElseThrow();
            assertThat(items.properties()).containsEntry("ignore_json_size", "true").containsEntry("format", "json");
            assertThat(orders.label()).isEqualTo(items.label()).isEqualTo(g.label(1));
        } finally {
            g.close();
        }
    }
}
