package io.lockstep.app.rebuild;

import static io.lockstep.app.rebuild.RebuildEvents.begin;
import static io.lockstep.app.rebuild.RebuildEvents.end;
import static io.lockstep.app.rebuild.RebuildEvents.row;
import static io.lockstep.app.rebuild.RebuildEvents.snapshotRow;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.route.UnknownTableMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.Test;

/** Rules 1-5, 7 and 10 of the cross-topic rebuild, in an operator harness. */
class CrossTopicRebuildTest {

    /** T701 (orders/0@0 #1, items/0@0 #2, orders/1@0 #3) and T702 (orders/1@1 #1, items/0@1 #2), interleaved. */
    private static void sendInterleaved(RebuildHarness h) throws Exception {
        h.send(row("items", 0, 0, "701:990", 2, "{\"item\":1}"),
                begin(0, "701:980"), end(1, "701:1000", "orders", 2L, "items", 1L),
                row("orders", 1, 0, "701:995", 3, "{\"order\":3}"),
                begin(2, "702:1980"), row("orders", 1, 1, "702:1990", 1, "{\"order\":4}"),
                end(3, "702:2000", "orders", 1L, "items", 1L),
                row("items", 0, 1, "702:1995", 2, "{\"item\":2}"));
    }

    @Test
    void interleavedTopicsAreReleasedWholeInEndOrder() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            sendInterleaved(h);
            assertThat(h.takeBrief()).as("T701 lacks orders #1; T702 is complete but waits behind it").isEmpty();

            h.send(row("orders", 0, 0, "701:985", 1, "{\"order\":1}"));

