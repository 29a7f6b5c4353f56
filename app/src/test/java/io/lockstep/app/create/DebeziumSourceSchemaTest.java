package io.lockstep.app.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link DebeziumSourceSchema} on real Debezium 3.6.1 PostgreSQL events ({@code debezium/create/pg-kinds.json}, written
 * by e2e's {@code JdbcSourceCatalogPostgresIT} with {@code -Dlockstep.fixtures.regenerate=true}): table {@code kinds}
 * without and {@code kinds_typed} with {@code column.propagate.source.type}, and {@code notes} without a primary key.
 * The MySQL connector's propagated types are pinned on a schema written here in its shape, since Debezium 3.6.1's MySQL
 * connector refuses the MariaDB server the e2e module runs (see e2e's {@code MariaDbEndToEndIT}).
 */
class DebeziumSourceSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static JsonNode fixture;

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = DebeziumSourceSchemaTest.class.getResourceAsStream("/debezium/create/pg-kinds.json")) {
            fixture = JSON.readTree(in);
        }
    }

    private static JsonNode valueSchema(String table) {
        return fixture.get(table).get("value").get("schema").deepCopy();
    }

    private static SourceTable read(String table) {
        JsonNode event = fixture.get("public." + table);
        return DebeziumSourceSchema.read(event.get("value").get("schema"), "public", table,
                DebeziumSourceSchema.keyColumns(event.get("key")));
    }

    private static SourceColumn column(SourceTable table, String name) {
        return table.columns().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void readsTheConnectSchemaOfEachColumnInSourceOrderWithTheRecordKeysColumnsAsKey() {
        SourceTable kinds = read("kinds");

        assertThat(kinds.qualifiedName()).isEqualTo("public.kinds");
        assertThat(kinds.primaryKey()).containsExactly("code", "id");
        assertThat(kinds.columns()).hasSize(29).extracting(SourceColumn::name).startsWith("id", "code", "c_int2");
        assertThat(kinds.columns()).allSatisfy(c -> assertThat(c.sourceType()).isNull());
        assertThat(column(kinds, "id")).extracting(SourceColumn::connectType, SourceColumn::semanticType,
                SourceColumn::nullable).containsExactly("int32", null, false);
        assertThat(column(kinds, "c_int8")).extracting(SourceColumn::connectType, SourceColumn::nullable)
                .containsExactly("int64", true);
        assertThat(column(kinds, "c_numeric")).extracting(SourceColumn::connectType, SourceColumn::semanticType)
                .containsExactly("bytes", "org.apache.kafka.connect.data.Decimal");
        assertThat(column(kinds, "c_numeric").parameters())
                .isEqualTo(Map.of("scale", "3", "connect.decimal.precision", "12"));
        assertThat(column(kinds, "c_numeric_any")).extracting(SourceColumn::connectType, SourceColumn::semanticType)
                .containsExactly("struct", "io.debezium.data.VariableScaleDecimal");
        assertThat(column(kinds, "c_timestamp").semanticType()).isEqualTo("io.debezium.time.MicroTimestamp");
        assertThat(column(kinds, "c_timestamp0").semanticType()).isEqualTo("io.debezium.time.Timestamp");
        assertThat(column(kinds, "c_timestamptz")).extracting(SourceColumn::connectType, SourceColumn::semanticType)
                .containsExactly("string", "io.debezium.time.ZonedTimestamp");
        assertThat(column(kinds, "c_jsonb").semanticType()).isEqualTo("io.debezium.data.Json");
        assertThat(column(kinds, "c_uuid").semanticType()).isEqualTo("io.debezium.data.Uuid");
        assertThat(column(kinds, "c_mood").parameters()).isEqualTo(Map.of("allowed", "sad,ok,happy-go-lucky"));
        assertThat(column(kinds, "c_bit").parameters()).isEqualTo(Map.of("length", "4"));
        assertThat(column(kinds, "c_bytea")).extracting(SourceColumn::connectType, SourceColumn::semanticType)
                .containsExactly("bytes", null);
    }

    @Test
    void describesAnArraysElementInTheParameters() {
        SourceTable kinds = read("kinds");

        assertThat(column(kinds, "c_int_array").connectType()).isEqualTo("array");
        assertThat(column(kinds, "c_int_array").parameters()).isEqualTo(Map.of("items.type", "int32"));
        assertThat(column(kinds, "c_text_array").parameters()).isEqualTo(Map.of("items.type", "string"));
    }

    @Test
    void propagatedPostgresTypesGetTheCatalogsLengthAndScale() {
        SourceTable typed = read("kinds_typed");

        assertNative(typed, "id", "int4", null, null);
        assertNative(typed, "code", "varchar", 12, null);
        assertNative(typed, "c_float4", "float4", null, null);
        assertNative(typed, "c_numeric", "numeric", 12, 3);
        assertNative(typed, "c_numeric_any", "numeric", null, null);
        assertNative(typed, "c_bpchar", "bpchar", 3, null);
        assertNative(typed, "c_varchar_any", "varchar", null, null);
        assertNative(typed, "c_text", "text", null, null);
        assertNative(typed, "c_date", "date", null, null);
        assertNative(typed, "c_time", "time", 3, null);
        assertNative(typed, "c_timestamp", "timestamp", 6, null);
        assertNative(typed, "c_timestamp0", "timestamp", 0, null);
        assertNative(typed, "c_timestamptz", "timestamptz", 6, null);
        assertNative(typed, "c_int_array", "_int4", null, null);
        assertNative(typed, "c_mood", "enum", 14, null);
        assertNative(typed, "c_bit", "bit", 4, null);
        assertNative(typed, "c_domain", null, null, null);
        assertThat(column(typed, "c_domain")).extracting(SourceColumn::connectType, c -> c.parameters().get("udt_name"))
                .containsExactly("int32", "positive_int");
        assertThat(column(typed, "c_mood").parameters()).containsEntry("udt_name", "mood")
                .containsEntry("__debezium.source.column.type", "MOOD");
        assertThat(column(typed, "c_numeric").semanticType()).isEqualTo("org.apache.kafka.connect.data.Decimal");
    }

    @Test
    void theKeyColumnsComeFromTheRecordKeyWithOrWithoutItsSchema() {
        JsonNode key = fixture.get("public.kinds").get("key");

        assertThat(DebeziumSourceSchema.keyColumns(key)).containsExactly("code", "id");
        assertThat(DebeziumSourceSchema.keyColumns(key.get("schema"))).containsExactly("code", "id");
        assertThat(DebeziumSourceSchema.keyColumns(key.get("payload"))).containsExactly("code", "id");
    }

    @Test
    void aTableWithoutKeyHasAnEmptyPrimaryKey() {
        JsonNode notes = fixture.get("public.notes");
        assertThat(notes.get("key").isNull()).isTrue();

        SourceTable table = read("notes");

        assertThat(table.primaryKey()).isEmpty();
        assertThat(table.columns()).extracting(SourceColumn::name).containsExactly("body", "at");
        assertThat(DebeziumSourceSchema.keyColumns(null)).isEmpty();
        assertThat(DebeziumSourceSchema.keyColumns(NullNode.getInstance())).isEmpty();
    }

    @Test
    void anEventWithoutSchemaGivesNull() {
        assertThat(DebeziumSourceSchema.read(null, "public", "kinds", List.of())).isNull();
        assertThat(DebeziumSourceSchema.read(NullNode.getInstance(), "public", "kinds", List.of())).isNull();
    }

    @Test
    void readsBeforeWhenTheSchemaHasNoAfter() {
        ObjectNode schema = (ObjectNode) valueSchema("public.kinds");
        ArrayNode fields = (ArrayNode) schema.get("fields");
        for (int i = 0; i < fields.size(); i++) {
            if ("after".equals(fields.get(i).get("field").asText())) {
                fields.remove(i);
                break;
            }
        }

        SourceTable table = DebeziumSourceSchema.read(schema, "public", "kinds", List.of("code", "id"));

        assertThat(table.columns()).hasSize(29);
        assertThat(column(table, "c_int2").connectType()).isEqualTo("int16");
    }

    @Test
    void refusesASchemaThatIsNotADataChangeEventNamingTheTable() {
        ObjectNode schema = JSON.createObjectNode().put("type", "struct");
        schema.putArray("fields").addObject().put("field", "ts_ms").put("type", "int64");

        assertThatThrownBy(() -> DebeziumSourceSchema.read(schema, "public", "beats", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("public.beats").hasMessageContaining("no 'after' or 'before'");
    }

    @Test
    void refusesAKeyColumnTheSchemaLacks() {
        assertThatThrownBy(() -> DebeziumSourceSchema.read(valueSchema("public.kinds"), "public", "kinds",
                List.of("nope"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nope'").hasMessageContaining("public.kinds");
    }

    @Test
    void refusesAPropagatedLengthThatIsNotANumber() {
        ObjectNode schema = mysqlSchema();
        ((ObjectNode) schema.get("fields").get(1).get("fields").get(0).get("parameters"))
                .put("__debezium.source.column.length", "ten");

        assertThatThrownBy(() -> DebeziumSourceSchema.read(schema, "shop", "items", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shop.items").hasMessageContaining("'id'").hasMessageContaining("'ten'");
    }

    @Test
    void propagatedMySqlTypesKeepLengthsButNotOfTextAndSizeEnumsByTheirLabels() {
        SourceTable items = DebeziumSourceSchema.read(mysqlSchema(), "shop", "items", List.of("id"));

        assertNative(items, "id", "int unsigned", 10, null);
        assertNative(items, "flag", "tinyint", 1, null);
        assertNative(items, "name", "varchar", 80, null);
        assertNative(items, "body", "mediumtext", null, null);
        assertNative(items, "price", "decimal", 10, 2);
        assertNative(items, "at", "datetime", 3, null);
        assertNative(items, "size", "enum", "XXL-ish".length(), null);
        assertNative(items, "tags", "set", 5, null);
    }

    /** A MySQL connector event schema in Debezium's shape (connect types as its MySQL connector emits them). */
    private static ObjectNode mysqlSchema() {
        ObjectNode schema = JSON.createObjectNode().put("type", "struct").put("name", "m.shop.items.Envelope");
        ArrayNode fields = schema.putArray("fields");
        fields.addObject().put("field", "before").put("type", "struct").putArray("fields");
        ArrayNode after = fields.addObject().put("field", "after").put("type", "struct").putArray("fields");
        field(after, "id", "int64", null, "INT UNSIGNED ZEROFILL", "10", "0", false);
        field(after, "flag", "int16", null, "TINYINT", "1", "0", true);
        field(after, "name", "string", null, "VARCHAR", "80", null, true);
        field(after, "body", "string", null, "MEDIUMTEXT", "16777215", null, true);
        field(after, "price", "bytes", "org.apache.kafka.connect.data.Decimal", "DECIMAL", "10", "2", true);
        field(after, "at", "int64", "io.debezium.time.Timestamp", "DATETIME", "3", null, true);
        ((ObjectNode) field(after, "size", "string", "io.debezium.data.Enum", "ENUM", "1", null, true)
                .get("parameters")).put("allowed", "S,M,XL,XXL-ish");
        ((ObjectNode) field(after, "tags", "string", "io.debezium.data.EnumSet", "SET", "1", null, true)
                .get("parameters")).put("allowed", "a,b,c");
        fields.addObject().put("field", "source").put("type", "struct")
                .put("name", "io.debezium.connector.mysql.Source").putArray("fields");
        fields.addObject().put("field", "op").put("type", "string");
        return schema;
    }

    private static ObjectNode field(ArrayNode fields, String name, String type, String semantic, String sourceType,
            String length, String scale, boolean optional) {
        ObjectNode field = fields.addObject().put("type", type).put("optional", optional).put("field", name);
        if (semantic != null) {
            field.put("name", semantic);
        }
        ObjectNode parameters = field.putObject("parameters").put("__debezium.source.column.type", sourceType)
                .put("__debezium.source.column.length", length);
        if (scale != null) {
            parameters.put("__debezium.source.column.scale", scale);
        }
        return field;
    }

    private static void assertNative(SourceTable table, String name, String sourceType, Integer length,
            Integer scale) {
        assertThat(column(table, name)).as(name).extracting(SourceColumn::sourceType, SourceColumn::length,
                SourceColumn::scale).containsExactly(sourceType, length, scale);
    }
}
