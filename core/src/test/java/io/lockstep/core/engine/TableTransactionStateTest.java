package io.lockstep.core.engine;

import static io.lockstep.core.engine.TableTransactionState.COMMITTED;
import static io.lockstep.core.engine.TableTransactionState.LOADED;
import static io.lockstep.core.engine.TableTransactionState.OPEN;
import static io.lockstep.core.engine.TableTransactionState.PREPARED;
import static io.lockstep.core.engine.TableTransactionState.ROLLED_BACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.TransactionRef;

import org.junit.jupiter.api.Test;

/** The legal moves of one table's transaction in the single-table engine. */
class TableTransactionStateTest {
    private static TableTransaction txn() {
        return new TableTransaction(TransactionRef.singleTable("db", "orders", "L7"));
    }

    @Test
    void transactionStreamLoadGoesOpenLoadedPreparedCommitted() {
        TableTransaction t = txn();
        t.moveTo(LOADED);
        t.moveTo(PREPARED);
        t.moveTo(COMMITTED);
        assertThat(t.state()).isEqualTo(COMMITTED);
        assertThatThrownBy(() -> t.moveTo(ROLLED_BACK)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("L7").hasMessageContaining("COMMITTED -> ROLLED_BACK");
    }

    @Test
    void aTwoPhaseLoadPreCommitsItsTransactionAndOnlyOpenLoadedOrPreparedRollBack() {
        TableTransaction t = txn();
        t.moveTo(PREPARED);
        t.moveTo(ROLLED_BACK);
        assertThat(OPEN.canMoveTo(ROLLED_BACK)).isTrue();
        assertThat(LOADED.canMoveTo(ROLLED_BACK)).isTrue();
        assertThat(OPEN.canMoveTo(COMMITTED)).as("no commit without prepare").isFalse();
        assertThat(LOADED.canMoveTo(COMMITTED)).isFalse();
        assertThat(ROLLED_BACK.canMoveTo(OPEN)).isFalse();
        assertThatThrownBy(() -> t.moveTo(LOADED)).hasMessageContaining("ROLLED_BACK -> LOADED");
    }
}
