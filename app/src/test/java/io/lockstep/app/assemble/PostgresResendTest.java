package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.CommitMessages.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.row.LoadRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Debezium PostgreSQL transactions against the committed commit LSN: re-sends dropped, a source that went back
 * stopped in one line, the cut and headless shapes of a connector restart, snapshot rows, the seed.
 */
class PostgresResendTest {

    private static final long T0 = 1_767_225_600_000L;

    private final CommitMessages m = new CommitMessages();
    private AssemblerHarness harness;
    private DebeziumTransactionAssembler assembler;

    private AssemblerHarness start(AssemblerOptions options, OperatorSubtaskState restored) throws Exception {
        if (harness != null) {
            harness.close();
        }
        assembler = new DebeziumTransactionAssembler(TableRouter.parse(null, "dw", UnknownTableMode.FAIL), options);
        harness = new AssemblerHarness(assembler, restored, 0);
        return harness;
    }

    private AssemblerHarness start() throws Exception {
        return start(AssemblerOptions.defaults(), null);
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aWholeResendIsDroppedAndTheEndRowCarriesTheCommitPosition() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")), m.pg(502, 1100, 2000, T0 + 1, order(2, "b")));
        assertThat(h.takeEmittedRowTexts()).containsExactly(order(1, "a"), order(2, "b"));

        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")), m.pg(502, 1100, 2000, T0 + 1, order(2, "b")),
                m.pg(503, 2100, 3000, T0 + 2, order(3, "c")));