            List<SourceEvent> out = h.take();
            assertThat(out.stream().map(RebuildEvents::brief).toList()).containsExactly(
                    "BEGIN 701", "ROW pg.public.orders/0@0", "ROW pg.public.items/0@0", "ROW pg.public.orders/1@0",
                    "END 701 #0",
                    "BEGIN 702", "ROW pg.public.orders/1@1", "ROW pg.public.items/0@1", "END 702 #1");
            assertThat(out.get(4).getRebuiltSource()).isEqualTo("pg.transaction+rebuilt");
            assertThat(out.get(4).getTopic()).as("events keep their own topic and offset").isEqualTo("pg.transaction");
            assertThat(out.get(4).getOffset()).isEqualTo(1);
            assertThat(out.get(0).getOffset()).as("the real BEGIN").isEqualTo(0);
        }
    }

    @Test
    void aCompleteLaterTransactionWaitsForAnIncompleteEarlierOne() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(begin(0, "701:980"), end(1, "701:1000", "orders", 1L),
                    begin(2, "702:1980"), row("items", 0, 0, "702:1990", 1, "{\"item\":1}"),
                    end(3, "702:2000", "items", 1L));
            assertThat(h.takeBrief()).isEmpty();

            h.send(row("orders", 0, 0, "701:990", 1, "{\"order\":1}"));

            assertThat(h.takeBrief()).containsExactly("BEGIN 701", "ROW pg.public.orders/0@0", "END 701 #0",
                    "BEGIN 702", "ROW pg.public.items/0@0", "END 702 #1");
        }
    }

    @Test
    void aSecondCopyOfASlotIsDropped() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(begin(0, "701:980"), row("orders", 0, 0, "701:990", 1, "{\"order\":1}"),
                    row("orders", 0, 1, "701:990", 1, "{\"order\":1}"), // the connector sent #1 again
                    row("orders", 0, 2, "701:992", 2, "{\"order\":2}"),
                    end(1, "701:1000", "orders", 2L));

            assertThat(h.takeBrief()).containsExactly("BEGIN 701", "ROW pg.public.orders/0@0",
                    "ROW pg.public.orders/0@2", "END 701 #0");
        }
    }

    @Test
    void aTransactionSentAgainAfterItsReleaseIsForwardedAsItsEndAlone() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(begin(0, "701:980"), row("orders", 0, 0, "701:990", 1, "{\"order\":1}"),
                    end(1, "701:1000", "orders", 1L));
            assertThat(h.takeBrief()).containsExactly("BEGIN 701", "ROW pg.public.orders/0@0", "END 701 #0");

            h.send(begin(2, "701:980"), row("orders", 0, 1, "701:990", 1, "{\"order\":1}"),
                    end(3, "701:1000", "orders", 1L));

            List<SourceEvent> out = h.take();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).getKind()).isEqualTo(SourceEventKind.END);
            assertThat(out.get(0).getOffset()).isEqualTo(3);
            assertThat(out.get(0).getRebuiltSource()).as("not a released unit: the assembler decides").isNull();
        }
    }

    @Test
    void eventsAtOrBelowTheCommittedLsnAreDroppedAndTheirEndForwardedAlone() throws Exception {
        Map<String, String> committed = Map.of(RebuildEvents.SOURCE,
                "{\"kind\":\"postgres-lsn\",\"lsn\":5000,\"txId\":\"650\",\"commitTimeMs\":-1}");
        try (RebuildHarness h = new RebuildHarness(RebuildHarness.layout(Long.MAX_VALUE), UnknownTableMode.FAIL,
                committed, null)) {
            SourceEvent old = row("orders", 0, 0, "649:4400", 1, "{\"order\":1}");
            old.setPreviousCommitLsn(4000); // 649 committed after 4000: at or below 5000
            SourceEvent next = row("orders", 0, 1, "651:5500", 1, "{\"order\":2}");
            next.setPreviousCommitLsn(5000); // committed just after the committed transaction
            h.send(old, begin(0, "649:4300"), end(1, "649:4500", "orders", 1L));
            assertThat(h.takeBrief()).containsExactly("END 649 alone");
            // a data event after its END, without a previous commit LSN (the first after a connector start):
            // dropped by its key, not held for ever
            h.send(row("orders", 1, 0, "649:4410", 2, "{\"order\":0}"));

            h.send(next, begin(2, "651:5400"), end(3, "651:6000", "orders", 1L));
            List<SourceEvent> out = h.take();
            assertThat(out.stream().map(RebuildEvents::brief).toList()).containsExactly("BEGIN 651",
                    "ROW pg.public.orders/0@1", "END 651 #0");
            assertThat(out.get(2).getCoveredPositions()).as("nothing of 649 is held")
                    .containsEntry("pg.public.orders/1", 0L);
        }
    }

    @Test
    void mysqlEventsWhoseGtidIsInTheCommittedSetAreDroppedAndTheirEndForwardedAlone() throws Exception {
        String uuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        Map<String, String> committed = Map.of("mysql:oltp", "{\"kind\":\"gtid\",\"gtid\":\"" + uuid
                + ":23\",\"commitTimeMs\":-1,\"gtidSet\":{\"" + uuid + "\":[[1,23]]}}");
        try (RebuildHarness h = new RebuildHarness(RebuildHarness.layout(Long.MAX_VALUE), UnknownTableMode.FAIL,
                committed, null)) {
            h.send(mysql(row("orders", 0, 0, uuid + ":20", 1, "{\"order\":1}"), uuid + ":20"),
                    mysql(begin(0, uuid + ":20"), uuid + ":20"),
                    mysql(end(1, uuid + ":20", "orders", 1L), uuid + ":20"));
            assertThat(h.takeBrief()).containsExactly("END " + uuid + ":20 alone");

            h.send(mysql(row("orders", 0, 1, uuid + ":24", 1, "{\"order\":2}"), uuid + ":24"),
                    mysql(end(2, uuid + ":24", "orders", 1L), uuid + ":24"));
            assertThat(h.takeBrief()).containsExactly("BEGIN " + uuid + ":24", "ROW pg.public.orders/0@1",
                    "END " + uuid + ":24 #0");
        }
    }

    /** The event as Debezium MySQL with GTIDs makes it: the GTID is the transaction id and key. */
    private static SourceEvent mysql(SourceEvent e, String gtid) {
        e.setTransactionId(gtid);
        e.setTransactionKey(gtid);
        e.setGtid(gtid);
        e.setCommitLsn(-1);
        if (e.getKind() == SourceEventKind.ROW) {
            e.setCommitSource("mysql:oltp");
        }
        return e;
    }

    @Test
    void standaloneRowsGoAtOnceOrRightAfterTheEarlierEventsOfTheirPartition() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(snapshotRow("orders", 0, 0, "{\"order\":1}"));
            assertThat(h.takeBrief()).containsExactly("ROW pg.public.orders/0@0 #0");

            h.send(row("orders", 1, 0, "701:990", 1, "{\"order\":2}"),
                    snapshotRow("orders", 1, 1, "{\"order\":3}"), // behind a held event of partition 1
                    snapshotRow("orders", 0, 1, "{\"order\":4}")); // partition 0 holds nothing
            assertThat(h.takeBrief()).containsExactly("ROW pg.public.orders/0@1 #1");

            h.send(begin(0, "701:980"), end(1, "701:1000", "orders", 1L));
            assertThat(h.takeBrief()).containsExactly("BEGIN 701", "ROW pg.public.orders/1@0", "END 701 #2",
                    "ROW pg.public.orders/1@1 #3");
        }
    }

    @Test
    void coveredOffsetsNameTheLowestHeldEventMinusOneAndNeverDecrease() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            sendInterleaved(h);
            h.send(row("orders", 0, 0, "701:985", 1, "{\"order\":1}"));
            List<SourceEvent> ends = h.take().stream().filter(e -> e.getKind() == SourceEventKind.END).toList();

            // at T701's release T702 still holds BEGIN/END (tx 2, 3), items/0@1 and orders/1@1
            assertThat(ends.get(0).getCoveredPositions()).isEqualTo(Map.of("pg.transaction/0", 1L,
                    "pg.public.items/0", 0L, "pg.public.orders/1", 0L, "pg.public.orders/0", 0L));
            // only what moved since: orders/0 stays at 0
            assertThat(ends.get(1).getCoveredPositions()).isEqualTo(Map.of("pg.transaction/0", 3L,
                    "pg.public.items/0", 1L, "pg.public.orders/1", 1L));

            // a held event of a later transaction keeps orders/0 where it is; a standalone row after it moves nothing
            h.send(row("orders", 0, 1, "703:2990", 1, "{\"order\":5}"), snapshotRow("items", 0, 2, "{\"item\":3}"));
            List<SourceEvent> out = h.take();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).getCoveredPositions()).isEqualTo(Map.of("pg.public.items/0", 2L));

            h.send(begin(4, "703:2980"), end(5, "703:3000", "orders", 1L));
            SourceEvent last = h.take().get(2);
            assertThat(last.getCoveredPositions()).isEqualTo(Map.of("pg.transaction/0", 5L, "pg.public.orders/0", 1L));

            Map<String, Long> highest = new HashMap<>();
            for (SourceEvent e : List.of(ends.get(0), ends.get(1), out.get(0), last)) {
                e.getCoveredPositions().forEach((p, v) -> {
                    assertThat(v).as("covered %s never decreases", p).isGreaterThanOrEqualTo(highest.getOrDefault(p,
                            -1L));
                    highest.put(p, v);
                });
            }
        }
    }

    @Test
    void aBeginCutOffByAConnectorRestartNoLongerHoldsTheTransactionTopicOnceALaterEndLeaves() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(begin(0, "700:900"), // cut off: its END never comes
                    begin(1, "701:980"), row("orders", 0, 0, "701:990", 1, "{\"order\":1}"),
                    end(2, "701:1000", "orders", 1L));

            List<SourceEvent> out = h.take();
            assertThat(out.stream().map(RebuildEvents::brief).toList()).containsExactly("BEGIN 701",
                    "ROW pg.public.orders/0@0", "END 701 #0");
            assertThat(out.get(2).getCoveredPositions()).isEqualTo(Map.of("pg.transaction/0", 2L,
                    "pg.public.orders/0", 0L));
        }
    }

    @Test
    void rebuiltPositionsContinueAfterTheCommittedOne() throws Exception {
        try (RebuildHarness h = new RebuildHarness(RebuildHarness.layout(Long.MAX_VALUE)
                .withCommittedRebuiltPosition(41), UnknownTableMode.FAIL, null, null)) {
            h.send(snapshotRow("orders", 0, 7, "{\"order\":1}"), begin(0, "701:980"),
                    row("orders", 0, 8, "701:990", 1, "{\"order\":2}"), end(1, "701:1000", "orders", 1L));

            assertThat(h.takeBrief()).containsExactly("ROW pg.public.orders/0@7 #42", "BEGIN 701",
                    "ROW pg.public.orders/0@8", "END 701 #43");
        }
    }

    @Test
    void aRestoredRebuildKeepsItsHeldTransactionsAndNumbering() throws Exception {
        OperatorSubtaskState state;
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(begin(0, "701:980"), row("orders", 0, 0, "701:990", 1, "{\"order\":1}"),
                    end(1, "701:1000", "orders", 1L));
            h.send(row("orders", 0, 1, "702:1990", 1, "{\"order\":2}"), end(2, "702:2000", "orders", 1L,
                    "items", 1L));
            assertThat(h.takeBrief()).containsExactly("BEGIN 701", "ROW pg.public.orders/0@0", "END 701 #0");
            state = h.checkpoint(1);
        }
        try (RebuildHarness h = new RebuildHarness(RebuildHarness.layout(Long.MAX_VALUE), UnknownTableMode.FAIL,
                null, state)) {
            h.send(row("orders", 0, 0, "701:990", 1, "{\"order\":1}"), // released before: dropped
                    row("items", 0, 0, "702:1995", 2, "{\"item\":1}"));

            List<SourceEvent> out = h.take();
            assertThat(out.stream().map(RebuildEvents::brief).toList()).containsExactly("BEGIN 702",
                    "ROW pg.public.orders/0@1", "ROW pg.public.items/0@0", "END 702 #1");
            assertThat(out.get(0).getOffset()).as("made from the END: its BEGIN was never read").isEqualTo(2);
            assertThat(out.get(3).getCoveredPositions()).containsEntry("pg.transaction/0", 2L)
                    .containsEntry("pg.public.orders/0", 1L);
        }
    }
}
