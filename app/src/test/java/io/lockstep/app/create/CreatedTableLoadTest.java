package io.lockstep.app.create;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.emulator.StarRocksEmulator;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A value of each mapped type goes the whole way: a Debezium event with its Connect schema, the decoder's load
 * values (app/event/DebeziumValues), a stream load into a table {@link TableCreator} created on the emulator (once
 * from the Connect schema alone, once from the native types with lengths), and a SELECT that reads it back equal.
 */
class CreatedTableLoadTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One column: its Connect schema, its native type, the value in the event (JSON text), and the value read back.
     */
    private record Case(String name, String connectType, String semanticType, Map<String, String> parameters,
            String sourceType, Integer length, Integer scale, String eventValue, String readBack) {
    }

    private static Case plain(String name, String connectType, String sourceType, Integer length, String value,
            String readBack) {
        return new Case(name, connectType, null, Map.of(), sourceType, length, null, value, readBack);
    }

    private static Case named(String name, String connectType, String semanticType, Map<String, String> parameters,
            String sourceType, Integer length, String value, String readBack) {
        return new Case(name, connectType, semanticType, parameters, sourceType, length, null, value, readBack);
    }

    private static String unscaled(String digits) {
        return "\"" + Base64.getEncoder().encodeToString(new BigInteger(digits).toByteArray()) + "\"";
    }

    private static final List<Case> CASES = List.of(
            plain("id", "int32", "int4", null, "7", "7"),
            plain("c_bool", "boolean", "bool", null, "true", "1"),
            plain("c_tinyint", "int16", "tinyint", null, "-128", "-128"),
            plain("c_smallint", "int16", "int2", null, "-32768", "-32768"),
            plain("c_int", "int32", "int4", null, "2147483647", "2147483647"),
            plain("c_bigint", "int64", "int8", null, "-9223372036854775808", "-9223372036854775808"),
            plain("c_int_unsigned", "int64", "int unsigned", null, "4294967295", "4294967295"),
            plain("c_float", "float32", "float4", null, "1.5", "1.5"),
            plain("c_double", "float64", "float8", null, "2.25e-3", "0.00225"),
            new Case("c_decimal", "bytes", "org.apache.kafka.connect.data.Decimal",
                    Map.of("scale", "2", "connect.decimal.precision", "12"), "numeric", 12, 2, unscaled("-1234567"),
                    "-12345.67"),
            new Case("c_bigint_unsigned", "bytes", "org.apache.kafka.connect.data.Decimal",
                    Map.of("scale", "0", "connect.decimal.precision", "20"), "bigint unsigned", null, null,
                    unscaled("18446744073709551615"), "18446744073709551615"),
            plain("c_varchar", "string", "varchar", 5, "\"héllo\"", "héllo"),
            plain("c_char", "string", "bpchar", 3, "\"ab \"", "ab "),
            plain("c_text", "string", "text", null, "\"line one\\nline two\"", "line one\nline two"),
            named("c_date", "int32", "io.debezium.time.Date", Map.of(), "date", null, "19723", "2024-01-01"),
            named("c_time", "int64", "io.debezium.time.MicroTime", Map.of(), "time", 6, "3723000001",
                    "01:02:03.000001"),
            named("c_timetz", "string", "io.debezium.time.ZonedTime", Map.of(), "timetz", null, "\"01:02:03+02:00\"",
                    "23:02:03"),
            named("c_timestamp", "int64", "io.debezium.time.MicroTimestamp", Map.of(), "timestamp", 6,
                    "1704067200123456", "2024-01-01 00:00:00.123456"),
            named("c_datetime_ms", "int64", "io.debezium.time.Timestamp", Map.of(), "datetime", 3,
                    "1704067200123", "2024-01-01 00:00:00.123000"),
            named("c_timestamptz", "string", "io.debezium.time.ZonedTimestamp", Map.of(), "timestamptz", null,
                    "\"2024-01-01T02:00:00.5+02:00\"", "2024-01-01 00:00:00.500000"),
            named("c_json", "string", "io.debezium.data.Json", Map.of(), "jsonb", null,
                    "\"{\\\"a\\\": [1, \\\"x\\\"]}\"", "{\"a\": [1, \"x\"]}"),
            named("c_uuid", "string", "io.debezium.data.Uuid", Map.of(), "uuid", null,
                    "\"0e3f1a52-8d1c-4c4e-9a53-3b1f7c1e2d10\"", "0e3f1a52-8d1c-4c4e-9a53-3b1f7c1e2d10"),
            named("c_enum", "string", "io.debezium.data.Enum", Map.of("allowed", "new,shipped"), "enum", 7,
                    "\"shipped\"", "shipped"),
            named("c_set", "string", "io.debezium.data.EnumSet", Map.of("allowed", "a,b,c"), "set", 5, "\"a,c\"",
                    "a,c"),
            named("c_year", "int32", "io.debezium.time.Year", Map.of(), "year", null, "2024", "2024"),
            named("c_interval", "string", "io.debezium.time.Interval", Map.of(), null, null, "\"P1Y2M3DT4H5M6S\"",
                    "P1Y2M3DT4H5M6S"),
            named("c_int_array", "array", null, Map.of("items.type", "int32"), "_int4", null, "[1,2,3]", "[1, 2, 3]"),
            named("c_text_array", "array", null, Map.of("items.type", "string"), "_text", null, "[\"a\",\"b c\"]",
                    "[\"a\", \"b c\"]"));

    @Test
    void aValueOfEachMappedTypeLoadsIntoTheCreatedTableAndReadsBackEqual() throws Exception {
        String event = event();
        SourceEvent decoded = new DebeziumDecoder().decode(new SourceRecord("cdc", 0, 0, null, event));
        List<SourceColumn> connectColumns = new ArrayList<>();
        List<SourceColumn> nativeColumns = new ArrayList<>();
        for (Case c : CASES) {
            connectColumns.add(new SourceColumn(c.name(), null, null, null, true, c.connectType(), c.semanticType(),
                    c.parameters()));
            nativeColumns.add(new SourceColumn(c.name(), c.sourceType(), c.length(), c.scale(), true,
                    c.connectType(), c.semanticType(), c.parameters()));
        }
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().direct().build().start()) {
            TableCreator creator = new TableCreator(starRocks.jdbcUrl(), "root", "", 10_000);
            creator.ensureDatabase("dw");
            for (String table : List.of("by_connect", "by_native")) {
                List<SourceColumn> columns = table.equals("by_connect") ? connectColumns : nativeColumns;
                creator.ensureTable(new TargetTable("dw", table), new SourceTable("shop", "types", columns,
                        List.of("id")), TableCreationOptions.defaults());
                streamLoad(starRocks, table, "[" + decoded.getRow() + "]");

                Map<String, String> row = selectOne(starRocks, table);
                Map<String, String> expected = new LinkedHashMap<>();
                CASES.forEach(c -> expected.put(c.name(), normalized(c.readBack())));
                assertThat(row).as(table).containsExactlyEntriesOf(expected);
            }
        }
    }

    /** The Debezium event (a PostgreSQL-style insert) with the Connect schema of every case. */
    private static String event() throws Exception {
        ArrayNode fields = JSON.createArrayNode();
        StringBuilder after = new StringBuilder("{");
        for (Case c : CASES) {
            ObjectNode field = fields.addObject().put("field", c.name()).put("type", c.connectType())
                    .put("optional", !c.name().equals("id"));
            if (c.semanticType() != null) {
                field.put("name", c.semanticType());
            }
            if (c.connectType().equals("array")) {
                field.putObject("items").put("type", c.parameters().get("items.type")).put("optional", true);
            } else if (!c.parameters().isEmpty()) {
                ObjectNode parameters = field.putObject("parameters");
                c.parameters().forEach(parameters::put);
            }
            after.append(after.length() > 1 ? "," : "").append(JSON.writeValueAsString(c.name())).append(':')
                    .append(c.eventValue());
        }
        after.append('}');
        ObjectNode schema = JSON.createObjectNode().put("type", "struct").put("name", "oltp.shop.types.Envelope");
        ArrayNode envelope = schema.putArray("fields");
        envelope.addObject().put("field", "before").put("type", "struct").put("optional", true).set("fields", fields);
        envelope.addObject().put("field", "after").put("type", "struct").put("optional", true).set("fields", fields);
        String payload = DebeziumMessages.dataJson("shop", "types", "c", "null", after.toString(), null);
        return "{\"schema\":" + JSON.writeValueAsString(schema) + ",\"payload\":" + payload + "}";
    }

    private static void streamLoad(StarRocksEmulator starRocks, String table, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(starRocks.feUrl() + "/api/dw/" + table
                        + "/_stream_load"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("root:".getBytes(
                        StandardCharsets.UTF_8)))
                .header("label", "types_" + table).header("format", "json").header("strip_outer_array", "true")
                .expectContinue(true).PUT(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request,
                HttpResponse.BodyHandlers.ofString());
        assertThat(JSON.readTree(response.body()).path("Status").asText()).as(response.body()).isEqualTo("Success");
    }

    /** JSON documents compare as documents (StarRocks prints them with spaces, the emulator without). */
    private static String normalized(String value) {
        try {
            return value != null && (value.startsWith("{") || value.startsWith("[")) ? JSON.readTree(value).toString()
                    : value;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("not a JSON document: " + value, e);
        }
    }

    private static Map<String, String> selectOne(StarRocksEmulator starRocks, String table) throws Exception {
        Map<String, String> row = new LinkedHashMap<>();
        try (Connection connection = DriverManager.getConnection(starRocks.jdbcUrl(), "root", "");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT " + String.join(", ", CASES.stream()
                        .map(Case::name).toList()) + " FROM dw." + table)) {
            assertThat(rows.next()).isTrue();
            for (Case c : CASES) {
                row.put(c.name(), normalized(rows.getString(c.name())));
            }
            assertThat(rows.next()).isFalse();
        }
        return row;
    }
}
