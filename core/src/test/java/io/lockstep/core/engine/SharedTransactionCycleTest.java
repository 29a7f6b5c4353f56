package io.lockstep.core.engine;

import static io.lockstep.core.engine.EngineFixture.rowText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.metrics.MetricNames;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The shared transaction: begun with data, timer commit, one load per (label, table), cut, recycle, flush. */
class SharedTransactionCycleTest {
    private EngineFixture f = new EngineFixture();

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void sharedTransactionIsBegunBeforeAnyLoad() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();
        List<FakeTransactionClient.Call> calls = f.client.calls();
        assertThat(calls.get(0).op()).isEqualTo("begin");
        assertThat(calls.get(0).label()).isEqualTo(f.label(1));
        assertThat(calls.get(0).table()).as("multi-table begin names no table").isNull();
        assertThat(calls.get(1).op()).isEqualTo("load");
        assertThat(calls.get(1).label()).isEqualTo(f.label(1));
        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.OPEN);
    }

    @Test
    void noSharedTransactionIsBegunBeforeAChunkWaitsToBeLoaded() throws Exception {
        f.close();
        f = new EngineFixture(b -> b.database("db"));
        for (int i = 0; i < 5; i++) {
            f.advanceAndDrive(1000);
        }
        f.write(0, "orders", "a"); // a source transaction in progress: nothing can be loaded yet
        f.advanceAndDrive(1000);
        assertThat(f.client.calls()).as("a subtask without loadable data holds no running-transaction slot")
                .isEmpty();
        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.NONE);

        f.engine.txnEnd(0);
        f.drive();
        assertThat(f.client.calls()).extracting(FakeTransactionClient.Call::toString)
                .containsExactly("begin(" + f.label(1) + ")", "load(" + f.label(1) + ", orders)");
    }

    @Test
    void commitIsTimerDrivenWithoutPrepareAndTheNextLabelOpensOnlyWithData() throws Exception {
        f.write(0, "orders", "a");
        f.write(0, "items", "b");
        f.engine.txnEnd(0);
        f.drive();
        f.advanceAndDrive(999);
        assertThat(f.client.calls("commit")).isEmpty();

        f.advanceAndDrive(1);
        assertThat(f.client.calls("commit")).extracting(FakeTransactionClient.Call::label).containsExactly(f.label(1));
        assertThat(f.client.calls("prepare")).as("multi-table transactions are never prepared").isEmpty();
        assertThat(f.client.state(f.label(1))).isEqualTo(LabelState.VISIBLE);
        assertThat(f.client.calls("begin")).extracting(FakeTransactionClient.Call::label)
                .containsExactly(f.label(1));
        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.NONE);
        assertThat(f.metrics.count(MetricNames.COMMITS)).isEqualTo(1);
        assertThat(f.metrics.tableCount(MetricNames.LOADED_ROWS, "db", "orders")).isEqualTo(1);
        assertThat(f.engine.bufferedBytes()).isZero();

        f.advanceAndDrive(5000);
        f.write(0, "orders", "c");
        f.engine.txnEnd(0);
        f.drive(); // the timer ran out long ago: begin, load and commit in one go
        assertThat(f.client.calls()).extracting(FakeTransactionClient.Call::toString).endsWith(
                "begin(" + f.label(2) + ")", "load(" + f.label(2) + ", orders)", "commit(" + f.label(2) + ")");
    }

    @Test
    void theCommitTimerCountsFromThePreviousCommitsStartNotItsEnd() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.engine.runOnce(); // begin, the load of a goes out and stays in flight
        f.clock.advanceMs(1000);
        f.engine.runOnce(); // the commit falls due and waits for the load
        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.DRAINING);
        f.clock.advanceMs(300); // the load takes 300 ms
        f.io.runAll();
        f.engine.runOnce();
        assertThat(f.client.calls("commit")).hasSize(1);

        f.write(0, "orders", "b");
        f.engine.txnEnd(0);
        f.engine.runOnce(); // the next label begins and loads b
        f.io.runAll();
        f.clock.advanceMs(699);
        f.engine.runOnce();
        assertThat(f.client.calls("commit")).as("999 ms after the first commit started").hasSize(1);
        f.clock.advanceMs(1);
        f.engine.runOnce();
        assertThat(f.client.calls("commit")).as("one commit interval after the first commit started, 700 ms after "
                + "it ended").extracting(FakeTransactionClient.Call::label).containsExactly(f.label(1), f.label(2));
    }

    @Test
    void sourceTransactionsCommittedCountsTheEndsACommitMadeVisible() throws Exception {
        f.write(0, "orders", "a");
        f.write(0, "items", "b");
        f.engine.txnEnd(0);
        f.write(1, "orders", "c");
        f.engine.txnEnd(1);
        f.clock.advanceMs(10);
        f.write(0, "orders", "d");
        f.engine.txnEnd(0); // within the mini interval: stays in the active chunk until an idle freeze
        f.write(1, "items", "open"); // partition 1's next source transaction has no end yet
        f.drive();
        assertThat(f.metrics.count(MetricNames.SOURCE_TRANSACTIONS_COMMITTED)).as("nothing committed yet").isZero();

        f.advanceAndDrive(1000);
        assertThat(f.client.calls("commit")).hasSize(1);
        assertThat(f.metrics.count(MetricNames.SOURCE_TRANSACTIONS_COMMITTED))
                .as("the three ended source transactions; the open one is not in the cut").isEqualTo(3);

        f.engine.txnEnd(1);
        f.advanceAndDrive(1000);
        assertThat(f.client.calls("commit")).hasSize(2);
        assertThat(f.metrics.count(MetricNames.SOURCE_TRANSACTIONS_COMMITTED)).isEqualTo(4);
    }

    @Test
    void committedRowsCountTheRowsACommitMadeVisibleNotThoseOfARolledBackTransaction() throws Exception {
        f.write(0, "orders", "a");
        f.write(0, "items", "b");
        f.engine.txnEnd(0);
        f.drive();
        assertThat(f.metrics.count(MetricNames.COMMITTED_ROWS)).as("loaded, not yet committed").isZero();
        f.advanceAndDrive(1000);
        assertThat(f.client.calls("commit")).hasSize(1);
        assertThat(f.metrics.count(MetricNames.COMMITTED_ROWS)).isEqualTo(2);

        f.write(0, "orders", "c");
        f.engine.txnEnd(0);
        f.drive(); // c loads under the next shared transaction, which is open when the engine closes
        assertThat(f.metrics.tableCount(MetricNames.LOADED_ROWS, "db", "orders")).isEqualTo(2);
        f.close(); // rolls the open transaction back

        assertThat(f.client.calls("rollback")).hasSize(1);
        assertThat(f.metrics.count(MetricNames.COMMITTED_ROWS)).as("c was rolled back").isEqualTo(2);
    }

    @Test
    void noCommitWithoutData() {
        f.close();
        f = new EngineFixture(b -> b.database("db"));
        for (int i = 0; i < 20; i++) {
            f.advanceAndDrive(500);
        }
        assertThat(f.client.calls("commit")).isEmpty();
        assertThat(f.client.calls("load")).isEmpty();
    }

    @Test
    void oneLoadInFlightPerLabelAndTable() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.engine.runOnce(); // begin, load of a submitted
        assertThat(f.io.pending()).isEqualTo(1);

        f.clock.advanceMs(100);
        f.write(0, "orders", "b");
        f.engine.txnEnd(0); // second chunk of orders frozen
        f.write(1, "orders", "c");
        f.engine.txnEnd(1); // and one from another partition
        f.engine.runOnce();
        assertThat(f.io.pending()).as("orders already has a load in flight").isEqualTo(1);
        assertThat(f.engine.cycle().tablesInFlight()).containsExactly("orders");

        f.write(0, "items", "d");
        f.clock.advanceMs(100);
        f.engine.txnEnd(0);
        f.engine.runOnce();
        assertThat(f.io.pending()).as("another table may load at the same time").isEqualTo(2);

        f.io.runAll();
        f.engine.runOnce(); // replies handled; the waiting orders chunks go out together
        assertThat(f.io.pending()).isEqualTo(1);
        f.io.runAll();
        f.engine.runOnce();
        assertThat(f.client.calls("load")).extracting(FakeTransactionClient.Call::body).containsExactly(
                "[" + rowText("a") + "]", "[" + rowText("d") + "]", "[" + rowText("b") + "," + rowText("c") + "]");
    }

    @Test
    void tableFirstWrittenDuringACommitWaitsForTheNextSharedLabel() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.engine.runOnce(); // begin m1; load(orders) queued, not run
        f.clock.advanceMs(1000);
        f.engine.runOnce(); // commit due: DRAINING, waits for the load
        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.DRAINING);

        f.write(0, "items", "late");
        f.engine.txnEnd(0); // frozen after the cut
        f.engine.runOnce();
        f.engine.runOnce();
        assertThat(f.io.pending()).as("no load for the new table under the draining label").isEqualTo(1);
        assertThat(f.client.calls("begin")).hasSize(1);

        f.io.runAll();
        f.engine.runOnce(); // reply -> commit m1 -> begin m2 -> load items under m2
        f.io.runAll();
        f.engine.runOnce();
        assertThat(f.client.calls()).extracting(FakeTransactionClient.Call::toString).containsExactly(
                "begin(" + f.label(1) + ")", "load(" + f.label(1) + ", orders)", "commit(" + f.label(1) + ")",
                "begin(" + f.label(2) + ")", "load(" + f.label(2) + ", items)");
        assertThat(f.client.committedRows("items")).isEmpty();
        f.advanceAndDrive(1000);
        assertThat(f.client.committedRows("items")).containsExactly(rowText("late"));
    }

    @Test
    void sharedTransactionHoldingDataIsRecycledByCommittingIt() throws Exception {
        f.close();
        f = new EngineFixture(b -> b.database("db").serverTimeoutSeconds(10));
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive(); // begin m1 at T0, load a
        f.write(0, "orders", "b");
        f.engine.txnEnd(0); // inside the mini interval: b stays active
        f.advanceAndDrive(8000); // the manager thread stalled past 80%: recycle commits what the label holds
        assertThat(f.client.calls()).extracting(FakeTransactionClient.Call::toString).containsExactly(
                "begin(" + f.label(1) + ")", "load(" + f.label(1) + ", orders)", "load(" + f.label(1) + ", orders)",
                "commit(" + f.label(1) + ")");
        assertThat(f.client.calls("rollback")).isEmpty();
        assertThat(f.client.committedRows("orders")).containsExactly(rowText("a"), rowText("b"));
    }

    @Test
    void recycleFailsFastNamingThePartitionStuckInASourceTransaction() throws Exception {
        f.close();
        f = new EngineFixture(b -> b.serverTimeoutSeconds(10));
        f.write(3, "orders", "never-ended"); // before the shared transaction began
        f.write(5, "orders", "whole");
        f.engine.txnEnd(5);
        f.drive(); // begin m1 at T0
        f.clock.advanceMs(5000);
        f.write(4, "orders", "recent"); // a source transaction in progress, not stuck
        f.advanceAndDrive(3000); // the manager thread stalled past 80% of the server timeout

        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.FAILED);
        assertThatThrownBy(() -> f.write(4, "orders", "more"))
                .isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("partitions [3]")
                .hasMessageContaining(f.label(1));
        assertThat(f.client.calls("rollback")).extracting(FakeTransactionClient.Call::label)
                .containsExactly(f.label(1));
    }

    @Test
    void flushForceSwitchesLoadsAndCommitsEverything() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0); // switched
        f.write(0, "orders", "b");
        f.write(1, "items", "c");
        f.engine.txnEnd(0); // inside the mini interval: b stays active
        f.engine.txnEnd(1);
        f.engine.runOnce(); // begin + load a

        CompletableFuture<Void> done = f.engine.requestFlush();
        assertThat(f.region(0, "orders").activeHasData()).isFalse();
        assertThat(done).isNotDone();
        f.drive();
        assertThat(done).isCompleted();
        assertThat(f.client.committedRows("orders")).containsExactly(rowText("a"), rowText("b"));
        assertThat(f.client.committedRows("items")).containsExactly(rowText("c"));
        assertThat(f.engine.bufferedBytes()).isZero();
    }

    @Test
    void flushWithNothingBufferedCompletesWithoutACommit() {
        CompletableFuture<Void> done = f.engine.requestFlush();
        f.drive();
        assertThat(done).isCompleted();
        assertThat(f.client.calls()).isEmpty();
    }

    @Test
    void flushDuringADrainingCommitWaitsForTheNextOne() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.engine.runOnce();
        f.clock.advanceMs(1000);
        f.engine.runOnce(); // DRAINING with cut = a
        f.write(0, "orders", "b");
        f.engine.txnEnd(0); // inside the mini interval
        CompletableFuture<Void> done = f.engine.requestFlush(); // freezes b after the cut
        f.io.runAll();
        f.engine.runOnce(); // commit m1 (a only), begin m2
        assertThat(done).isNotDone();
        f.drive();
        assertThat(done).isCompleted();
        assertThat(f.client.calls("commit")).extracting(FakeTransactionClient.Call::label)
                .containsExactly(f.label(1), f.label(2));
        assertThat(f.client.committedRows("orders")).containsExactly(rowText("a"), rowText("b"));
    }

    @Test
    void flushFailsFastNamingPartitionsMidTransactionAndLosesNothing() throws Exception {
        f.write(1, "orders", "p1-open");
        f.write(7, "items", "p7-open");
        f.write(2, "orders", "p2");
        f.engine.txnEnd(2);

        assertThatThrownBy(() -> f.engine.requestFlush())
                .isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("[1, 7]");
        f.engine.txnEnd(1);
        f.engine.txnEnd(7);
        CompletableFuture<Void> done = f.engine.requestFlush();
        f.drive();
        assertThat(done).isCompleted();
        assertThat(f.client.committedRows("orders")).containsExactlyInAnyOrder(rowText("p1-open"), rowText("p2"));
        assertThat(f.client.committedRows("items")).containsExactly(rowText("p7-open"));
    }
}
