package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.AssemblerHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The assembler's schema-change handling against a target table {@code dw.orders (order_id, total)}. */
class SchemaCheckTest {

    private static final ColumnReader ORDERS = (database, table) -> List.of(TargetColumn.named("order_id"),
            TargetColumn.named("total"));
    private static final String ORDER_1 = "{\"order_id\":1,\"total\":\"1.00\"}";
    private static final String ORDER_2_WITH_NOTE = "{\"order_id\":2,\"total\":\"2.00\",\"note\":\"n\"}";

    private final DebeziumMessages p0 = new DebeziumMessages(0);
    private AssemblerHarness harness;

    private AssemblerHarness start(SchemaChangeMode mode) throws Exception {
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL),
                AssemblerOptions.defaults().withSchemaChangeMode(mode)).checkingColumns(ORDERS));
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private void order(AssemblerHarness h, String tx, String row) throws Exception {
        h.send(p0.begin(tx), p0.insert("orders", row, tx), p0.end(tx, 1, Map.of("shop.orders", 1L)));
    }

    @Test
    void withFailATransactionWithAColumnTheTargetLacksStopsBeforeAnyOfItIsEmitted() throws Exception {
        AssemblerHarness h = start(SchemaChangeMode.FAIL);
        order(h, "tx-1", ORDER_1);

        assertThatThrownBy(() -> order(h, "tx-2", ORDER_2_WITH_NOTE)).isInstanceOf(SchemaChangeException.class)
                .hasMessageContaining("a row of source table shop.orders has column 'note' that target table "
                        + "dw.orders lacks");
        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", ORDER_1, 0, true));
    }

    @Test
    void withIgnoreTheColumnIsLeftOut() throws Exception {
        AssemblerHarness h = start(SchemaChangeMode.IGNORE);
        order(h, "tx-2", ORDER_2_WITH_NOTE);

        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", "{\"order_id\":2,\"total\":\"2.00\"}", 0,
                true));
    }

    @Test
    void withApplyABarrierAddingTheColumnGoesAheadOfTheTransactionOnce() throws Exception {
        AssemblerHarness h = start(SchemaChangeMode.APPLY);
        order(h, "tx-2", ORDER_2_WITH_NOTE);
        order(h, "tx-3", "{\"order_id\":3,\"total\":\"3.00\",\"note\":\"m\"}");

        List<SinkInput> emitted = h.takeEmittedInputs();
        assertThat(emitted).hasSize(3);
        assertThat(emitted.get(0)).isInstanceOf(SchemaChangeBarrier.class);
        SchemaChangeBarrier barrier = (SchemaChangeBarrier) emitted.get(0);
        assertThat(barrier.target().table()).isEqualTo("orders");
        assertThat(barrier.columnsToAdd()).containsExactly("note STRING");
        assertThat(((LoadRow) emitted.get(1)).getRow()).isEqualTo(ORDER_2_WITH_NOTE);
        assertThat(((LoadRow) emitted.get(2)).getRow()).contains("\"note\":\"m\"");
    }

    @Test
    void withFailADdlEventPassesWhenTheTargetAlreadyHasItsColumnsAndStopsOtherwise() throws Exception {
        AssemblerHarness h = start(SchemaChangeMode.FAIL);
        h.send(ddl(10, "order_id\tbigint\ntotal\tdecimal(12,2)"));

        assertThatThrownBy(() -> h.send(ddl(11, "order_id\tbigint\ntotal\tdecimal(12,2)\nnote\tvarchar(64)")))
                .isInstanceOf(SchemaChangeException.class)
                .hasMessageContaining("offset 11: schema change of table 'shop.orders'");
    }

    @Test
    void withApplyADdlEventBecomesABarrierWithTheMappedTypesAndTheDroppedColumns() throws Exception {
        AssemblerHarness h = start(SchemaChangeMode.APPLY);
        SourceEvent ddl = ddl(12, "order_id\tbigint\nnote\tvarchar(64)");
        ddl.setDroppedColumns("total");
        h.send(ddl);

        List<SinkInput> emitted = h.takeEmittedInputs();
        assertThat(emitted).hasSize(1);
        SchemaChangeBarrier barrier = (SchemaChangeBarrier) emitted.get(0);
        assertThat(barrier.columnsToAdd()).containsExactly("note VARCHAR(256)");
        assertThat(barrier.columnsToDrop()).containsExactly("total");
        assertThat(Set.of(barrier.getCause())).allMatch(cause -> cause.contains("offset 12"));
    }

    private static SourceEvent ddl(long offset, String columns) {
        SourceEvent event = new SourceEvent();
        event.setKind(SourceEventKind.SCHEMA_CHANGE);
        event.setTopic("cdc");
        event.setPartition(0);
        event.setOffset(offset);
        event.setSourceDatabase("shop");
        event.setSourceTable("orders");
        event.setRow("ALTER TABLE orders ...");
        event.setSchemaColumns(columns);
        return event;
    }
}
