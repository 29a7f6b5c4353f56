package io.lockstep.app.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Debezium's value encodings, in the JSON converter's envelope shape ({@code schemas.enable=true}) and without it,
 * decoded to what StarRocks' JSON load reads.
 */
class DebeziumValuesTest {

    private final DebeziumDecoder decoder = new DebeziumDecoder();

    /** One column's schema (a Connect field) and its value, as the JSON converter writes them. */
    private record Column(String name, String schema, String value) {
    }

    private static Column column(String name, String schemaFields, String value) {
        return new Column(name, "{" + schemaFields + ",\"optional\":true,\"field\":\"" + name + "\"}", value);
    }

    /** An envelope with schema: op, table public.t, a key column id (int32) plus the given columns. */
    private static String withSchema(String op, Column... columns) {
        StringBuilder fields = new StringBuilder("{\"type\":\"int32\",\"optional\":false,\"field\":\"id\"}");
        StringBuilder values = new StringBuilder("\"id\":1");
        for (Column c : columns) {
            fields.append(',').append(c.schema());
            values.append(",\"").append(c.name()).append("\":").append(c.value());
        }
        String row = "{\"type\":\"struct\",\"fields\":[" + fields + "],\"optional\":true,\"name\":\"pg.public.t.Value\"";
        String schema = "{\"type\":\"struct\",\"fields\":[" + row + ",\"field\":\"before\"}," + row
                + ",\"field\":\"after\"},{\"type\":\"struct\",\"fields\":[],\"optional\":false,\"field\":\"source\"},"
                + "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"}],\"optional\":false,"
                + "\"name\":\"pg.public.t.Envelope\"}";
        String image = "{" + values + "}";
        String before = op.equals("c") ? "null" : image;
        String after = op.equals("d") ? "null" : image;
        return "{\"schema\":" + schema + ",\"payload\":{\"before\":" + before + ",\"after\":" + after
                + ",\"source\":{\"schema\":\"public\",\"table\":\"t\"},\"op\":\"" + op + "\","
                + "\"transaction\":{\"id\":\"771:2\",\"total_order\":1,\"data_collection_order\":1}}}";
    }

    private String after(Column... columns) {
        return decoder.decode(new SourceRecord("cdc", 0, 5, null, withSchema("c", columns))).getRow();
    }

    @Test
    void decimalBytesBecomeExactNumbersWithTheSchemasScale() {
        String decimal = "\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\",\"version\":1,"
                + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"}";
        assertThat(after(column("amount", decimal, "\"MDk=\""), column("refund", decimal, "\"/w==\"")))
                .isEqualTo("{\"id\":1,\"amount\":123.45,\"refund\":-0.01}");
        // converter decimal.format=NUMERIC writes a number: kept exactly
        assertThat(after(column("amount", decimal, "123.40"))).isEqualTo("{\"id\":1,\"amount\":123.40}");
        // decimal.handling.mode=string: a plain string schema, passed unchanged
        assertThat(after(column("amount", "\"type\":\"string\"", "\"123.45\"")))
                .isEqualTo("{\"id\":1,\"amount\":\"123.45\"}");
    }

    @Test
    void variableScaleDecimalReadsItsOwnScale() {
        String schema = "\"type\":\"struct\",\"name\":\"io.debezium.data.VariableScaleDecimal\",\"fields\":"
                + "[{\"type\":\"int32\",\"field\":\"scale\"},{\"type\":\"bytes\",\"field\":\"value\"}]";
        assertThat(after(column("n", schema, "{\"scale\":10,\"value\":\"AQVuDzamRD3i33k=\"}")))
                .isEqualTo("{\"id\":1,\"n\":123456789012345.6789012345}");
    }

    @Test
    void temporalTypesBecomeStarRocksDateAndDatetimeText() {
        assertThat(after(
                column("d", "\"type\":\"int32\",\"name\":\"io.debezium.time.Date\"", "19675"),
                column("ts_ms", "\"type\":\"int64\",\"name\":\"io.debezium.time.Timestamp\"", "1700000000120"),
                column("ts_us", "\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTimestamp\"",
                        "1700000000123456"),
                column("ts_ns", "\"type\":\"int64\",\"name\":\"io.debezium.time.NanoTimestamp\"",
                        "1700000000123456000"),
                column("ts_c", "\"type\":\"int64\",\"name\":\"org.apache.kafka.connect.data.Timestamp\"",
                        "1700000000000"),
                column("tz", "\"type\":\"string\",\"name\":\"io.debezium.time.ZonedTimestamp\"",
                        "\"2023-11-15T00:13:20.5+02:00\""),
                column("before_epoch", "\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTimestamp\"", "-1"),
                column("t", "\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTime\"", "45296000007")))
                .isEqualTo("{\"id\":1,\"d\":\"2023-11-14\",\"ts_ms\":\"2023-11-14 22:13:20.120000\","
                        + "\"ts_us\":\"2023-11-14 22:13:20.123456\",\"ts_ns\":\"2023-11-14 22:13:20.123456\","
                        + "\"ts_c\":\"2023-11-14 22:13:20\",\"tz\":\"2023-11-14 22:13:20.500000\","
                        + "\"before_epoch\":\"1969-12-31 23:59:59.999999\",\"t\":\"12:34:56.000007\"}");
    }

    @Test
    void nanosecondsADatetimeCannotHoldAreRefusedNamingColumnAndFix() {
        assertThatThrownBy(() -> after(column("ts_ns",
                "\"type\":\"int64\",\"name\":\"io.debezium.time.NanoTimestamp\"", "1700000000123456789")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 'cdc' partition 0 offset 5: column 'ts_ns' of table public.t has nanoseconds,"
                        + " which a StarRocks DATETIME cannot hold; set time.precision.mode=adaptive or load it"
                        + " into a VARCHAR");
    }

    @Test
    void jsonColumnsBecomeTheDocumentAndTextKeepsEmoji() {
        assertThat(after(
                column("doc", "\"type\":\"string\",\"name\":\"io.debezium.data.Json\"",
                        "\"{\\\"a\\\": [1, 2.50], \\\"b\\\": \\\"x\\\"}\""),
                column("note", "\"type\":\"string\"", "\"caf\u00e9 \uD83D\uDE80\""),
                column("flag", "\"type\":\"boolean\"", "true"),
                column("blob", "\"type\":\"bytes\"", "\"3q2+7w==\"")))
                .isEqualTo("{\"id\":1,\"doc\":{\"a\":[1,2.50],\"b\":\"x\"},\"note\":\"caf\u00e9 \uD83D\uDE80\","
                        + "\"flag\":true,\"blob\":\"3q2+7w==\"}");
    }

    @Test
    void theToastPlaceholderFailsNamingTableColumnAndReplicaIdentityFull() {
        String expected = "topic 'cdc' partition 0 offset 5: column 'body' of table public.t holds Debezium's"
                + " placeholder __debezium_unavailable_value (a TOASTed value the update left unchanged, which"
                + " PostgreSQL does not send); loading it would overwrite the stored value: run ALTER TABLE public.t"
                + " REPLICA IDENTITY FULL";
        assertThatThrownBy(() -> after(column("body", "\"type\":\"string\"", "\"__debezium_unavailable_value\"")))
                .isInstanceOf(BadSourceEventException.class).hasMessage(expected);
        // BYTEA: the placeholder's bytes in base64
        assertThatThrownBy(() -> after(column("body", "\"type\":\"bytes\"",
                "\"X19kZWJleml1bV91bmF2YWlsYWJsZV92YWx1ZQ==\"")))
                .isInstanceOf(BadSourceEventException.class).hasMessage(expected);
        // without schemas too
        String schemaless = "{\"before\":null,\"after\":{\"id\":1,\"body\":\"__debezium_unavailable_value\"},"
                + "\"source\":{\"schema\":\"public\",\"table\":\"t\"},\"op\":\"u\","
                + "\"transaction\":{\"id\":\"771:2\",\"total_order\":1,\"data_collection_order\":1}}";
        assertThatThrownBy(() -> decoder.decode(new SourceRecord("cdc", 0, 5, null, schemaless)))
                .isInstanceOf(BadSourceEventException.class).hasMessage(expected);
    }

    @Test
    void aDeleteWhoseBeforeImageHasThePlaceholderStillDeletesByKey() {
        SourceEvent delete = decoder.decode(new SourceRecord("cdc", 0, 5, null, withSchema("d",
                column("body", "\"type\":\"string\"", "\"__debezium_unavailable_value\""))));
        assertThat(delete.isDelete()).isTrue();
        assertThat(delete.getRow()).isEqualTo("{\"id\":1,\"body\":\"__debezium_unavailable_value\",\"__op\":1}");
    }

    @Test
    void unloadableEncodingsFailNamingColumnEncodingAndOption() {
        assertThatThrownBy(() -> after(column("bits",
                "\"type\":\"bytes\",\"name\":\"io.debezium.data.Bits\",\"parameters\":{\"length\":\"9\"}",
                "\"AQE=\"")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageContaining("column 'bits' of table public.t has the Debezium encoding"
                        + " io.debezium.data.Bits (bytes)")
                .hasMessageContaining("column.exclude.list");
        assertThatThrownBy(() -> after(column("days",
                "\"type\":\"array\",\"items\":{\"type\":\"int32\",\"name\":\"io.debezium.time.Date\"}",
                "[19723]")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageContaining("column 'days' of table public.t has the Debezium encoding array");
        assertThatThrownBy(() -> after(column("amount",
                "\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\"", "\"MDk=\"")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageContaining("column 'amount' of table public.t")
                .hasMessageContaining("decimal.handling.mode=string");
    }

    @Test
    void aTimeOutsideOneDayIsRefusedRatherThanWrapped() {
        assertThatThrownBy(() -> after(column("t", "\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTime\"",
                "-3600000000")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageContaining("column 't' of table public.t has a TIME outside 00:00:00..23:59:59.999999");
        assertThatThrownBy(() -> after(column("t", "\"type\":\"int32\",\"name\":\"io.debezium.time.Time\"",
                "86400000"))).hasMessageContaining("(a duration or 24:00:00)");
    }

    @Test
    void anArrayOfPlainElementsLoadsAsTheJsonArrayItIs() {
        String uuid = "\"0e3f1a52-8d1c-4c4e-9a53-3b1f7c1e2d10\"";
        assertThat(after(column("tags", "\"type\":\"array\",\"items\":{\"type\":\"string\"}", "[\"a\",\"b\"]"),
                column("ids", "\"type\":\"array\",\"items\":{\"type\":\"string\","
                        + "\"name\":\"io.debezium.data.Uuid\"}", "[" + uuid + "]")))
                .isEqualTo("{\"id\":1,\"tags\":[\"a\",\"b\"],\"ids\":[" + uuid + "]}");
    }

    @Test
    void schemalessValuesPassUnchanged() {
        String schemaless = "{\"before\":null,\"after\":{\"id\":1,\"amount\":\"123.45\",\"ts\":\"2023-11-14T22:13:20\"},"
                + "\"source\":{\"schema\":\"public\",\"table\":\"t\"},\"op\":\"c\","
                + "\"transaction\":{\"id\":\"771:2\",\"total_order\":1,\"data_collection_order\":1}}";
        assertThat(decoder.decode(new SourceRecord("cdc", 0, 5, null, schemaless)).getRow())
                .isEqualTo("{\"id\":1,\"amount\":\"123.45\",\"ts\":\"2023-11-14T22:13:20\"}");
    }
}
