package io.lockstep.app.event;

import static io.lockstep.app.testing.DebeziumMessages.dataJson;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.app.testing.Samples;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DebeziumDecoderTest {

    private final DebeziumDecoder decoder = new DebeziumDecoder();

    private SourceEvent decode(long offset, String key, String value) {
        return decoder.decode(new SourceRecord("cdc", 1, offset, key, value));
    }

    @Test
    void postgresSampleFileGivesSnapshotAndStreamingRowsAsStandaloneEvents() throws Exception {
        List<String> lines = Samples.lines(Samples.DEBEZIUM_POSTGRES);
        List<SourceEvent> events = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            events.add(decode(i, null, lines.get(i)));
        }

        assertThat(events).hasSize(16);
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getKind()).isEqualTo(SourceEventKind.ROW);
            // PostgreSQL: the data collection is schema.table, as Debezium names it in END
            assertThat(e.dataCollection()).isEqualTo("inventory.products");
            // "transaction": null in every event (no provide.transaction.metadata)
            assertThat(e.isStandalone()).isTrue();
            assertThat(e.getTransactionId()).isNull();
            assertThat(e.getPreviousKeyDeleteRow()).isNull();
        });
        assertThat(events).extracting(SourceEvent::isDelete).containsExactly(
                false, false, false, false, false, false, false, false, false,
                false, false, false, false, false, false, true);
        assertThat(events.get(0).getRow())
                .isEqualTo("{\"id\":101,\"name\":\"scooter\",\"description\":\"Small 2-wheel scooter\",\"weight\":3.14}");
        // u: the after-image
        assertThat(events.get(9).getRow())
                .isEqualTo("{\"id\":106,\"name\":\"hammer\",\"description\":\"18oz carpenter hammer\",\"weight\":1.0}");
        // d: the before-image with __op = 1
        assertThat(events.get(15).getRow()).isEqualTo(
                "{\"id\":111,\"name\":\"scooter\",\"description\":\"Big 2-wheel scooter \",\"weight\":5.17,\"__op\":1}");
        assertThat(events.get(15).describePosition()).isEqualTo("topic 'cdc' partition 1 offset 15");
    }

    @Test
    void dataEventsWithoutATransactionBlockAreSaidOnceAtWarnNamingTheConnectorSetting() throws Exception {
        List<String> lines = Samples.lines(Samples.DEBEZIUM_POSTGRES); // snapshot rows, then streamed rows
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err
        try {
            for (int i = 0; i < lines.size(); i++) {
                decode(i, null, lines.get(i));
            }
        } finally {
            System.setErr(err);
        }
        List<String> warnings = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("carries no transaction block")).toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("WARN").contains("provide.transaction.metadata=true")
                .contains("table inventory.products").doesNotContain("scooter");
        assertThat(decode(0, null, lines.get(0)).isStandalone()).as("a snapshot row alone says nothing").isTrue();
    }

    @Test
    void beginAndEndCarryIdsAndCounts() {
        SourceEvent begin = decode(0, null, DebeziumMessages.beginJson("5f3a9c2e-41d7-11ef-8a0c-0242ac130003:88231"));
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("shop.orders", 1L);
        counts.put("shop.order_items", 2L);
        SourceEvent end = decode(4, null,
                DebeziumMessages.endJson("5f3a9c2e-41d7-11ef-8a0c-0242ac130003:88231", 3, counts));

        assertThat(begin.getKind()).isEqualTo(SourceEventKind.BEGIN);
        // a MySQL GTID keeps its colon: it is not a PostgreSQL txId:LSN
        assertThat(begin.getTransactionKey()).isEqualTo("5f3a9c2e-41d7-11ef-8a0c-0242ac130003:88231");
        assertThat(end.getKind()).isEqualTo(SourceEventKind.END);
        assertThat(end.getEventCount()).isEqualTo(3);
        assertThat(end.getTableEventCounts()).isEqualTo(Map.of("shop.orders", 1L, "shop.order_items", 2L));
    }

    @Test
    void postgresIdsAreKeyedOnTheTxIdBeforeTheColon() {
        assertThat(decode(0, null, DebeziumMessages.beginJson("571:53195829")).getTransactionKey()).isEqualTo("571");
        SourceEvent data = decode(1, null, dataJson("inventory", "orders", "c", "null", "{\"id\":1}", "571:53195830"));
        assertThat(data.getTransactionId()).isEqualTo("571:53195830");
        assertThat(data.getTransactionKey()).isEqualTo("571");
        assertThat(data.getTotalOrder()).isEqualTo(1);
        assertThat(TransactionIds.key("file=binlog.000042,pos=193457")).isEqualTo("file=binlog.000042,pos=193457");
        assertThat(TransactionIds.key("00000025:00000d08:0025")).isEqualTo("00000025:00000d08:0025");
        assertThat(TransactionIds.key("0-1-4711")).isEqualTo("0-1-4711");
        assertThat(TransactionIds.key(null)).isNull();
    }

    @Test
    void schemaEnvelopeIsUnwrapped() {
        String payload = dataJson("shop", "orders", "c", "null", "{\"order_id\":7,\"total\":\"59.80\"}", "tx-9");
        String value = "{\"schema\":{\"type\":\"struct\",\"fields\":[],\"optional\":false,"
                + "\"name\":\"oltp.shop.orders.Envelope\"},\"payload\":" + payload + "}";
        SourceEvent event = decode(3, null, value);

        assertThat(event.getRow()).isEqualTo("{\"order_id\":7,\"total\":\"59.80\"}");
        assertThat(event.getTransactionKey()).isEqualTo("tx-9");
        assertThat(event.isStandalone()).isFalse();

        String end = "{\"schema\":{\"type\":\"struct\",\"name\":\"io.debezium.connector.common.TransactionMetadataValue\"},"
                + "\"payload\":" + DebeziumMessages.endJson("tx-9", 1, Map.of("shop.orders", 1L)) + "}";
        assertThat(decode(4, null, end).getTableEventCounts()).isEqualTo(Map.of("shop.orders", 1L));
        // a tombstone: null value, or an envelope with a null payload
        assertThat(decode(5, null, null)).isNull();
        assertThat(decode(6, null, "{\"schema\":null,\"payload\":null}")).isNull();
    }

    @Test
    void updateWithChangedKeyCarriesTheDeleteOfTheOldKey() {
        String value = dataJson("shop", "orders", "u", "{\"order_id\":6,\"status\":\"NEW\"}",
                "{\"order_id\":7,\"status\":\"NEW\"}", "tx-1");

        SourceEvent keyed = decode(0, "{\"order_id\":7}", value);
        assertThat(keyed.getPreviousKeyDeleteRow()).isEqualTo("{\"order_id\":6,\"status\":\"NEW\",\"__op\":1}");
        assertThat(keyed.getRow()).isEqualTo("{\"order_id\":7,\"status\":\"NEW\"}");

        SourceEvent envelopeKey = decode(1, "{\"schema\":{\"type\":\"struct\"},\"payload\":{\"order_id\":7}}", value);
        assertThat(envelopeKey.getPreviousKeyDeleteRow()).isEqualTo("{\"order_id\":6,\"status\":\"NEW\",\"__op\":1}");

        SourceEvent configured = new DebeziumDecoder(Map.of("shop.orders", List.of("order_id")))
                .decode(new SourceRecord("cdc", 1, 2, null, value));
        assertThat(configured.getPreviousKeyDeleteRow()).isEqualTo("{\"order_id\":6,\"status\":\"NEW\",\"__op\":1}");

        // no key known: a plain upsert
        assertThat(decode(3, null, value).getPreviousKeyDeleteRow()).isNull();
    }

    @Test
    void updateWithSameKeyIsAPlainUpsert() {
        SourceEvent event = decode(0, "{\"order_id\":7}", dataJson("shop", "orders", "u",
                "{\"order_id\":7,\"status\":\"NEW\"}", "{\"order_id\":7,\"status\":\"PAID\"}", "tx-1"));

        assertThat(event.getPreviousKeyDeleteRow()).isNull();
        assertThat(event.getRow()).isEqualTo("{\"order_id\":7,\"status\":\"PAID\"}");
    }

    @Test
    void snapshotRowIsStandaloneEvenWithATransactionBlock() {
        SourceEvent event = decode(0, null, dataJson("shop", "orders", "r", "null", "{\"order_id\":1}", "tx-1"));

        assertThat(event.isStandalone()).isTrue();
        assertThat(event.getTransactionId()).isNull();
    }

    @Test
    void decimalsAndLargeNumbersKeepTheirExactText() {
        SourceEvent event = decode(0, null, dataJson("shop", "t", "c", "null",
                "{\"a\":0.1000,\"b\":12345678901234567890123,\"c\":1E+3,\"d\":-0.0}", "tx"));

        assertThat(event.getRow()).isEqualTo("{\"a\":0.1000,\"b\":12345678901234567890123,\"c\":1000,\"d\":0.0}");
    }

    @Test
    void badInputNamesThePositionAndTheProblem() {
        assertThatThrownBy(() -> decode(7, null, "{\"op\":\"c\",\"after\":{\"x\":1}"))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageStartingWith("topic 'cdc' partition 1 offset 7: malformed JSON in the message value");
        assertThatThrownBy(() -> decode(8, null, "{\"before\":null,\"after\":{\"x\":1}}"))
                .hasMessage("topic 'cdc' partition 1 offset 8: neither a Debezium data event (no 'op') "
                        + "nor a transaction event (no 'status')");
        assertThatThrownBy(() -> decode(8, null, "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"insert\","
                + "\"data\":{\"x\":1}}"))
                .hasMessage("topic 'cdc' partition 1 offset 8: neither a Debezium data event (no 'op') "
                        + "nor a transaction event (no 'status'); the value looks like a Maxwell event ('type', "
                        + "'data'): use --format maxwell");
        assertThatThrownBy(() -> decode(9, null, "{\"op\":\"c\",\"after\":{\"x\":1}}"))
                .hasMessage("topic 'cdc' partition 1 offset 9: missing or non-object field 'source'");
        assertThatThrownBy(() -> decode(10, null, dataJson("shop", "orders", "t", "null", "null", "tx")))
                .hasMessage("topic 'cdc' partition 1 offset 10: unsupported Debezium op 't' on table shop.orders "
                        + "(expected c, u, d or r)");
        assertThatThrownBy(() -> decode(11, null, dataJson("shop", "orders", "d", "null", "null", "tx")))
                .hasMessage("topic 'cdc' partition 1 offset 11: missing or non-object field 'before'");
        assertThatThrownBy(() -> decode(12, null, "{\"status\":\"COMMIT\",\"id\":\"1\"}"))
                .hasMessage("topic 'cdc' partition 1 offset 12: unknown transaction status 'COMMIT' (expected BEGIN or END)");
        assertThatThrownBy(() -> decode(13, null, "{\"status\":\"END\",\"id\":\"1\",\"event_count\":2}"))
                .hasMessage("topic 'cdc' partition 1 offset 13: END without a 'data_collections' array");
        assertThatThrownBy(() -> decode(14, null, "{\"status\":\"END\",\"id\":\"1\",\"event_count\":-1,"
                + "\"data_collections\":[]}"))
                .hasMessage("topic 'cdc' partition 1 offset 14: missing or invalid count field 'event_count'");
        assertThatThrownBy(() -> decode(15, null, "{\"status\":\"BEGIN\"}"))
                .hasMessage("topic 'cdc' partition 1 offset 15: missing or non-text field 'id'");
        assertThatThrownBy(() -> decode(16, "not json", dataJson("shop", "orders", "u", "{\"id\":1}", "{\"id\":2}", "t")))
                .hasMessage("topic 'cdc' partition 1 offset 16: malformed JSON in the message key at line 1 column 1");
    }

    @Test
    void aSchemaChangeCarriesTheTablesColumnsAfterItAndTheColumnsItDrops() {
        SourceEvent change = decode(0, null, "{\"source\":{\"server\":\"oltp\"},\"databaseName\":\"shop\","
                + "\"ddl\":\"ALTER TABLE orders DROP COLUMN `legacy`, ADD COLUMN note VARCHAR(64), DROP PRIMARY KEY\","
                + "\"tableChanges\":[{\"type\":\"ALTER\",\"id\":\"\\\"shop\\\".\\\"orders\\\"\",\"table\":{\"columns\":["
                + "{\"name\":\"id\",\"typeName\":\"INT UNSIGNED\",\"length\":10},"
                + "{\"name\":\"total\",\"typeName\":\"DECIMAL\",\"length\":12,\"scale\":2},"
                + "{\"name\":\"note\",\"typeName\":\"VARCHAR\",\"length\":64}]}}]}");

        assertThat(change.getSchemaColumns()).isEqualTo("id\tint unsigned(10)\ntotal\tdecimal(12,2)\nnote\tvarchar(64)");
        assertThat(change.getDroppedColumns()).isEqualTo("legacy");
    }

    @Test
    void schemaChangesDecodeToTheirTableAndDdlAndHeartbeatsToNothing() {
        SourceEvent change = decode(0, null, "{\"source\":{\"server\":\"oltp\"},\"databaseName\":\"shop\","
                + "\"ddl\":\"ALTER TABLE orders\\n  ADD note TEXT\",\"tableChanges\":[{\"type\":\"ALTER\","
                + "\"id\":\"\\\"shop\\\".\\\"orders\\\"\"}]}");
        assertThat(change.getKind()).isEqualTo(SourceEventKind.SCHEMA_CHANGE);
        assertThat(change.dataCollection()).isEqualTo("shop.orders");
        assertThat(change.getRow()).isEqualTo("ALTER TABLE orders ADD note TEXT");
        assertThat(decode(1, null, "{\"ts_ms\":1767225600000}")).isNull();
        assertThat(decode(2, null, "{}")).isNull();
        assertThat(decode(3, null, dataJson("shop", "orders", "c", "null", "{\"id\":1}", "tx", 4)).getTotalOrder())
                .isEqualTo(4);
        assertThat(decode(4, null, dataJson("shop", "orders", "c", "null", "{\"id\":1}", null)).getTotalOrder())
                .isEqualTo(-1);
    }
}
