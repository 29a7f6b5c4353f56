package io.lockstep.emulator.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The FE transaction manager on a manual clock (docs/protocol.md#the-emulators-state-tables, #labels-and-label-state,
 * #timeouts-limits-and-concurrency).
 */
class TransactionManagerTest {
    final ManualClock clock = new ManualClock();
    final TransactionManager txns = new TransactionManager(clock, TransactionConfig.defaults());

    @Test
    void legalMovesOnly() {
        assertThat(TransactionStatus.PREPARE.canMoveTo(TransactionStatus.PREPARED)).isTrue();
        assertThat(TransactionStatus.PREPARE.canMoveTo(TransactionStatus.COMMITTED)).isTrue();
        assertThat(TransactionStatus.PREPARED.canMoveTo(TransactionStatus.PREPARE)).isFalse();
        assertThat(TransactionStatus.COMMITTED.canMoveTo(TransactionStatus.ABORTED)).isFalse();
        assertThat(TransactionStatus.VISIBLE.canMoveTo(TransactionStatus.ABORTED)).isFalse();
        assertThat(TransactionStatus.ABORTED.canMoveTo(TransactionStatus.PREPARE)).isFalse();
    }

    @Test
    void illegalMoveThrowsNamingBothStates() throws Exception {
        TransactionSnapshot t = txns.begin("d", 1, "l", "t", 60_000);
        txns.abort(t.txnId(), "x");
        assertThatThrownBy(() -> txns.prepare(t.txnId(), -1)).isInstanceOf(TransactionException.class)
                .hasMessageContaining("ABORTED").hasMessageContaining("PREPARED");
    }

    @Test
    void labelHistoryKeepsEveryTransactionAndReportsTheLatest() throws Exception {
        TransactionSnapshot first = txns.begin("d", 1, "l", "t", 60_000);
        txns.abort(first.txnId(), "user");
        TransactionSnapshot second = txns.begin("d", 1, "l", "t", 60_000);
        assertThat(second.txnId()).isGreaterThan(first.txnId());
        assertThat(txns.latest("d", "l").orElseThrow().txnId()).isEqualTo(second.txnId());
        assertThat(txns.get(first.txnId()).orElseThrow().status()).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void labelInUseNamesRunningOrFinished() throws Exception {
        TransactionSnapshot t = txns.begin("d", 1, "l", "t", 60_000);
        assertThatThrownBy(() -> txns.begin("d", 1, "l", "t", 60_000))
                .isInstanceOfSatisfying(TransactionException.class, e -> {
                    assertThat(e.reason()).isEqualTo(TransactionException.Reason.LABEL_ALREADY_USED);
                    assertThat(e.existingJobStatus()).isEqualTo("RUNNING");
                    assertThat(e.getMessage()).isEqualTo("Label [l] has already been used.");
                });
        txns.commit(t.txnId());
        txns.markVisible(t.txnId());
        assertThatThrownBy(() -> txns.begin("d", 1, "l", "t", 60_000))
                .isInstanceOfSatisfying(TransactionException.class,
                        e -> assertThat(e.existingJobStatus()).isEqualTo("FINISHED"));
        assertThat(txns.begin("other", 2, "l", "t", 60_000).status()).as("labels are per database")
                .isEqualTo(TransactionStatus.PREPARE);
    }

    @Test
    void runningLimitCountsPreparePreparedAndCommitted() throws Exception {
        txns.setMaxRunningTxnPerDb(3);
        TransactionSnapshot a = txns.begin("d", 7, "a", "t", 60_000);
        TransactionSnapshot b = txns.begin("d", 7, "b", "t", 60_000);
        TransactionSnapshot c = txns.begin("d", 7, "c", "t", 60_000);
        txns.prepare(b.txnId(), -1);
        txns.commit(c.txnId());
        assertThatThrownBy(() -> txns.begin("d", 7, "x", "t", 60_000))
                .hasMessage("current running txns on db 7 is 3, larger than limit 3");
        txns.markVisible(c.txnId());
        assertThat(txns.begin("d", 7, "x", "t", 60_000).status()).isEqualTo(TransactionStatus.PREPARE);
        assertThat(txns.runningCount("d")).isEqualTo(3);
        assertThat(a.status()).isEqualTo(TransactionStatus.PREPARE);
    }

    @Test
    void timersAbortAndForgetOnTheClock() throws Exception {
        List<TransactionSnapshot> aborted = new ArrayList<>();
        txns.addAbortListener(aborted::add);
        TransactionSnapshot open = txns.begin("d", 1, "open", "t", 10_000);
        TransactionSnapshot prepared = txns.begin("d", 1, "prep", "t", 10_000);
        txns.prepare(prepared.txnId(), 5_000);
        clock.advance(Duration.ofMillis(4_999));
        assertThat(txns.expire()).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(txns.expire()).extracting(TransactionSnapshot::label).containsExactly("prep");
        clock.advance(Duration.ofMillis(5_000));
        assertThat(txns.expire()).extracting(TransactionSnapshot::label).containsExactly("open");
        assertThat(aborted).extracting(TransactionSnapshot::txnId).containsExactly(prepared.txnId(), open.txnId());
        assertThat(aborted).allSatisfy(t -> assertThat(t.reason()).isEqualTo(TransactionManager.TIMEOUT_REASON));
        clock.advance(Duration.ofMillis(TransactionConfig.defaults().labelKeepMs()));
        assertThat(txns.latest("d", "open")).isEmpty();
        assertThat(txns.get(open.txnId())).isEmpty();
    }

    @Test
    void committedTransactionsNeverExpire() throws Exception {
        TransactionSnapshot t = txns.begin("d", 1, "c", "t", 1_000);
        txns.commit(t.txnId());
        clock.advance(Duration.ofDays(10));
        assertThat(txns.latest("d", "c").orElseThrow().status()).isEqualTo(TransactionStatus.COMMITTED);
        assertThat(txns.forceExpire(t.txnId())).isFalse();
    }

    @Test
    void labelFormat() {
        assertThatThrownBy(() -> LabelFormat.check("a b")).isInstanceOf(TransactionException.class);
        assertThatThrownBy(() -> LabelFormat.check("")).isInstanceOf(TransactionException.class);
        assertThatThrownBy(() -> LabelFormat.check("x".repeat(129))).isInstanceOf(TransactionException.class);
    }

    @Test
    void validLabelsPass() throws Exception {
        LabelFormat.check("flink-orders_0-42");
        LabelFormat.check("x".repeat(128));
    }

    @Test
    void labelInUseCarriesTheTransactionHoldingIt() throws Exception {
        TransactionSnapshot t = txns.begin("d", 1, "held", "t", 60_000);
        txns.prepare(t.txnId(), -1);
        assertThatThrownBy(() -> txns.begin("d", 1, "held", "t", 60_000))
                .isInstanceOfSatisfying(TransactionException.class, e -> {
                    assertThat(e.existing().txnId()).isEqualTo(t.txnId());
                    assertThat(e.existing().status()).isEqualTo(TransactionStatus.PREPARED);
                });
    }

    @Test
    void labelSyntaxComesFromTheConfig() throws Exception {
        TransactionManager doris = new TransactionManager(clock, new TransactionConfig(1000, 1000, 1000, 1000, 10, 0,
                0, LabelFormat.DORIS_LABEL_REGEX));
        assertThat(doris.begin("d", 1, "prefix_db_t:0_1", "t", 1000).status()).isEqualTo(TransactionStatus.PREPARE);
        assertThatThrownBy(() -> txns.begin("d", 1, "prefix_db_t:0_1", "t", 1000))
                .isInstanceOfSatisfying(TransactionException.class,
                        e -> assertThat(e.reason()).isEqualTo(TransactionException.Reason.LABEL_FORMAT));
    }

    @Test
    void labelNumThresholdForgetsTheOldestFinishedTransactionsPerDatabase() throws Exception {
        TransactionManager counted = new TransactionManager(clock, new TransactionConfig(60_000, 60_000, 60_000,
                86_400_000, 100, 0, 2, LabelFormat.LABEL_REGEX));
        for (String label : List.of("a", "b", "c")) {
            TransactionSnapshot t = counted.begin("d", 1, label, "t", 60_000);
            counted.commit(t.txnId());
            counted.markVisible(t.txnId());
            clock.advance(Duration.ofMillis(1));
        }
        TransactionSnapshot running = counted.begin("d", 1, "r", "t", 60_000);
        counted.expire();
        assertThat(counted.latest("d", "a")).isEmpty();
        assertThat(counted.latest("d", "b")).isPresent();
        assertThat(counted.latest("d", "c")).isPresent();
        assertThat(counted.get(running.txnId())).as("running ones never count").isPresent();
    }

    @Test
    void abortRunningLoadsAbortsOnlyPrepareTransactions() throws Exception {
        TransactionSnapshot loading = txns.begin("d", 1, "loading", "t", 60_000);
        TransactionSnapshot prepared = txns.begin("d", 1, "prepared", "t", 60_000);
        txns.prepare(prepared.txnId(), -1);
        List<TransactionSnapshot> told = new ArrayList<>();
        txns.addAbortListener(told::add);
        assertThat(txns.abortRunningLoads("BE down")).extracting(TransactionSnapshot::txnId)
                .containsExactly(loading.txnId());
        assertThat(txns.get(loading.txnId()).orElseThrow().reason()).isEqualTo("BE down");
        assertThat(txns.get(prepared.txnId()).orElseThrow().status()).isEqualTo(TransactionStatus.PREPARED);
        assertThat(told).extracting(TransactionSnapshot::txnId).containsExactly(loading.txnId());
    }
}
