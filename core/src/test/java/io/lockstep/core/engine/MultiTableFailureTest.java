package io.lockstep.core.engine;

import static io.lockstep.core.engine.FakeTransactionClient.load;
import static io.lockstep.core.engine.FakeTransactionClient.op;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bad input, asynchronous failures and close. */
class MultiTableFailureTest {
    private EngineFixture f = new EngineFixture();

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void crossDatabaseWriteIsRejectedAtTheFirstOffendingRowNamingBothDatabases() throws Exception {
        f.write(0, "orders", "a");
        long before = f.engine.bufferedBytes();
        assertThatThrownBy(() -> f.engine.write(0, "other_db", "items", EngineFixture.row("b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'other_db'")
                .hasMessageContaining("'db'")
                .hasMessageContaining("other_db.items");
        assertThat(f.engine.bufferedBytes()).isEqualTo(before);
        assertThat(f.engine.regions().view(new io.lockstep.core.buffer.RegionKey(0, "other_db", "items"))).isNull();
        f.engine.txnEnd(0);
        f.drive();
        f.advanceAndDrive(1000);
        assertThat(f.client.committedRows("orders")).containsExactly(EngineFixture.rowText("a"));
    }

    @Test
    void configuredDatabaseRejectsAnotherOnTheFirstRow() {
        f.close();
        f = new EngineFixture(b -> b.database("shop"));
        assertThatThrownBy(() -> f.write(0, "orders", "a"))
                .hasMessageContaining("'db'").hasMessageContaining("'shop'");
    }

    @Test
    void rowThatIsNotAJsonObjectIsRejectedNamingTableAndPartition() {
        assertThatThrownBy(() -> f.engine.write(5, "db", "orders", "1,2,3".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.orders (partition 5)");
        assertThat(f.engine.bufferedBytes()).isZero();
    }

    @Test
    void loadFailureIsRethrownOnTheNextTaskCallAndAtFlush() throws Exception {
        f.client.failOnce(load("orders"), "FAILED", "too many filtered rows");
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();

        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.FAILED);
        assertThatThrownBy(() -> f.write(0, "orders", "b"))
                .isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("too many filtered rows")
                .hasMessageContaining("db.orders")
                .hasMessageContaining(f.label(1));
        assertThatThrownBy(() -> f.engine.txnEnd(0)).isInstanceOf(LoadEngineException.class);
        assertThatThrownBy(() -> f.engine.requestFlush())
                .isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("too many filtered rows");
        assertThatThrownBy(() -> f.engine.checkFailure()).isInstanceOf(LoadEngineException.class);
        assertThat(f.client.calls("rollback")).extracting(FakeTransactionClient.Call::label)
                .containsExactly(f.label(1));
        assertThat(f.client.calls("commit")).isEmpty();
    }

    @Test
    void flushWaitingWhenALoadFailsFailsToo() throws Exception {
        f.client.failOnce(load("items"), "FAILED", "unknown table items");
        f.write(0, "orders", "a");
        f.write(0, "items", "b");
        f.engine.txnEnd(0);
        CompletableFuture<Void> done = f.engine.requestFlush();
        f.drive();
        assertThat(done).isCompletedExceptionally();
        assertThatThrownBy(done::join).isInstanceOf(CompletionException.class)
                .hasMessageContaining("unknown table items");
        assertThat(f.client.calls("commit")).as("a checkpoint never commits after a lost load").isEmpty();
    }

    @Test
    void firstFailureWinsOverLaterOnes() throws Exception {
        f.client.failOnce(load("orders"), "FAILED", "first: parse error");
        f.client.failOnce(op("rollback"), "FAILED", "second: rollback refused");
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();
        assertThatThrownBy(() -> f.engine.checkFailure()).hasMessageContaining("first: parse error")
                .hasMessageNotContaining("second");
    }

    @Test
    void aGivenUpCommitFailsTheEngineAndRollsTheLabelBackOnce() throws Exception {
        f.client.failOnce(op("commit"), "FAILED", "commit of t-0-r1-m1 failed after 4 attempt(s): lock timeout");
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();
        f.advanceAndDrive(1000);
        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.FAILED);
        assertThatThrownBy(() -> f.write(0, "orders", "b")).hasMessageContaining("lock timeout");
        assertThat(f.client.calls("rollback")).as("the given-up label holds no running-transaction slot")
                .extracting(FakeTransactionClient.Call::label).containsExactly(f.label(1));
        assertThat(f.client.state(f.label(1))).isEqualTo(io.lockstep.core.client.LabelState.ABORTED);
        f.engine.close();
        assertThat(f.client.calls("rollback")).as("not rolled back a second time at close").hasSize(1);
    }

    @Test
    void closeRetriesTheRollbackOfTheOpenSharedTransactionWithinItsRounds() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive(); // m1 open, a loaded
        f.client.failOnce(op("rollback"), null, "rollback of t-0-r1-m1 failed after 4 attempt(s): connect refused");
        f.client.failOnce(op("rollback"), null, "rollback of t-0-r1-m1 failed after 4 attempt(s): connect refused");

        f.engine.close();

        assertThat(f.client.calls("rollback")).hasSize(3);
        assertThat(f.client.state(f.label(1))).isEqualTo(io.lockstep.core.client.LabelState.ABORTED);
    }

    @Test
    void closeGivesUpTheRollbackAfterItsRounds() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();
        for (int i = 0; i < SharedTransactionCycle.ROLLBACK_ROUNDS + 1; i++) {
            f.client.failOnce(op("rollback"), null, "connect refused");
        }

        f.engine.close();

        assertThat(f.client.calls("rollback")).hasSize(SharedTransactionCycle.ROLLBACK_ROUNDS);
        assertThat(f.client.state(f.label(1))).isEqualTo(io.lockstep.core.client.LabelState.PREPARE);
    }

