package io.lockstep.app.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ColumnTypesTest {

    @Test
    void sourceTypesMapToStarRocksTypes() {
        assertThat(ColumnTypes.starRocksType("int unsigned(10)")).isEqualTo("BIGINT");
        assertThat(ColumnTypes.starRocksType("INT(11)")).isEqualTo("INT");
        assertThat(ColumnTypes.starRocksType("bigint unsigned")).isEqualTo("LARGEINT");
        assertThat(ColumnTypes.starRocksType("tinyint(1)")).isEqualTo("TINYINT");
        assertThat(ColumnTypes.starRocksType("decimal(12,2)")).isEqualTo("DECIMAL(12,2)");
        assertThat(ColumnTypes.starRocksType("numeric")).isEqualTo("DECIMAL(10,0)");
        assertThat(ColumnTypes.starRocksType("decimal(65,4)")).isEqualTo("STRING");
        assertThat(ColumnTypes.starRocksType("varchar(128)")).isEqualTo("VARCHAR(512)");
        assertThat(ColumnTypes.starRocksType("character varying(300000)")).isEqualTo("VARCHAR(1048576)");
        assertThat(ColumnTypes.starRocksType("timestamptz")).isEqualTo("DATETIME");
        assertThat(ColumnTypes.starRocksType("jsonb")).isEqualTo("JSON");
        assertThat(ColumnTypes.starRocksType("float8")).isEqualTo("DOUBLE");
        assertThat(ColumnTypes.starRocksType("enum('a','b')")).isEqualTo("STRING");
        assertThat(ColumnTypes.starRocksType("mediumtext")).isEqualTo("STRING");
    }

    @Test
    void aColumnSeenOnlyInARowGetsATypeFromItsValue() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertThat(ColumnTypes.inferred(json.readTree("7"))).isEqualTo("BIGINT");
        assertThat(ColumnTypes.inferred(json.readTree("7.5"))).isEqualTo("DOUBLE");
        assertThat(ColumnTypes.inferred(json.readTree("true"))).isEqualTo("BOOLEAN");
        assertThat(ColumnTypes.inferred(json.readTree("{\"a\":1}"))).isEqualTo("JSON");
        assertThat(ColumnTypes.inferred(json.readTree("\"x\""))).isEqualTo("STRING");
        assertThat(ColumnTypes.inferred(json.readTree("null"))).isEqualTo("STRING");
    }

    @Test
    void aRowsUnknownColumnsAreFoundWithoutTheLoadsOwnKeys() {
        assertThat(RowColumns.unknown("{\"id\":1,\"Note\":{\"x\":[1]},\"__op\":1,\"email\":null}",
                java.util.Set.of("id", "email"))).containsExactly("Note");
        assertThat(RowColumns.without("{\"id\":1,\"note\":\"n\"}", java.util.List.of("note"))).isEqualTo("{\"id\":1}");
    }
}
