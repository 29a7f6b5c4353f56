package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.event.MaxwellDecoder;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.flink.row.LoadRow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every emitted row carries its topic as {@code source} and, as {@code sourcePosition}, the offset of the last
 * event of its source transaction (or of the emitted part): what the exactly-once multi-table sink commits and
 * where a restarted {@code lockstep run} resumes.
 */
class SourcePositionStampingTest {
    private static final String ORDER = "{\"order_id\":7,\"total\":\"30.00\"}";
    private static final String ITEM_1 = "{\"order_id\":7,\"line_no\":1}";
    private static final String ITEM_2 = "{\"order_id\":7,\"line_no\":2}";
    private final TableRouter router = TableRouter.parse(null, "dw", UnknownTableMode.FAIL);
    private AssemblerHarness harness;

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    /** @return "table source@position end?" per row */
    private static List<String> positions(List<LoadRow> rows) {
        return rows.stream().map(r -> r.getTable() + " " + r.getSource() + "@" + r.getSourcePosition()
                + (r.isTransactionEnd() ? " end" : "")).toList();
    }

    @Test
    void debeziumRowsCarryTheOffsetOfTheirTransactionsEnd() throws Exception {
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(router, AssemblerOptions.defaults()));
        DebeziumMessages p0 = new DebeziumMessages(0);

        // offsets: BEGIN 0, rows 1-2, END 3; snapshot row 4; BEGIN 5, row 6, END 7
        harness.send(p0.begin("t1"), p0.insert("orders", ORDER, "t1"), p0.insert("order_items", ITEM_1, "t1"),
                p0.end("t1", 2, Map.of("shop.orders", 1L, "shop.order_items", 1L)), p0.snapshot("orders", ORDER),
                p0.begin("t2"), p0.insert("order_items", ITEM_2, "t2"),
                p0.end("t2", 1, Map.of("shop.order_items", 1L)));

        String topic = DebeziumMessages.TOPIC;
        assertThat(positions(harness.takeEmittedWithPositions())).containsExactly(
                "orders " + topic + "@3", "order_items " + topic + "@3 end",
                "orders " + topic + "@4 end",
                "order_items " + topic + "@7 end");
    }

    @Test
    void partsEmittedAtABoundCarryTheirLastEventsOffsetAndTheRestTheEnd() throws Exception {
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(router,
                AssemblerOptions.defaults().withMaxRows(2).withBoundMode(BoundMode.EMIT)));
        DebeziumMessages p0 = new DebeziumMessages(0);

        // BEGIN 0, rows 1-3 (the third exceeds the bound: rows 1-2 go as a part), END 4
        harness.send(p0.begin("t1"), p0.insert("orders", ORDER, "t1"), p0.insert("order_items", ITEM_1, "t1"),
                p0.insert("order_items", ITEM_2, "t1"),
                p0.end("t1", 3, Map.of("shop.orders", 1L, "shop.order_items", 2L)));

        String topic = DebeziumMessages.TOPIC;
        assertThat(positions(harness.takeEmittedWithPositions())).containsExactly(
                "orders " + topic + "@2", "order_items " + topic + "@2 end",
                "order_items " + topic + "@4 end");
    }

    @Test
    void maxwellRowsCarryTheOffsetOfTheirCommitRow() throws Exception {
        harness = new AssemblerHarness(new MaxwellTransactionAssembler(router, AssemblerOptions.defaults()));
        MaxwellDecoder decoder = new MaxwellDecoder();
        String first = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1,\"xid\":9,"
                + "\"data\":{\"order_id\":1}}";
        String commit = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1,\"xid\":9,"
                + "\"commit\":true,\"data\":{\"order_id\":2}}";

        harness.send(decoder.decode(new SourceRecord("mx", 2, 40, null, first)),
                decoder.decode(new SourceRecord("mx", 2, 41, null, commit)));

        assertThat(positions(harness.takeEmittedWithPositions())).containsExactly("orders mx@41", "orders mx@41 end");
    }
}
