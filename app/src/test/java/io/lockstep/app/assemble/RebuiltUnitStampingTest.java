package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.flink.row.LoadRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A unit released by the cross-topic rebuild (its END or standalone row carries a rebuilt source and position) is
 * stamped with them instead of the event's topic and offset, and its end row carries the covered positions
 * (docs/exactly-once.md#progress-rows-of-the-multi-topic-layout).
 */
class RebuiltUnitStampingTest {
    private static final String REBUILT = "pg.transaction+rebuilt";
    private static final String ORDER = "{\"order_id\":7,\"total\":\"30.00\"}";
    private static final String ITEM = "{\"order_id\":7,\"line_no\":1}";
    private AssemblerHarness harness;

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private static HashMap<String, Long> covered(String key, long position) {
        HashMap<String, Long> covered = new HashMap<>();
        covered.put(key, position);
        return covered;
    }

    private static SourceEvent rebuilt(SourceEvent event, long position, HashMap<String, Long> covered) {
        event.setRebuiltSource(REBUILT);
        event.setRebuiltPosition(position);
        event.setCoveredPositions(covered);
        return event;
    }

    /** @return "table source@position end? covered" per row */
    private static List<String> stamps(List<LoadRow> rows) {
        return rows.stream().map(r -> r.getTable() + " " + r.getSource() + "@" + r.getSourcePosition()
                + (r.isTransactionEnd() ? " end" : "")
                + (r.getCoveredPositions() != null ? " " + r.getCoveredPositions() : "")).toList();
    }

    @Test
    void rebuiltTransactionsAndStandaloneRowsCarryTheRebuiltPositionAndTheEndTheCoveredPositions() throws Exception {
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL), AssemblerOptions.defaults()));
        DebeziumMessages p0 = new DebeziumMessages(0);

        harness.send(p0.begin("t1"), p0.insert("orders", ORDER, "t1"), p0.insert("order_items", ITEM, "t1"),
                rebuilt(p0.end("t1", 2, Map.of("shop.orders", 1L, "shop.order_items", 1L)), 4,
                        covered("pg.public.orders/0", 17)),
                rebuilt(p0.snapshot("orders", ORDER), 5, covered("pg.public.orders/1", 3)),
                p0.begin("t2"), p0.insert("orders", ORDER, "t2"),
                rebuilt(p0.end("t2", 1, Map.of("shop.orders", 1L)), 6, null));

        assertThat(stamps(harness.takeEmittedWithPositions())).containsExactly(
                "orders " + REBUILT + "@4", "order_items " + REBUILT + "@4 end {pg.public.orders/0=17}",
                "orders " + REBUILT + "@5 end {pg.public.orders/1=3}",
                "orders " + REBUILT + "@6 end");
    }

    /** A rebuilt unit without rows still brings its covered positions to the sink, in one end-only row. */
    @Test
    void aRebuiltUnitWithoutRowsEmitsOneEndOnlyRowWithItsCoveredPositions() throws Exception {
        // shop.orders is not mapped: its rows are skipped (--unknown-table skip)
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(
                TableRouter.parse("other.t=dw.t", null, UnknownTableMode.SKIP), AssemblerOptions.defaults()));
        DebeziumMessages p0 = new DebeziumMessages(0);
        harness.send(p0.begin("t1"), rebuilt(p0.end("t1", 0, Map.of()), 8, covered("pg.transaction/0", 2)),
                rebuilt(p0.snapshot("orders", ORDER), 9, covered("pg.public.orders/0", 30)),
                p0.begin("t2"), p0.insert("orders", ORDER, "t2"),
                rebuilt(p0.end("t2", 1, Map.of("shop.orders", 1L)), 10, covered("pg.public.orders/0", 31)));

        List<LoadRow> rows = harness.takeEmittedWithPositions();
        assertThat(stamps(rows)).containsExactly("null " + REBUILT + "@8 end {pg.transaction/0=2}",
                "null " + REBUILT + "@9 end {pg.public.orders/0=30}",
                "null " + REBUILT + "@10 end {pg.public.orders/0=31}");
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.getRow()).isNull();
            assertThat(row.getDatabase()).isNull();
            assertThat(row.getSourcePartition()).isZero();
        });

        // without covered positions an empty unit emits nothing, as before
        harness.send(p0.begin("t3"), rebuilt(p0.end("t3", 0, Map.of()), 11, null));
        assertThat(harness.takeEmittedWithPositions()).isEmpty();
    }

    /**
     * A part emitted at a bound carries its table topic's offset, not a rebuilt position: a rebuilt transaction
     * emitted in parts stops the job in one line (the CLI refuses --on-bound emit with --transaction-topic first).
     */
    @Test
    void aRebuiltTransactionEmittedInPartsAtABoundStopsTheJobInOneLine() throws Exception {
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL),
                AssemblerOptions.defaults().withMaxRows(1).withBoundMode(BoundMode.EMIT)));
        DebeziumMessages p0 = new DebeziumMessages(0);
        harness.send(p0.begin("t1"), p0.insert("orders", ORDER, "t1"), p0.insert("order_items", ITEM, "t1"));
        assertThatThrownBy(() -> harness.send(rebuilt(p0.end("t1", 2,
                Map.of("shop.orders", 1L, "shop.order_items", 1L)), 4, covered("pg.public.orders/0", 17))))
                .hasMessageContaining("transaction 't1'").hasMessageContaining("--on-bound emit")
                .hasMessageContaining("use --on-bound fail").hasMessageNotContaining("\n");
    }
}