    @Test
    void closeStartsNoRollbackRoundOnceTheCloseTimeoutPassedOnTheTicker() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();
        long closeTimeoutMs = f.engine.config().closeTimeoutMs();
        // each failed round takes (on the engine's ticker) 60% of the close timeout: the client's own retries
        for (int i = 0; i < SharedTransactionCycle.ROLLBACK_ROUNDS; i++) {
            f.client.failOnce(c -> {
                if (!c.op().equals("rollback")) {
                    return false;
                }
                f.clock.advanceMs(closeTimeoutMs * 6 / 10);
                return true;
            }, null, "rollback of t-0-r1-m1 failed after 4 attempt(s): connect refused");
        }

        f.engine.close();

        assertThat(f.client.calls("rollback")).as("a second round starts at 60%%, no third after 120%%")
                .hasSize(2);
        assertThat(f.client.state(f.label(1))).isEqualTo(io.lockstep.core.client.LabelState.PREPARE);
    }

    @Test
    void beginFailureFailsTheEngine() throws Exception {
        f.client.failOnce(op("begin"), "ANALYSIS_ERROR", "current running txns on db 10 is 1000, larger than limit");
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();
        assertThatThrownBy(() -> f.write(0, "orders", "b")).hasMessageContaining("running txns");
        assertThat(f.client.calls("load")).isEmpty();
    }

    @Test
    void unexpectedRuntimeFailureInTheManagerStepIsKeptNotLost() throws Exception {
        f.client.crashOnce(load("orders"), new IllegalStateException("bug in client"));
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive();
        assertThatThrownBy(() -> f.engine.checkFailure()).hasMessageContaining("bug in client");
    }

    @Test
    void closeRollsBackTheOpenSharedTransactionAndReleasesEveryByte() throws Exception {
        f.write(0, "orders", "loaded");
        f.engine.txnEnd(0);
        f.drive(); // loaded, not committed
        f.clock.advanceMs(200);
        f.write(0, "orders", "frozen");
        f.engine.txnEnd(0);
        f.engine.runOnce(); // load queued, not run: in flight at close
        f.write(1, "items", "active");
        assertThat(f.engine.bufferedBytes()).isPositive();

        f.engine.close();
        assertThat(f.engine.bufferedBytes()).isZero();
        assertThat(f.engine.transactionState()).isEqualTo(SharedTransactionState.CLOSED);
        assertThat(f.client.calls("rollback")).extracting(FakeTransactionClient.Call::label)
                .containsExactly(f.label(1));
        assertThat(f.client.committedLoads()).isEmpty();
        assertThatThrownBy(() -> f.write(0, "orders", "late")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        f.engine.close(); // idempotent
    }

    @Test
    void blockingFlushGivesUpAtItsDeadlineNamingTheSharedTransaction() throws Exception {
        f.close();
        f = new EngineFixture(b -> b.flushTimeoutMs(30));
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.engine.runOnce(); // begin; the load stays queued, so no commit can finish
        assertThatThrownBy(() -> f.engine.flush()).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("30 ms").hasMessageContaining(f.label(1)).hasMessageContaining("OPEN");
    }

    @Test
    void failureMovesOnlyAlongLegalStateMoves() {
        assertThat(SharedTransactionState.COMMITTING.canMoveTo(SharedTransactionState.FAILED)).isTrue();
        assertThatThrownBy(() -> SharedTransactionState.CLOSED.checkMove(SharedTransactionState.OPEN))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("CLOSED -> OPEN");
    }
}
