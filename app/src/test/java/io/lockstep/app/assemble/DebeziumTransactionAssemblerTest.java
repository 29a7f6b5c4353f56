package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.AssemblerHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.app.testing.Samples;
import io.lockstep.flink.row.LoadRow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DebeziumTransactionAssemblerTest {

    private static final String ORDER_7 = "{\"order_id\":7,\"customer_id\":42,\"total\":\"30.00\"}";
    private static final String ITEM_7_1 = "{\"order_id\":7,\"line_no\":1,\"amount\":\"10.00\"}";
    private static final String ITEM_7_2 = "{\"order_id\":7,\"line_no\":2,\"amount\":\"20.00\"}";

    private final DebeziumMessages p0 = new DebeziumMessages(0);
    private final DebeziumMessages p1 = new DebeziumMessages(1);
    private AssemblerHarness harness;

    private AssemblerHarness start(AssemblerOptions options) throws Exception {
        return start(TableRouter.parse(null, "dw", UnknownTableMode.FAIL), options);
    }

    private AssemblerHarness start(TableRouter router, AssemblerOptions options) throws Exception {
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(router, options));
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private static Map<String, Long> counts(Object... tableAndCount) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < tableAndCount.length; i += 2) {
            counts.put((String) tableAndCount[i], ((Number) tableAndCount[i + 1]).longValue());
        }
        return counts;
    }

    @Test
    void transactionAcrossTwoTablesIsEmittedAtEndWithTheEndFlagOnItsLastRow() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"),
                p0.insert("order_items", ITEM_7_2, "tx-1"));
        assertThat(h.takeEmitted()).isEmpty();
        assertThat(h.keyedStateEntries()).isEqualTo(2);

        h.send(p0.end("tx-1", 3, counts("shop.orders", 1, "shop.order_items", 2)));
        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, false),
                row("dw", "order_items", ITEM_7_1, 0, false),
                row("dw", "order_items", ITEM_7_2, 0, true));
        assertThat(h.keyedStateEntries()).isZero();
        assertThat(h.processingTimeTimers()).isZero();
    }

    @Test
    void deletesCarryTheOpFlag() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(p0.begin("tx-2"), p0.delete("order_items", ITEM_7_2, "tx-2"), p0.insert("orders", ORDER_7, "tx-2"),
                p0.end("tx-2", 2, counts("shop.order_items", 1, "shop.orders", 1)));

        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "order_items", "{\"order_id\":7,\"line_no\":2,\"amount\":\"20.00\",\"__op\":1}", 0, false),
                row("dw", "orders", ORDER_7, 0, true));
    }

    @Test
    void keyChangingUpdateDeletesTheOldKeyThenUpsertsTheNewOneInBothForms() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        String old = "{\"order_id\":6,\"total\":\"5.00\"}";
        String moved = "{\"order_id\":8,\"total\":\"5.00\"}";

        // one 'u' event whose key changed: counted once, two sink rows
        h.send(p0.begin("tx-3"), p0.update("{\"order_id\":8}", "orders", old, moved, "tx-3"),
                p0.end("tx-3", 1, counts("shop.orders", 1)));
        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", "{\"order_id\":6,\"total\":\"5.00\",\"__op\":1}", 0, false),
                row("dw", "orders", moved, 0, true));

        // Debezium's default form: a delete and a create, counted as two events
        h.send(p0.begin("tx-4"), p0.delete("orders", moved, "tx-4"), p0.insert("orders", old, "tx-4"),
                p0.end("tx-4", 2, counts("shop.orders", 2)));
        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", "{\"order_id\":8,\"total\":\"5.00\",\"__op\":1}", 0, false),
                row("dw", "orders", old, 0, true));
    }

    @Test
    void postgresIdsWithVaryingLsnBelongToOneTransaction() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(p0.begin("571:53195829"), p0.insert("orders", ORDER_7, "571:53195830"),
                p0.insert("order_items", ITEM_7_1, "571:53195831"),
                p0.end("571:53195832", 2, counts("shop.orders", 1, "shop.order_items", 1)));

        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, false),
                row("dw", "order_items", ITEM_7_1, 0, true));
    }

    @Test
    void countMismatchFailsNamingTheTransactionAndBothCountsPerTable() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        h.send(p0.begin("tx-5"), p0.insert("orders", ORDER_7, "tx-5"), p0.insert("order_items", ITEM_7_1, "tx-5"));

        assertThatThrownBy(() -> h.send(p0.end("tx-5", 3, counts("shop.orders", 1, "shop.order_items", 2))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction 'tx-5' on source partition 0 (started at topic 'oltp.all' partition 0 "
                        + "offset 0): END at topic 'oltp.all' partition 0 offset 3 counts 3 events "
                        + "{shop.order_items=2, shop.orders=1} but 2 were received {shop.order_items=1, shop.orders=1}; "
                        + "events are missing or duplicated, or the source topology splits transactions");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void perTableMismatchWithTheRightTotalAlsoFails() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        h.send(p0.begin("tx-6"), p0.insert("orders", ORDER_7, "tx-6"), p0.insert("orders", ORDER_7, "tx-6"));

        assertThatThrownBy(() -> h.send(p0.end("tx-6", 2, counts("shop.orders", 1, "shop.order_items", 1))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("counts 2 events {shop.order_items=1, shop.orders=1} but 2 were received "
                        + "{shop.orders=2}");
    }

    @Test
    void snapshotRowsAreEmittedAsTheirOwnTransactions() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(p0.snapshot("orders", ORDER_7), p0.snapshot("order_items", ITEM_7_1));

        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, true),
                row("dw", "order_items", ITEM_7_1, 0, true));
        assertThat(h.keyedStateEntries()).isZero();
    }

    @Test
    void emptyTransactionEmitsNothingAndLeavesNoState() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(p0.begin("tx-7"), p0.end("tx-7", 0, counts()));

        assertThat(h.takeEmitted()).isEmpty();
        assertThat(h.keyedStateEntries()).isZero();
        assertThat(h.processingTimeTimers()).isZero();
    }

    @Test
    void framingErrorsNameThePosition() throws Exception {
        // each error stops its assembler (the job then fails): every case gets a fresh one
        assertThatThrownBy(() -> start(AssemblerOptions.defaults()).send(p0.end("tx-8", 0, counts())))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 'oltp.all' partition 0 offset 0: END of transaction 'tx-8' without BEGIN");
        assertThatThrownBy(() -> start(AssemblerOptions.defaults()).send(p0.insert("orders", ORDER_7, "tx-8")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 'oltp.all' partition 0 offset 1: data event of transaction 'tx-8' outside any "
                        + "transaction (no BEGIN before it; BEGIN and END come from Debezium's transaction topic, "
                        + "which must be routed into this topic: docs/sources.md)");
        AssemblerHarness inside = start(AssemblerOptions.defaults());
        inside.send(p0.begin("tx-9"));
        assertThatThrownBy(() -> inside.send(p0.insert("orders", ORDER_7, "tx-10")))
                .hasMessage("topic 'oltp.all' partition 0 offset 3: data event of transaction 'tx-10' inside "
                        + "transaction 'tx-9' (started at topic 'oltp.all' partition 0 offset 2)");
        AssemblerHarness endInside = start(AssemblerOptions.defaults());
        endInside.send(p0.begin("tx-9"));
        assertThatThrownBy(() -> endInside.send(p0.end("tx-10", 0, counts())))
                .hasMessage("topic 'oltp.all' partition 0 offset 5: END of transaction 'tx-10' while transaction "
                        + "'tx-9' (started at topic 'oltp.all' partition 0 offset 4) is open");
        AssemblerHarness noEnd = start(AssemblerOptions.defaults());
        noEnd.send(p0.begin("tx-9"));
        assertThatThrownBy(() -> noEnd.send(p0.begin("tx-11")))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction 'tx-9' on source partition 0 (started at topic 'oltp.all' partition 0 "
                        + "offset 6) has no END: BEGIN of transaction 'tx-11' arrived at topic 'oltp.all' partition 0 "
                        + "offset 7");

        // a stopped assembler emits nothing more: what follows is read again by the next start
        noEnd.send(p0.insert("orders", ORDER_7, "tx-11"), p0.end("tx-11", 1, counts("shop.orders", 1)));
        assertThat(noEnd.takeEmitted()).isEmpty();
    }

    @Test
    void skippedBadInputLeavesTheOpenTransactionIntact() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withBadInputMode(BadInputMode.SKIP));

        h.send(p0.end("tx-0", 0, counts()), p0.insert("orders", ORDER_7, "tx-0"));
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("orders", ORDER_7, "tx-stray"),
                p0.end("tx-stray", 1, counts("shop.orders", 1)));
        assertThat(h.takeEmitted()).isEmpty();

        h.send(p0.end("tx-1", 1, counts("shop.orders", 1)));
        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", ORDER_7, 0, true));
    }

    @Test
    void replayedBeginDiscardsThePartialCopy() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"),
                p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"),
                p0.end("tx-1", 2, counts("shop.orders", 1, "shop.order_items", 1)));

        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, false),
                row("dw", "order_items", ITEM_7_1, 0, true));
    }

    @Test
    void partitionsAreAssembledIndependently() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(p0.begin("tx-a"), p1.begin("tx-b"), p0.insert("orders", ORDER_7, "tx-a"),
                p1.insert("order_items", ITEM_7_1, "tx-b"), p1.insert("order_items", ITEM_7_2, "tx-b"));
        h.send(p1.end("tx-b", 2, counts("shop.order_items", 2)));
        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "order_items", ITEM_7_1, 1, false),
                row("dw", "order_items", ITEM_7_2, 1, true));
        assertThat(h.keyedStateEntries()).isEqualTo(2);

        h.send(p0.end("tx-a", 1, counts("shop.orders", 1)));
        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", ORDER_7, 0, true));
        assertThat(h.keyedStateEntries()).isZero();
    }

    @Test
    void rowBoundFailsTheJobNamingTheTransaction() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxRows(2));
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"));

        assertThatThrownBy(() -> h.send(p0.insert("order_items", ITEM_7_2, "tx-1")))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction 'tx-1' on source partition 0 (started at topic 'oltp.all' partition 0 "
                        + "offset 0, 2 rows buffered, 0 emitted earlier) exceeds the size bound (2 rows, 268435456 "
                        + "bytes) with 3 rows, " + (ORDER_7.length() + ITEM_7_1.length() + ITEM_7_2.length())
                        + " bytes at topic 'oltp.all' partition 0 offset 3; raise the bound or allow emitting it in parts");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void sizeBoundInBytesCountsTheRowText() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxSizeBytes(ORDER_7.length() + ITEM_7_1.length()));
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"));

        assertThatThrownBy(() -> h.send(p0.insert("order_items", ITEM_7_2, "tx-1")))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageContaining("exceeds the size bound (1000000 rows, "
                        + (ORDER_7.length() + ITEM_7_1.length()) + " bytes) with 3 rows");
    }

    @Test
    void rowBoundInEmitModeEmitsTheBufferedRowsAsTheirOwnTransaction() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxRows(2).withBoundMode(BoundMode.EMIT));
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"),
                p0.insert("order_items", ITEM_7_2, "tx-1"));

        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, false),
                row("dw", "order_items", ITEM_7_1, 0, true));

        // the counts span both parts
        h.send(p0.end("tx-1", 3, counts("shop.orders", 1, "shop.order_items", 2)));
        assertThat(h.takeEmitted()).containsExactly(row("dw", "order_items", ITEM_7_2, 0, true));
        assertThat(h.keyedStateEntries()).isZero();
    }

    @Test
    void timeBoundFailsTheJobWhenTheTransactionStaysOpen() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxOpenMs(1_000));
        h.advanceTo(500);
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"));
        h.advanceTo(1_499);
        assertThat(h.takeEmitted()).isEmpty();

        assertThatThrownBy(() -> h.advanceTo(1_500))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction 'tx-1' on source partition 0 (started at topic 'oltp.all' partition 0 "
                        + "offset 0, 1 rows buffered, 0 emitted earlier) has been open for 1000 ms, beyond the time "
                        + "bound of 1000 ms; raise the bound or allow emitting it in parts");
    }

    @Test
    void timeBoundInEmitModeEmitsWhatIsBufferedAndRearms() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxOpenMs(1_000).withBoundMode(BoundMode.EMIT));
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"));

        h.advanceTo(1_000);
        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, false),
                row("dw", "order_items", ITEM_7_1, 0, true));
        assertThat(h.processingTimeTimers()).isEqualTo(1);

        h.send(p0.insert("order_items", ITEM_7_2, "tx-1"), p0.end("tx-1", 3, counts("shop.orders", 1,
                "shop.order_items", 2)));
        assertThat(h.takeEmitted()).containsExactly(row("dw", "order_items", ITEM_7_2, 0, true));
        assertThat(h.processingTimeTimers()).isZero();
        assertThat(h.keyedStateEntries()).isZero();

        h.advanceTo(5_000);
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void timerOfACommittedTransactionDoesNotFire() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxOpenMs(1_000));
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.end("tx-1", 1, counts("shop.orders", 1)));
        h.takeEmitted();

        h.advanceTo(10_000);

        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void tableMapRoutesRowsAndSkipsUnknownTablesWhileCountingThem() throws Exception {
        AssemblerHarness h = start(TableRouter.parse("shop.orders=dw.orders_v2", null, UnknownTableMode.SKIP),
                AssemblerOptions.defaults());

        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"),
                p0.end("tx-1", 2, counts("shop.orders", 1, "shop.order_items", 1)));

        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders_v2", ORDER_7, 0, true));
    }

    @Test
    void unknownTableFailsNamingThePosition() throws Exception {
        AssemblerHarness h = start(TableRouter.parse("shop.orders=dw.orders", null, UnknownTableMode.FAIL),
                AssemblerOptions.defaults());
        h.send(p0.begin("tx-1"));

        assertThatThrownBy(() -> h.send(p0.insert("order_items", ITEM_7_1, "tx-1")))
                .isInstanceOf(UnknownTableException.class)
                .hasMessage("topic 'oltp.all' partition 0 offset 1: source table 'shop.order_items' is not in the "
                        + "table map (mapped: shop.orders); map it, or skip unknown tables");
    }

    @Test
    void transactionIntoTwoTargetDatabasesFails() throws Exception {
        AssemblerHarness h = start(TableRouter.parse("shop.orders=dw.orders,shop.order_items=archive.items", null,
                UnknownTableMode.FAIL), AssemblerOptions.defaults());
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"));

        assertThatThrownBy(() -> h.send(p0.insert("order_items", ITEM_7_1, "tx-1")))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction 'tx-1' on source partition 0 (started at topic 'oltp.all' partition 0 offset 0) "
                        + "loads into two target databases, 'dw' and 'archive' (table shop.order_items at topic "
                        + "'oltp.all' partition 0 offset 2); one transaction must load into one database");
    }

    @Test
    void openTransactionAndItsTimerSurviveACheckpointRestore() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxOpenMs(1_000));
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"));
        OperatorSubtaskState checkpoint = h.checkpoint(1);
        h.close();

        harness = new AssemblerHarness(new DebeziumTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL), AssemblerOptions.defaults().withMaxOpenMs(1_000)),
                checkpoint, 100);
        assertThat(harness.keyedStateEntries()).isEqualTo(2);
        assertThat(harness.processingTimeTimers()).isEqualTo(1);
        harness.send(p0.insert("order_items", ITEM_7_1, "tx-1"),
                p0.end("tx-1", 2, counts("shop.orders", 1, "shop.order_items", 1)));

        assertThat(harness.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, false),
                row("dw", "order_items", ITEM_7_1, 0, true));
        assertThat(harness.keyedStateEntries()).isZero();
        assertThat(harness.processingTimeTimers()).isZero();
    }

    @Test
    void eventsRepeatedWithoutANewBeginAreDroppedByTheirTotalOrder() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        // Debezium resumes a transaction after a restart from its stored offset, without a new BEGIN
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.insert("order_items", ITEM_7_1, "tx-1"),
                p0.repeat("order_items", ITEM_7_1, "tx-1", 2), p0.insert("order_items", ITEM_7_2, "tx-1"),
                p0.end("tx-1", 3, counts("shop.orders", 1, "shop.order_items", 2)));

        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", ORDER_7, 0, false),
                row("dw", "order_items", ITEM_7_1, 0, false),
                row("dw", "order_items", ITEM_7_2, 0, true));
    }

    @Test
    void postgresSampleRowsWithoutTransactionsAreEachTheirOwnTransaction() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        List<String> lines = Samples.lines(Samples.DEBEZIUM_POSTGRES);
        for (String line : lines) {
            h.send(p0.decode(null, line));
        }

        List<LoadRow> rows = h.takeEmitted();
        assertThat(rows).hasSize(16).allSatisfy(r -> {
            assertThat(r.isTransactionEnd()).isTrue();
            assertThat(r.getDatabase()).isEqualTo("dw");
            assertThat(r.getTable()).isEqualTo("products");
            assertThat(r.getSourcePartition()).isZero();
        });
        assertThat(rows.get(15).getRow()).isEqualTo(
                "{\"id\":111,\"name\":\"scooter\",\"description\":\"Big 2-wheel scooter \",\"weight\":5.17,\"__op\":1}");
        assertThat(h.keyedStateEntries()).isZero();
    }
}
