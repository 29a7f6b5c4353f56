package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.create.SourceColumn;
import io.lockstep.app.create.TableCreation;
import io.lockstep.app.create.TableCreationBarrier;
import io.lockstep.app.create.TableCreationOptions;
import io.lockstep.app.create.TableSelection;
import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.schema.ColumnReadException;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.schema.TargetColumns;
import io.lockstep.flink.row.SinkInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * The assembler's side of a table created mid-stream ({@link TableCreationCheck}): the barrier carries the shape read
 * from the message's schema and goes once per source partition; the created columns are what the rows, and a schema
 * change that follows, are checked against; a table that cannot be described or created stops in one line naming the
 * position and the table.
 */
class TableCreationCheckTest {

    private static final TargetTable ORDERS = new TargetTable("dw", "orders");
    private static final String SCHEMA = "{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"field\":\"after\","
            + "\"optional\":true,\"fields\":[{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
            + "{\"type\":\"int32\",\"optional\":true,\"name\":\"io.debezium.time.Date\",\"field\":\"placed\"}]}]}";
    private static final String KEY = "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"int64\","
            + "\"optional\":false,\"field\":\"id\"}]},\"payload\":{\"id\":1}}";

    private final List<SinkInput> out = new ArrayList<>();
    private final Collector<SinkInput> collector = new Collector<>() {
        @Override
        public void collect(SinkInput record) {
            out.add(record);
        }

        @Override
        public void close() {
        }
    };
    /** Every table is missing in this target. */
    private final TargetColumns columns = new TargetColumns((database, table) -> {
        throw new ColumnReadException(ColumnReadException.Kind.MISSING_TABLE, "no table " + table, null);
    });

    @Test
    void aMissingTableIsCreatedFromTheMessageSchemaOncePerSourcePartition() {
        TableCreationCheck check = new TableCreationCheck(creation(), columns);

        Map<String, TargetColumn> created = check.create(row(KEY, "{\"schema\":" + SCHEMA + ",\"payload\":{}}"),
                ORDERS, 0, collector);
        check.announce(ORDERS, 0, collector);
        check.announce(ORDERS, 1, collector);
        check.announce(ORDERS, 1, collector);

        assertThat(created.values()).containsExactly(new TargetColumn("id", "BIGINT", false),
                new TargetColumn("placed", "DATE", true));
        assertThat(columns.of(ORDERS)).as("the rows are checked against the created columns").isEqualTo(created);
        assertThat(out).hasSize(2).allSatisfy(mark -> assertThat(mark).isInstanceOf(TableCreationBarrier.class));
        assertThat(out).extracting(SinkInput::getSourcePartition).containsExactly(0, 1);
        TableCreationBarrier barrier = (TableCreationBarrier) out.get(0);
        assertThat(barrier.target()).isEqualTo(ORDERS);
        assertThat(barrier.sourceTable().primaryKey()).containsExactly("id");
        assertThat(barrier.sourceTable().columns()).extracting(SourceColumn::semanticType)
                .containsExactly(null, "io.debezium.time.Date");
        assertThat(barrier.getCause()).isEqualTo("topic 'cdc' partition 0 offset 7: first row of source table "
                + "shop.orders");
    }

    @Test
    void aMessageWithoutSchemaAndNoSourceCatalogStopsInOneLine() {
        TableCreationCheck check = new TableCreationCheck(creation(), columns);

        assertThatThrownBy(() -> check.create(row(null, "{\"op\":\"c\",\"after\":{\"id\":1}}"), ORDERS, 0, collector))
                .isInstanceOf(SchemaChangeException.class)
                .hasMessage("topic 'cdc' partition 0 offset 7: target table dw.orders of source table shop.orders does "
                        + "not exist and --create-tables cannot create it: its messages carry no schema (the JSON "
                        + "converter's schemas.enable=false) and no --source-jdbc-url is given; give "
                        + "--source-jdbc-url, or create the table yourself; the transactions before it are committed");
        assertThat(out).isEmpty();
    }

    @Test
    void aTableWithoutKeyIsRefusedBeforeAnythingIsSent() {
        TableCreationCheck check = new TableCreationCheck(creation(), columns);

        assertThatThrownBy(() -> check.create(row(null, "{\"schema\":" + SCHEMA + ",\"payload\":{}}"), ORDERS, 0,
                collector)).isInstanceOf(SchemaChangeException.class)
                .hasMessageStartingWith("topic 'cdc' partition 0 offset 7: target table dw.orders of source table "
                        + "shop.orders does not exist and cannot be created: ")
                .hasMessageContaining("--key-columns shop.orders=");
        assertThat(out).isEmpty();
        assertThat(columns.of(ORDERS)).isNull();
    }

    @Test
    void aSchemaChangeOfATableCreatedHereIsComparedWithTheCreatedColumnsNotTheTargetThatMayNotShowItYet() {
        TableCreation creation = creation();
        TableCreationCheck check = new TableCreationCheck(creation, columns);
        SchemaChanges schemaChanges = new SchemaChanges(TableRouter.parse(null, "dw", UnknownTableMode.FAIL)
                .withNaming(creation.targets()), AssemblerOptions.defaults()
                .withSchemaChangeMode(SchemaChangeMode.APPLY).withTableCreation(creation), columns, check);
        check.create(row(KEY, "{\"schema\":" + SCHEMA + ",\"payload\":{}}"), ORDERS, 0, collector);
        SourceEvent addNote = SourceEvent.at(SourceEventKind.SCHEMA_CHANGE, new SourceRecord("cdc", 0, 9, null, "{}"));
        addNote.setSourceDatabase("shop");
        addNote.setSourceTable("orders");
        addNote.setRow("ALTER TABLE orders ADD COLUMN note VARCHAR(20)");
        addNote.setSchemaColumns("id\tbigint\nplaced\tdate\nnote\tvarchar(20)");

        assertThat(schemaChanges.onSchemaChange(addNote, 0, collector)).isNull();

        assertThat(out).hasSize(2);
        assertThat(out.get(1)).isInstanceOfSatisfying(SchemaChangeBarrier.class,
                barrier -> assertThat(barrier.columnsToAdd()).singleElement().asString().startsWith("note VARCHAR"));
        assertThat(columns.of(ORDERS)).containsKeys("id", "placed", "note");
    }

    private static TableCreation creation() {
        return new TableCreation(TableSelection.of(null, null, "dw", null, null), TableCreationOptions.defaults(),
                null, null, null);
    }

    private static SourceEvent row(String key, String value) {
        SourceEvent event = SourceEvent.at(SourceEventKind.ROW, new SourceRecord("cdc", 0, 7, key, value));
        event.setSourceDatabase("shop");
        event.setSourceTable("orders");
        event.setRawKey(key);
        event.setRawValue(value);
        return event;
    }
}
