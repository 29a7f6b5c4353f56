package io.lockstep.app.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link StarRocksColumnType}: native types, Connect schemas, refusals. */
class StarRocksColumnTypeTest {

    private static final SourceTable TABLE = new SourceTable("shop", "orders",
            List.of(new SourceColumn("id", "int4", null, null, false, null, null, null)), List.of("id"));

    private static String nativeType(String type, Integer length, Integer scale) {
        return StarRocksColumnType.of(TABLE, new SourceColumn("c", type, length, scale, true, null, null, null));
    }

    private static String connectType(String type, String name, Map<String, String> parameters) {
        return StarRocksColumnType.of(TABLE, new SourceColumn("c", null, null, null, true, type, name, parameters));
    }

    @ParameterizedTest(name = "{0}({1},{2}) -> {3}")
    @CsvSource(nullValues = "-", value = {
        // PostgreSQL udt names
        "bool, -, -, BOOLEAN", "int2, -, -, SMALLINT", "int4, -, -, INT", "int8, -, -, BIGINT",
        "float4, -, -, FLOAT", "float8, -, -, DOUBLE", "numeric, 12, 2, 'DECIMAL(12,2)'",
        "numeric, 38, 0, 'DECIMAL(38,0)'",
        "bpchar, 3, -, VARCHAR(12)", "varchar, 64, -, VARCHAR(256)", "varchar, -, -, STRING",
        "varchar, 300000, -, VARCHAR(1048576)", "text, -, -, STRING", "date, -, -, DATE", "time, 6, -, VARCHAR(32)",
        "timetz, -, -, VARCHAR(32)", "timestamp, 6, -, DATETIME", "timestamptz, 3, -, DATETIME", "json, -, -, JSON",
        "jsonb, -, -, JSON", "uuid, -, -, VARCHAR(36)", "_int4, -, -, JSON", "_text, -, -, JSON",
        "money, -, -, 'DECIMAL(19,2)'", "bit, 1, -, BOOLEAN", "inet, -, -, VARCHAR(64)", "serial, -, -, INT",
        // MySQL / MariaDB DATA_TYPE, with unsigned as Debezium's column.propagate.source.type spells it
        "tinyint, -, -, TINYINT", "tinyint(1), -, -, TINYINT", "tinyint unsigned, -, -, SMALLINT",
        "smallint unsigned, -, -, INT", "mediumint, -, -, INT", "mediumint unsigned, -, -, INT",
        "int unsigned, -, -, BIGINT", "INT UNSIGNED, -, -, BIGINT", "bigint, -, -, BIGINT",
        "bigint unsigned, -, -, LARGEINT", "decimal, 10, 4, 'DECIMAL(10,4)'", "float, -, -, FLOAT",
        "double, -, -, DOUBLE", "char, 1, -, VARCHAR(4)", "varchar, 255, -, VARCHAR(1020)",
        "tinytext, -, -, VARCHAR(255)", "mediumtext, -, -, STRING", "longtext, -, -, STRING",
        "datetime, 6, -, DATETIME", "timestamp, 0, -, DATETIME", "year, -, -, SMALLINT", "json, -, -, JSON",
        "enum, 9, -, VARCHAR(36)", "int(11) unsigned zerofill, -, -, BIGINT", "set, 11, -, VARCHAR(44)", "bit, -, -, BOOLEAN"})
    void nativeTypesMap(String type, Integer length, Integer scale, String expected) {
        assertThat(nativeType(type, length, scale)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} {1} -> {3}")
    @CsvSource(nullValues = "-", delimiter = '|', value = {
        "int8 | - | - | TINYINT", "int16 | - | - | SMALLINT", "int32 | - | - | INT", "int64 | - | - | BIGINT",
        "float32 | - | - | FLOAT", "float64 | - | - | DOUBLE", "boolean | - | - | BOOLEAN", "string | - | - | STRING",
        "int32 | io.debezium.time.Date | - | DATE", "int32 | org.apache.kafka.connect.data.Date | - | DATE",
        "int32 | io.debezium.time.Time | - | VARCHAR(32)", "int64 | io.debezium.time.MicroTime | - | VARCHAR(32)",
        "int64 | io.debezium.time.NanoTime | - | VARCHAR(32)", "string | io.debezium.time.ZonedTime | - | VARCHAR(32)",
        "int64 | io.debezium.time.Timestamp | - | DATETIME", "int64 | io.debezium.time.MicroTimestamp | - | DATETIME",
        "int64 | io.debezium.time.NanoTimestamp | - | DATETIME",
        "string | io.debezium.time.ZonedTimestamp | - | DATETIME", "int32 | io.debezium.time.Year | - | SMALLINT",
        "string | io.debezium.time.Interval | - | VARCHAR(64)",
        "bytes | org.apache.kafka.connect.data.Decimal | scale=2;connect.decimal.precision=12 | 'DECIMAL(12,2)'",
        "string | io.debezium.data.Json | - | JSON", "string | io.debezium.data.Uuid | - | VARCHAR(36)",
        "string | io.debezium.data.Enum | allowed=new,paid,shipped | VARCHAR(28)",
        "string | io.debezium.data.Enum | - | STRING",
        "string | io.debezium.data.EnumSet | allowed=a,bb,ccc | VARCHAR(32)",
        "array | - | items.type=int32 | JSON", "array | - | items.type=string;items.name=io.debezium.data.Uuid | JSON",
        "string | io.debezium.data.Xml | - | STRING"})
    void connectSchemasMap(String type, String name, String parameters, String expected) {
        assertThat(connectType(type, name, parameters(parameters))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}({1},{2}) is refused")
    @CsvSource(nullValues = "-", value = {
        "numeric, -, -, has no precision", "numeric, 40, 2, more than the 38 digits", "bytea, -, -, is binary",
        "varbinary, 16, -, is binary", "blob, -, -, is binary", "geometry, -, -, is a geometry",
        "point, -, -, is a geometry", "bit, 8, -, is a bit string", "varbit, -, -, is a bit string",
        "interval, -, -, is an interval", "_numeric, -, -, is an array", "hstore, -, -, does not know"})
    void nativeTypesThatCannotHoldEveryValueAreRefused(String type, Integer length, Integer scale, String reason) {
        assertThatThrownBy(() -> nativeType(type, length, scale)).isInstanceOf(UnmappableColumnException.class)
                .hasMessageContaining("column shop.orders.c (" + type).hasMessageContaining(reason)
                .hasMessageContaining("--column-type shop.orders.c=STARROCKS_TYPE").hasMessageNotContaining("\n");
    }

    @ParameterizedTest(name = "{0} {1} is refused")
    @CsvSource(nullValues = "-", delimiter = '|', value = {
        "struct | io.debezium.data.VariableScaleDecimal | - | has no precision",
        "bytes | org.apache.kafka.connect.data.Decimal | scale=2 | has no precision",
        "bytes | org.apache.kafka.connect.data.Decimal | scale=0;connect.decimal.precision=65 | 38 digits",
        "bytes | - | - | is binary", "bytes | io.debezium.data.Bits | length=8 | bit string",
        "struct | io.debezium.data.geometry.Geometry | - | geometry",
        "int64 | io.debezium.time.MicroDuration | - | approximates",
        "array | - | items.type=int32;items.name=io.debezium.time.Date | is an array",
        "array | - | items.type=bytes;items.name=org.apache.kafka.connect.data.Decimal | is an array",
        "map | - | - | cannot carry", "struct | - | - | cannot carry"})
    void connectSchemasThatCannotHoldEveryValueAreRefused(String type, String name, String parameters,
            String reason) {
        assertThatThrownBy(() -> connectType(type, name, parameters(parameters)))
                .isInstanceOf(UnmappableColumnException.class).hasMessageContaining("column shop.orders.c (")
                .hasMessageContaining(reason);
    }

    @Test
    void theConnectTypeTellsHowTheConnectorDeliversANativeType() {
        assertThatThrownBy(() -> StarRocksColumnType.of(TABLE, new SourceColumn("c", "bigint unsigned", null, null,
                true, "int64", null, null))).hasMessageContaining("bigint.unsigned.handling.mode=precise");
        assertThatThrownBy(() -> StarRocksColumnType.of(TABLE, new SourceColumn("c", "numeric", 12, 2, true,
                "float64", null, null))).hasMessageContaining("decimal.handling.mode=precise or string");
        assertThat(StarRocksColumnType.of(TABLE, new SourceColumn("c", "tinyint", 1, null, true, "boolean", null,
                null))).isEqualTo("BOOLEAN");
        assertThat(StarRocksColumnType.of(TABLE, new SourceColumn("c", "bigint unsigned", null, null, true, "bytes",
                "org.apache.kafka.connect.data.Decimal", Map.of("scale", "0", "connect.decimal.precision", "20"))))
                .isEqualTo("LARGEINT");
    }

    @Test
    void parametersAndModifiersInTheTypeTextAreLeftOut() {
        assertThat(nativeType("enum('a','b(c)')", 4, null)).isEqualTo("VARCHAR(16)");
        assertThat(nativeType("decimal(10,2) unsigned", 10, 2)).isEqualTo("DECIMAL(10,2)");
        assertThat(nativeType("timestamp(6) with time zone", 6, null)).isEqualTo("DATETIME");
    }

    @Test
    void aUserDefinedTypeFallsBackOnItsConnectSchema() {
        // a PostgreSQL enum type 'mood' with column.propagate.source.type: the native name is the type's own
        assertThat(StarRocksColumnType.of(TABLE, new SourceColumn("c", "mood", null, null, true, "string",
                "io.debezium.data.Enum", Map.of("allowed", "sad,ok,happy")))).isEqualTo("VARCHAR(20)");
        assertThatThrownBy(() -> StarRocksColumnType.of(TABLE, new SourceColumn("c", "mood", null, null, true, null,
                null, null))).hasMessageContaining("(mood) is a type table creation does not know");
    }

    private static Map<String, String> parameters(String text) {
        Map<String, String> parameters = new HashMap<>();
        if (text != null) {
            for (String pair : text.split(";")) {
                String[] kv = pair.split("=", 2);
                parameters.put(kv[0], kv[1]);
            }
        }
        return parameters;
    }
}
