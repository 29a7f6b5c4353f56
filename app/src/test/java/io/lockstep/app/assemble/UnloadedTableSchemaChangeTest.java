package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.AssemblerHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTables;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.testing.DebeziumMessages;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A DDL event of a source table whose rows are never loaded is ignored in every {@code --schema-changes} mode
 * (docs/schema-changes.md), with and without the column check; the table's rows still follow
 * {@code --unknown-table}. A DDL event of a table whose rows would stop the job as unknown (its target table is
 * missing, {@code --unknown-table fail}) stops it with the same advice as its row would.
 */
class UnloadedTableSchemaChangeTest {

    private static final String ORDER = "{\"order_id\":1,\"total\":\"1.00\"}";

    private final DebeziumMessages p0 = new DebeziumMessages(0);
    private AssemblerHarness harness;

    private AssemblerHarness start(TableRouter router, SchemaChangeMode mode, boolean checkingColumns)
            throws Exception {
        TransactionAssembler assembler = new DebeziumTransactionAssembler(router,
                AssemblerOptions.defaults().withSchemaChangeMode(mode));
        if (checkingColumns) {
            assembler.checkingColumns((database, table) -> List.of(TargetColumn.named("order_id"),
                    TargetColumn.named("total")));
        }
        harness = new AssemblerHarness(assembler);
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @ParameterizedTest
    @EnumSource(SchemaChangeMode.class)
    void aDdlEventOfAnUnmappedTableIsIgnoredAndItsRowsStillFailWithUnknownTableFail(SchemaChangeMode mode)
            throws Exception {
        for (boolean checking : new boolean[] {false, true}) {
            AssemblerHarness h = start(TableRouter.parse("shop.orders=dw.orders", null, UnknownTableMode.FAIL),
                    mode, checking);
            h.send(ddl("ttt"));
            h.send(p0.begin("tx-1"), p0.insert("orders", ORDER, "tx-1"), p0.end("tx-1", 1, Map.of("shop.orders", 1L)));

            assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", ORDER, 0, true));
            assertThatThrownBy(() -> h.send(p0.begin("tx-2"), p0.insert("ttt", "{\"id\":1}", "tx-2")))
                    .isInstanceOf(UnknownTableException.class).hasMessageContaining("shop.ttt");
            h.close();
            harness = null;
        }
    }

    @ParameterizedTest
    @EnumSource(SchemaChangeMode.class)
    void aDdlEventOfATableWhoseTargetIsMissingIsIgnoredWithUnknownTableSkip(SchemaChangeMode mode)
            throws Exception {
        TableRouter router = TableRouter.parse(null, "dw", UnknownTableMode.SKIP)
                .withTargetTables(new TargetTables(Map.of("dw", List.of("orders"))));
        AssemblerHarness h = start(router, mode, true);
        h.send(ddl("ttt"));
        h.send(p0.begin("tx-1"), p0.insert("ttt", "{\"id\":1}", "tx-1"), p0.insert("orders", ORDER, "tx-1"),
                p0.end("tx-1", 2, Map.of("shop.orders", 1L, "shop.ttt", 1L)));

        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", ORDER, 0, true));
    }

    @ParameterizedTest
    @EnumSource(value = SchemaChangeMode.class, names = {"FAIL", "APPLY"})
    void aDdlEventOfATableWhoseTargetIsMissingStopsLikeItsRowWithUnknownTableFail(SchemaChangeMode mode)
            throws Exception {
        for (boolean checking : new boolean[] {false, true}) {
            TableRouter router = TableRouter.parse(null, "dw", UnknownTableMode.FAIL)
                    .withTargetTables(new TargetTables(Map.of("dw", List.of("orders"))));
            AssemblerHarness h = start(router, mode, checking);
            h.send(p0.begin("tx-1"), p0.insert("orders", ORDER, "tx-1"), p0.end("tx-1", 1, Map.of("shop.orders", 1L)));
            SourceEvent ddl = ddl("ttt");

            assertThatThrownBy(() -> h.send(ddl)).isInstanceOf(UnknownTableException.class)
                    .hasMessage(ddl.describePosition() + ": schema change of table 'shop.ttt': target table 'dw.ttt' "
                            + "of source table 'shop.ttt' does not exist; create it, or skip unknown tables "
                            + "(--unknown-table skip)");
            assertThat(h.takeEmitted()).as("the transaction before it loads").containsExactly(
                    row("dw", "orders", ORDER, 0, true));
            h.close();
            harness = null;
        }
    }

    private SourceEvent ddl(String table) {
        SourceEvent event = new SourceEvent();
        event.setKind(SourceEventKind.SCHEMA_CHANGE);
        event.setTopic("cdc");
        event.setPartition(0);
        event.setOffset(p0.nextOffset());
        event.setSourceDatabase("shop");
        event.setSourceTable(table);
        event.setRow("ALTER TABLE " + table + " ADD COLUMN c INT");
        event.setSchemaColumns("id\tint\nc\tint");
        return event;
    }
}
