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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MySQL (Debezium, with and without GTIDs) and Maxwell transactions against their committed commit position: GTID
 * set membership, tagged GTIDs, a GTID re-used after {@code RESET MASTER}, binlog file and position across a
 * rotation, Maxwell with and without {@code position}/{@code gtid}.
 */
class MysqlMaxwellResendTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final long T0 = 1_767_225_600_000L;

    private final CommitMessages m = new CommitMessages();
    private AssemblerHarness harness;
    private TransactionAssembler assembler;

    private AssemblerHarness start(TransactionAssembler a) throws Exception {
        assembler = a;
        harness = new AssemblerHarness(a);
        return harness;
    }

    private AssemblerHarness debezium() throws Exception {
        return start(new DebeziumTransactionAssembler(TableRouter.parse(null, "dw", UnknownTableMode.FAIL),
                AssemblerOptions.defaults()));
    }

    private AssemblerHarness maxwell() throws Exception {
        return start(new MaxwellTransactionAssembler(TableRouter.parse(null, "dw", UnknownTableMode.FAIL),
                AssemblerOptions.defaults()));
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private List<SourceEvent> gtid(long n, long tsMs, String row) {
        return m.mysql(UUID + ":" + n, "mysql-bin.000003", 1000 * n, tsMs, row);
    }

    @Test
    void aGtidCommittedOutOfSequenceOrderFillsItsGapAndIsNotDropped() throws Exception {
        AssemblerHarness h = debezium();
        // replica_preserve_commit_order=OFF: the binlog holds :1, :3, then :2
        h.sendAll(gtid(1, T0, order(1, "a")), gtid(3, T0 + 2000, order(3, "c")), gtid(2, T0 + 1000, order(2, "b")));
        List<LoadRow> emitted = h.takeEmittedWithPositions();
        assertThat(emitted).extracting(LoadRow::getRow).containsExactly(order(1, "a"), order(3, "c"), order(2, "b"));
        assertThat(emitted.get(2).getCommitSource()).isEqualTo("mysql:db1");
        assertThat(emitted.get(2).getCommitPosition()).isEqualTo("{\"kind\":\"gtid\",\"gtid\":\"" + UUID + ":2\","
                + "\"txId\":\"" + UUID + ":2\",\"commitTimeMs\":" + (T0 + 1000) + ",\"gtidSet\":{\"" + UUID
                + "\":[[1,3]]}}");

        // the connector restarts from :1: the same order again, then a new one
        h.sendAll(gtid(1, T0, order(1, "a")), gtid(3, T0 + 2000, order(3, "c")), gtid(2, T0 + 1000, order(2, "b")),
                gtid(4, T0 + 3000, order(4, "d")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(4, "d"));
        assertThat(((CommittedSourcePositionsAccess) () -> assembler).resent()).isEqualTo(3);
    }

    @Test
    void aRunOfResendsThatHoldsTheCommittedTransactionBeforeOlderOnesIsNotTakenForASourceThatWentBack()
            throws Exception {
        AssemblerHarness h = debezium();
        h.sendAll(gtid(1, T0, order(1, "a")), gtid(2, T0 + 1000, order(2, "b")), gtid(3, T0 + 2000, order(3, "c")),
                gtid(4, T0 + 3000, order(4, "d")));
        h.takeEmitted();

        // re-sent: the newest first (the committed :4 among them), then older ones, then a new transaction
        h.sendAll(gtid(3, T0 + 2000, order(3, "c")), gtid(4, T0 + 3000, order(4, "d")), gtid(1, T0, order(1, "a")),
                gtid(5, T0 + 4000, order(5, "e")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(5, "e"));
        assertThat(((CommittedSourcePositionsAccess) () -> assembler).resent()).isEqualTo(3);
    }

    @Test
    void taggedGtidsAreNumberedPerTagAndComparedWithoutCase() throws Exception {
        AssemblerHarness h = debezium();
        h.sendAll(gtid(1, T0, order(1, "a")),
                m.mysql(UUID + ":Batch_1:1", "mysql-bin.000003", 5000, T0 + 1000, order(2, "b")));
        assertThat(h.takeEmittedRowTexts()).containsExactly(order(1, "a"), order(2, "b"));

        h.sendAll(m.mysql(UUID + ":batch_1:1", "mysql-bin.000003", 5000, T0 + 1000, order(2, "b")),
                m.mysql(UUID + ":batch_1:2", "mysql-bin.000003", 6000, T0 + 2000, order(3, "c")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(3, "c"));
    }

    @Test
    void aGtidReusedAfterResetMasterWithAnotherCommitTimeStops() throws Exception {
        AssemblerHarness h = debezium();
        h.sendAll(gtid(1, T0, order(1, "a")), gtid(2, T0 + 1000, order(2, "b")));
        h.takeEmitted();

        // RESET MASTER: numbering starts again at :1, an hour later
        assertThatThrownBy(() -> h.sendAll(gtid(1, T0 + 3_600_000, order(7, "new")),
                gtid(2, T0 + 3_601_000, order(8, "new"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("is at the committed position of mysql:db1 on source partition 0 but is another "
                        + "transaction (GTID " + UUID + ":2, commit time " + (T0 + 3_601_000) + " ms; committed: GTID "
                        + UUID + ":2, " + (T0 + 1000) + " ms)");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void withoutGtidsTheBeginsBinlogPositionOrdersTransactionsAcrossARotation() throws Exception {
        AssemblerHarness h = debezium();
        h.sendAll(m.mysql(null, "mysql-bin.000009", 400, T0, order(1, "a")),
                m.mysql(null, "mysql-bin.000010", 4, T0 + 1000, order(2, "b")));
        List<LoadRow> emitted = h.takeEmittedWithPositions();
        assertThat(emitted).extracting(LoadRow::getRow).containsExactly(order(1, "a"), order(2, "b"));
        assertThat(emitted.get(1).getCommitPosition()).isEqualTo("{\"kind\":\"binlog\",\"file\":\"mysql-bin.000010\","
                + "\"pos\":4,\"txId\":\"file=mysql-bin.000010,pos=4\",\"commitTimeMs\":" + (T0 + 1000) + "}");

        h.sendAll(m.mysql(null, "mysql-bin.000009", 400, T0, order(1, "a")),
                m.mysql(null, "mysql-bin.000010", 4, T0 + 1000, order(2, "b")),
                m.mysql(null, "mysql-bin.000010", 900, T0 + 2000, order(3, "c")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(3, "c"));
    }

    @Test
    void maxwellWithPositionDropsItsResendsAndNamesTheServer() throws Exception {
        AssemblerHarness h = maxwell();
        h.sendAll(m.maxwell(10, "master.000001", 1000, null, 1L, 1_767_225_600, order(1, "a"), order(2, "b")),
                m.maxwell(11, "master.000001", 2000, null, 1L, 1_767_225_601, order(3, "c")));
        List<LoadRow> emitted = h.takeEmittedWithPositions();
        assertThat(emitted).extracting(LoadRow::getRow).containsExactly(order(1, "a"), order(2, "b"), order(3, "c"));
        assertThat(emitted.get(2).getCommitSource()).isEqualTo("maxwell:1");
        assertThat(emitted.get(2).getCommitPosition()).isEqualTo("{\"kind\":\"binlog\",\"file\":\"master.000001\","
                + "\"pos\":2000,\"txId\":\"11\",\"commitTimeMs\":1767225601000}");

        // Maxwell restarts from its stored position before xid 10: whole transactions again
        h.sendAll(m.maxwell(10, "master.000001", 1000, null, 1L, 1_767_225_600, order(1, "a"), order(2, "b")),
                m.maxwell(11, "master.000001", 2000, null, 1L, 1_767_225_601, order(3, "c")),
                m.maxwell(12, "master.000001", 3000, null, 1L, 1_767_225_602, order(4, "d")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(4, "d"));
        assertThat(((CommittedSourcePositionsAccess) () -> assembler).resent()).isEqualTo(2);
    }

    @Test
    void maxwellCutOffByARestartLoadsTheTransactionWholeWhenSentAgain() throws Exception {
        AssemblerHarness h = maxwell();
        h.sendAll(m.maxwell(10, "master.000001", 1000, null, null, 1_767_225_600, order(1, "a")));
        List<SourceEvent> cut = m.maxwell(11, "master.000001", 2300, null, null, 1_767_225_601, order(2, "b"),
                order(3, "c"), order(4, "d"));
        h.sendAll(cut.subList(0, 2)); // two rows out before the crash, no commit row
        h.takeEmitted();

        // Maxwell's stored position was before xid 10 (its ack lagged): 10 whole again, then 11 whole
        h.sendAll(m.maxwell(10, "master.000001", 1000, null, null, 1_767_225_600, order(1, "a")),
                m.maxwell(11, "master.000001", 2300, null, null, 1_767_225_601, order(2, "b"), order(3, "c"),
                        order(4, "d")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(2, "b"), order(3, "c"), order(4, "d"));
    }

    @Test
    void maxwellSendingTheOpenTransactionAgainFromItsFirstRowDiscardsThePartialCopy() throws Exception {
        AssemblerHarness h = maxwell();
        List<SourceEvent> t = m.maxwell(11, "master.000001", 2300, null, null, 1_767_225_601, order(2, "b"),
                order(3, "c"), order(4, "d"));
        h.sendAll(t.subList(0, 2));

        h.sendAll(m.maxwell(11, "master.000001", 2300, null, null, 1_767_225_601, order(2, "b"), order(3, "c"),
                order(4, "d")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(2, "b"), order(3, "c"), order(4, "d"));
    }

    @Test
    void maxwellCutOffAndNeverSentAgainStops() throws Exception {
        AssemblerHarness h = maxwell();
        h.sendAll(m.maxwell(10, "master.000001", 1000, null, null, 1_767_225_600, order(1, "a")));
        h.sendAll(m.maxwell(11, "master.000001", 2300, null, null, 1_767_225_601, order(2, "b"), order(3, "c"))
                .subList(0, 1));
        h.takeEmitted();

        assertThatThrownBy(() -> h.sendAll(m.maxwell(12, "master.000001", 3000, null, null, 1_767_225_602,
                order(5, "e"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("transaction '11' (started at topic 'cdc.all' partition 0 offset 1) was cut off "
                        + "and never sent again, but transaction xid 12");
    }

    @Test
    void maxwellWithGtidDecidesByTheGtidSet() throws Exception {
        AssemblerHarness h = maxwell();
        h.sendAll(m.maxwell(10, null, 0, UUID + ":7", null, 1_767_225_600, order(1, "a")));
        assertThat(h.takeEmittedWithPositions()).singleElement()
                .satisfies(r -> assertThat(r.getCommitSource()).isEqualTo("maxwell"));

        h.sendAll(m.maxwell(10, null, 0, UUID + ":7", null, 1_767_225_600, order(1, "a")),
                m.maxwell(11, null, 0, UUID + ":8", null, 1_767_225_601, order(2, "b")));

        assertThat(h.takeEmittedRowTexts()).containsExactly(order(2, "b"));
    }

    @Test
    void maxwellRowsThatLoseTheCommittedPositionsKindStop() throws Exception {
        AssemblerHarness h = maxwell();
        h.sendAll(m.maxwell(10, "master.000001", 1000, null, null, 1_767_225_600, order(1, "a")));
        h.takeEmitted();

        // output_binlog_position turned off, output_gtid_position on
        assertThatThrownBy(() -> h.sendAll(m.maxwell(11, null, 0, UUID + ":8", null, 1_767_225_601, order(2, "b"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageEndingWith("of maxwell on source partition 0: the committed position is a binlog position "
                        + "(binlog master.000001:1000 (transaction 10)) but this transaction's events carry none");
    }

    @Test
    void maxwellWithoutPositionOrGtidLoadsAResendAgain() throws Exception {
        AssemblerHarness h = maxwell();
        h.sendAll(m.maxwell(10, null, 0, null, null, 1_767_225_600, order(1, "a")));
        h.sendAll(m.maxwell(10, null, 0, null, null, 1_767_225_600, order(1, "a")));

        // only the Kafka offsets of the progress table guard it: both copies are emitted here
        List<LoadRow> emitted = h.takeEmittedWithPositions();
        assertThat(emitted).extracting(LoadRow::getRow).containsExactly(order(1, "a"), order(1, "a"));
        assertThat(emitted).allSatisfy(r -> assertThat(r.getCommitPosition()).isNull());
    }

    @Test
    void aMaxwellTransactionWithoutPositionAfterPositionedOnesStops() throws Exception {
        AssemblerHarness h = maxwell();
        h.sendAll(m.maxwell(10, "master.000001", 1000, null, null, 1_767_225_600, order(1, "a")));
        h.takeEmitted();

        // output_binlog_position turned off: the re-send could not be told from a new transaction
        assertThatThrownBy(() -> h.sendAll(m.maxwell(11, null, 0, null, null, 1_767_225_601, order(2, "b"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction xid 11 (commit row at topic 'cdc.all' partition 0 offset 1) on source "
                        + "partition 0 carries no commit position of maxwell, whose committed position here is a "
                        + "binlog position (binlog master.000001:1000 (transaction 10)): it cannot be told from a "
                        + "re-send (was the connector's position output turned off?); nothing after it is loaded");
        assertThat(h.takeEmitted()).isEmpty();
    }

    /** Reads the assembler's re-send counter. */
    private interface CommittedSourcePositionsAccess {
        TransactionAssembler assembler();

        default long resent() {
            return assembler().positions().resentCount();
        }
    }
}
