package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/** RowData to JSON for the types the SQL IT does not cover, and the changelog rules of {@link ChangelogRows}. */
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

    /** Collects what the changelog mapping emits. */
    private static List<String> emitted(ChangelogRows rows, RowKind kind) {
        List<String> out = new ArrayList<>();
        GenericRowData row = GenericRowData.ofKind(kind, 1L, StringData.fromString("a"));
        rows.flatMap(row, new Collector<>() {
            @Override
            public void collect(DefaultStarRocksRowData record) {
                out.add(record.getDatabase() + "." + record.getTable() + " " + record.getRow());
            }

            @Override
            public void close() {
            }
        });
        return out;
    }

    @Test
    void upsertsDeletesAndUpdateBeforeFollowTheKeyTableRules() {
        RowDataJsonEncoder encoder = new RowDataJsonEncoder(rowType(DataTypes.FIELD("id", DataTypes.BIGINT()),
                DataTypes.FIELD("v", DataTypes.STRING())), ZoneId.of("UTC"));
        ChangelogRows dropping = new ChangelogRows("db", "t", encoder, "__op", true);
        ChangelogRows deleting = new ChangelogRows("db", "t", encoder, "__op", false);
        ChangelogRows appendOnly = new ChangelogRows("db", "t", encoder, null, true);

        assertThat(emitted(dropping, RowKind.INSERT)).containsExactly("db.t {\"id\":1,\"v\":\"a\",\"__op\":0}");
        assertThat(emitted(dropping, RowKind.UPDATE_AFTER)).containsExactly("db.t {\"id\":1,\"v\":\"a\",\"__op\":0}");
        assertThat(emitted(dropping, RowKind.DELETE)).containsExactly("db.t {\"id\":1,\"v\":\"a\",\"__op\":1}");
        assertThat(emitted(dropping, RowKind.UPDATE_BEFORE)).isEmpty();
        assertThat(emitted(deleting, RowKind.UPDATE_BEFORE)).containsExactly("db.t {\"id\":1,\"v\":\"a\",\"__op\":1}");
        assertThat(emitted(appendOnly, RowKind.INSERT)).containsExactly("db.t {\"id\":1,\"v\":\"a\"}");
        assertThatThrownBy(() -> emitted(appendOnly, RowKind.DELETE))
                .hasMessageContaining("table db.t received a DELETE row but declares no PRIMARY KEY");
    }
}
