package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** RowData to JSON for the types the SQL IT does not cover. */
class RowDataJsonEncoderTest {
    private static RowType rowType(org.apache.flink.table.api.DataTypes.Field... fields) {
        return (RowType) DataTypes.ROW(fields).getLogicalType();
    }

    private static String json(RowDataJsonEncoder encoder, GenericRowData row) {
        return new String(encoder.encode(row, null, 0), StandardCharsets.UTF_8);
    }

    @Test
    void timeZonedTimestampsIntegerMapKeysAndFractionsAreWrittenAsStarRocksReadsThem() {
        RowType type = rowType(DataTypes.FIELD("t", DataTypes.TIME(0)),
                DataTypes.FIELD("ltz", DataTypes.TIMESTAMP_LTZ(3)),
                DataTypes.FIELD("ts0", DataTypes.TIMESTAMP(0)),
                DataTypes.FIELD("m", DataTypes.MAP(DataTypes.INT(), DataTypes.STRING())),
                DataTypes.FIELD("nested", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())))));
        RowDataJsonEncoder encoder = new RowDataJsonEncoder(type, ZoneId.of("Asia/Tokyo"));
        GenericRowData row = GenericRowData.of(
                45_296_000, // 12:34:56
                TimestampData.fromInstant(Instant.parse("2024-01-01T00:00:00.250Z")),
                TimestampData.fromLocalDateTime(LocalDateTime.parse("2024-01-01T01:02:03.999")),
                new GenericMapData(Map.of(7, StringData.fromString("seven"))),
                new GenericArrayData(new Object[] {GenericRowData.of(1), GenericRowData.of((Object) null)}));

        assertThat(json(encoder, row)).isEqualTo("{\"t\":\"12:34:56\",\"ltz\":\"2024-01-01 09:00:00.250\","
                + "\"ts0\":\"2024-01-01 01:02:03\",\"m\":{\"7\":\"seven\"},\"nested\":[{\"x\":1},{\"x\":null}]}");
    }

    @Test
    void valuesAndTypesNoColumnHoldsAreRefusedNamingTheColumn() {
        RowDataJsonEncoder encoder = new RowDataJsonEncoder(rowType(DataTypes.FIELD("d", DataTypes.DOUBLE())),
                ZoneId.of("UTC"));
        assertThatThrownBy(() -> encoder.encode(GenericRowData.of(Double.NaN), null, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column 'd' holds NaN");
        assertThatThrownBy(() -> new RowDataJsonEncoder(rowType(DataTypes.FIELD("iv",
                DataTypes.INTERVAL(DataTypes.DAY()))), ZoneId.of("UTC")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column 'iv' has type INTERVAL");
    }
}