        List<LoadRow> emitted = h.takeEmittedWithPositions();
        assertThat(emitted).extracting(LoadRow::getRow).containsExactly(order(3, "c"));
        assertThat(emitted.get(0).getCommitSource()).isEqualTo("postgresql:pg1");
        assertThat(emitted.get(0).getCommitPosition())
                .isEqualTo("{\"kind\":\"postgres-lsn\",\"lsn\":3000,\"txId\":\"503\",\"commitTimeMs\":" + (T0 + 2) + "}");
        assertThat(assembler.positions().resentCount()).isEqualTo(2);
    }

    @Test
    void anotherTransactionAtTheCommittedLsnStops() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")));
        h.takeEmitted();

        assertThatThrownBy(() -> h.sendAll(m.pg(777, 900, 1000, T0 + 60_000, order(1, "x"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("transaction '777:1000'")
                .hasMessageContaining("is at the committed position of postgresql:pg1 on source partition 0 but is "
                        + "another transaction (LSN 0/3E8 (transaction 777)")
                .hasMessageContaining("the source went back");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void lowerLsnsOfOtherTransactionsThenAHigherOneStop() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")), m.pg(502, 1100, 2000, T0 + 1, order(2, "b")));
        h.takeEmitted();

        // a point-in-time restore to before LSN 2000: new transactions at LSNs the old server had used
        assertThatThrownBy(() -> h.sendAll(m.pg(601, 1150, 1500, T0 + 90_000, order(9, "restored")),
                m.pg(602, 1600, 2500, T0 + 91_000, order(10, "restored"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("follows 1 re-sent source transaction of postgresql:pg1 on source partition 0 "
                        + "(LSN 0/5DC (transaction 601) .. LSN 0/5DC (transaction 601)) without the committed one "
                        + "(LSN 0/7D0 (transaction 502))");
        assertThat(h.takeEmitted()).isEmpty();
        assertThat(assembler.positions().resentCount()).isEqualTo(1);
    }

    @Test
    void aTailResumedWithoutItsBeginIsDroppedAtOrBelowTheCommittedLsn() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a"), order(2, "b"), order(3, "c")));
        h.takeEmitted();

        // the connector resumed inside 501: events 2 and 3 again, then END, no BEGIN
        h.sendAll(m.pgRows(501, 900, T0, 2, order(2, "b"), order(3, "c")), List.of(m.pgEnd(501, 1000, T0, 3)),
                m.pg(502, 1100, 2000, T0 + 1, order(4, "d")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(4, "d"));
        assertThat(assembler.positions().resentCount()).isEqualTo(1);
    }

    @Test
    void anEndAloneOfACommittedTransactionWhileACutOneIsOpenIsDropped() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")), m.pg(502, 1100, 2000, T0 + 1, order(2, "b")));
        h.sendAll(m.pg(503, 2100, 3000, T0 + 2, order(3, "c"), order(4, "d")).subList(0, 2)); // cut by the crash
        h.takeEmitted();

        // the restart resumed just before 502's END: the END alone, then 503 whole
        h.sendAll(List.of(m.pgEnd(502, 2000, T0 + 1, 1)),
                m.pg(503, 2100, 3000, T0 + 2, order(3, "c"), order(4, "d")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(3, "c"), order(4, "d"));
        assertThat(assembler.positions().resentCount()).isEqualTo(1);
    }

    @Test
    void aTailWithoutItsBeginAboveTheCommittedLsnStops() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")));
        h.takeEmitted();

        assertThatThrownBy(() -> h.sendAll(m.pgRows(900, 4000, T0 + 5, 2, order(7, "x")),
                List.of(m.pgEnd(900, 5000, T0 + 5, 2))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("counts 2 events {shop.orders=2} but 1 were received {shop.orders=1}; it was "
                        + "resumed without its BEGIN after a connector restart and is not a re-send of a committed "
                        + "transaction: its first events were never seen");
    }

    @Test
    void aTailWithoutItsBeginAndNoCommittedPositionStopsSayingNoneIsKnown() throws Exception {
        AssemblerHarness h = start(); // the first start of a job, or a progress table without commit_position

        assertThatThrownBy(() -> h.sendAll(m.pgRows(900, 4000, T0 + 5, 2, order(7, "x")),
                List.of(m.pgEnd(900, 5000, T0 + 5, 2))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageEndingWith("counts 2 events {shop.orders=2} but 1 were received {shop.orders=1}; it was "
                        + "resumed without its BEGIN: its first events were never seen in this run, and no committed "
                        + "commit position is known for postgresql:pg1 to tell a re-send from lost events (a progress "
                        + "table without the commit_position column: add it, "
                        + "docs/exactly-once.md#upgrading-a-progress-table; a job's first start: start its input at a "
                        + "transaction's BEGIN)")
                .message().doesNotContain("is not a re-send");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void anEndWithABareTxIdAfterLsnPositionsStops() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")));
        h.takeEmitted();
        List<SourceEvent> bare = new ArrayList<>(m.pg(502, 1100, 2000, T0 + 1, order(2, "b")));
        bare.set(bare.size() - 1, m.pgEndWithoutLsn(502, T0 + 1, 1));

        assertThatThrownBy(() -> h.sendAll(bare))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction '502' (END at topic 'cdc.all' partition 0 offset 6) on source partition 0 "
                        + "carries no commit position of postgresql:pg1, whose committed position here is a "
                        + "postgres-lsn position (LSN 0/3E8 (transaction 501)): it cannot be told from a re-send (was "
                        + "the connector's position output turned off?); nothing after it is loaded");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void aTransactionCutByARestartLoadsWholeWhenSentAgainFromItsBegin() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")));
        List<SourceEvent> cut = m.pg(502, 1100, 2000, T0 + 1, order(2, "b"), order(3, "c"));
        h.sendAll(cut.subList(0, 2)); // BEGIN and one event reached the topic before the crash
        h.takeEmitted();

        // restart from before 501: 501 whole again (dropped), then 502 whole
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")), m.pg(502, 1100, 2000, T0 + 1, order(2, "b"), order(3, "c")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(2, "b"), order(3, "c"));
        assertThat(assembler.positions().resentCount()).isEqualTo(1);
    }

    @Test
    void aCutTransactionThatIsNeverSentAgainStopsAtTheNextNewTransaction() throws Exception {
        AssemblerHarness h = start();
        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")));
        h.sendAll(m.pg(502, 1100, 2000, T0 + 1, order(2, "b"), order(3, "c")).subList(0, 2));
        h.takeEmitted();

        assertThatThrownBy(() -> h.sendAll(m.pg(503, 2100, 3000, T0 + 2, order(4, "d"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("transaction '502:1100' (started at topic 'cdc.all' partition 0 offset 3) was "
                        + "cut off and never sent again, but transaction '503:3000'")
                .hasMessageContaining("its rows would be lost");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void beforeAnyCommittedPositionACutTransactionIsNotAwaitedBeyondTheNextOne() throws Exception {
        AssemblerHarness h = start();
        // the input starts with a BEGIN cut off by a restart; nothing is committed yet
        h.sendAll(m.pg(502, 1100, 2000, T0 + 1, order(2, "b")).subList(0, 1));

        h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")), m.pg(502, 1100, 2000, T0 + 1, order(2, "b")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(1, "a"), order(2, "b"));
    }

    @Test
    void snapshotRowsSentAgainLoadAgainWithoutACommitPosition() throws Exception {
        AssemblerHarness h = start();
        // a crash during the initial snapshot: the connector snapshots again from the start (docs/input-formats.md)
        h.send(m.pgSnapshot(order(1, "a")), m.pgSnapshot(order(2, "b")));
        h.send(m.pgSnapshot(order(1, "a")), m.pgSnapshot(order(2, "b")));

        List<LoadRow> emitted = h.takeEmittedWithPositions();
        assertThat(emitted).extracting(LoadRow::getRow)
                .containsExactly(order(1, "a"), order(2, "b"), order(1, "a"), order(2, "b"));
        assertThat(emitted).allSatisfy(r -> {
            assertThat(r.isTransactionEnd()).isTrue();
            assertThat(r.getCommitSource()).isNull();
            assertThat(r.getCommitPosition()).isNull();
        });
        assertThat(assembler.positions().resentCount()).isZero();
    }

    @Test
    void aSeedAheadOfTheCheckpointWins() throws Exception {
        AssemblerHarness first = start();
        first.sendAll(m.pg(501, 900, 1000, T0, order(1, "a")));
        first.takeEmitted();
        OperatorSubtaskState checkpoint = first.checkpoint(1);
        // 502 committed by the sink after that checkpoint: the progress table holds it
        String seed = "{\"kind\":\"postgres-lsn\",\"lsn\":2000,\"txId\":\"502\",\"commitTimeMs\":" + (T0 + 1) + "}";

        AssemblerHarness h = start(AssemblerOptions.defaults()
                .withCommittedPositions(Map.of(0, Map.of("postgresql:pg1", seed))), checkpoint);
        h.sendAll(m.pg(502, 1100, 2000, T0 + 1, order(2, "b")), m.pg(503, 2100, 3000, T0 + 2, order(3, "c")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(3, "c"));
        assertThat(assembler.positions().resentCount()).isEqualTo(1);
    }

    @Test
    void aCommitSourceLongerThanTheProgressTableTakesStops() throws Exception {
        AssemblerHarness h = start();
        m.pgName = "p".repeat(195);

        assertThatThrownBy(() -> h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("the commit source 'postgresql:ppppppppppppppppppppppppppppp...' on source partition 0 is "
                        + "206 characters, over the 200 the progress table's source column takes; shorten the "
                        + "connector's name (Debezium topic.prefix)");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void anUnreadableSeedStopsInOneLine() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults()
                .withCommittedPositions(Map.of(0, Map.of("postgresql:pg1", "{\"kind\":\"postgres-lsn\"}"))), null);

        assertThatThrownBy(() -> h.sendAll(m.pg(501, 900, 1000, T0, order(1, "a"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("the progress table's commit position of postgresql:pg1 on source partition 0 cannot be "
                        + "read: a 'postgres-lsn' position without its 'lsn'");
    }
}
