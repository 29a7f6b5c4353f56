package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * The changelog rules of {@link ChangelogRows}: upserts and deletes on key tables, an UPDATE_BEFORE folded into the
 * UPDATE_AFTER of its key that follows it (one sink row, so one commit) or loaded as a delete, the
 * {@code sink.ignore.update-before = true} escape, and inserts only without a key.
 */
class ChangelogRowsTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()),
            DataTypes.FIELD("v", DataTypes.STRING())).getLogicalType();
    private static final RowDataJsonEncoder ENCODER = new RowDataJsonEncoder(TYPE, ZoneId.of("UTC"));

    private final List<String> out = new ArrayList<>();
    private final ChangelogRows.Out collect = (key, row) -> out.add(key.replace('\u0000', '/') + " "
            + row.getDatabase() + "." + row.getTable() + " " + row.getRow());

    private static ChangelogRows keyTable(boolean ignoreUpdateBefore) {
        return new ChangelogRows("db", "t", ENCODER, "__op", new PrimaryKeySelector(TYPE, new int[] {0}),
                ignoreUpdateBefore);
    }

    private static GenericRowData row(RowKind kind, long id, String v) {
        return GenericRowData.ofKind(kind, id, StringData.fromString(v));
    }

    @Test
    void insertsAndUpdateAftersAreUpsertsAndDeletesCarryTheDeleteFlag() {
        ChangelogRows rows = keyTable(false);
        rows.add(row(RowKind.INSERT, 1, "a"), collect);
        rows.add(row(RowKind.UPDATE_AFTER, 1, "b"), collect);
        rows.add(row(RowKind.DELETE, 1, "b"), collect);

        assertThat(out).containsExactly("1/ db.t {\"id\":1,\"v\":\"a\",\"__op\":0}",
                "1/ db.t {\"id\":1,\"v\":\"b\",\"__op\":0}", "1/ db.t {\"id\":1,\"v\":\"b\",\"__op\":1}");
    }

    @Test
    void anUpdateBeforeFollowedByTheUpdateAfterOfItsKeyBecomesOneUpsert() {
        ChangelogRows rows = keyTable(false);
        rows.add(row(RowKind.UPDATE_BEFORE, 1, "a"), collect);
        assertThat(out).as("held until the next row tells").isEmpty();
        assertThat(rows.holdsUpdateBefore()).isTrue();

        rows.add(row(RowKind.UPDATE_AFTER, 1, "b"), collect);
        rows.release(collect);

        assertThat(out).containsExactly("1/ db.t {\"id\":1,\"v\":\"b\",\"__op\":0}");
        assertThat(rows.holdsUpdateBefore()).isFalse();
    }

    @Test
    void anUpdateBeforeWithoutTheUpdateAfterOfItsKeyBecomesADelete() {
        ChangelogRows rows = keyTable(false);
        rows.add(row(RowKind.UPDATE_BEFORE, 1, "a"), collect);
        rows.add(row(RowKind.UPDATE_AFTER, 2, "x"), collect);
        rows.add(row(RowKind.UPDATE_BEFORE, 3, "c"), collect);
        rows.add(row(RowKind.UPDATE_BEFORE, 4, "d"), collect);
        rows.release(collect);

        assertThat(out).containsExactly("1/ db.t {\"id\":1,\"v\":\"a\",\"__op\":1}",
                "2/ db.t {\"id\":2,\"v\":\"x\",\"__op\":0}", "3/ db.t {\"id\":3,\"v\":\"c\",\"__op\":1}",
                "4/ db.t {\"id\":4,\"v\":\"d\",\"__op\":1}");
    }

    @Test
    void aHeldUpdateBeforeIsEncodedWhenItArrivesSoAReusedInputRowCannotChangeIt() {
        ChangelogRows rows = keyTable(false);
        GenericRowData reused = row(RowKind.UPDATE_BEFORE, 1, "a");
        rows.add(reused, collect);
        reused.setField(1, StringData.fromString("changed"));
        rows.release(collect);

        assertThat(out).containsExactly("1/ db.t {\"id\":1,\"v\":\"a\",\"__op\":1}");
    }

    @Test
    void ignoringUpdateBeforeDropsItAsTheStarRocksConnectorDoes() {
        ChangelogRows rows = keyTable(true);
        rows.add(row(RowKind.UPDATE_BEFORE, 1, "a"), collect);
        rows.release(collect);

        assertThat(out).isEmpty();
        assertThat(rows.holdsUpdateBefore()).isFalse();
    }

    @Test
    void aTableWithoutPrimaryKeyTakesInsertsOnly() {
        ChangelogRows rows = new ChangelogRows("db", "t", ENCODER, null, null, false);
        rows.add(row(RowKind.INSERT, 1, "a"), collect);

        assertThat(out).containsExactly(" db.t {\"id\":1,\"v\":\"a\"}");
        assertThatThrownBy(() -> rows.add(row(RowKind.UPDATE_BEFORE, 1, "a"), collect))
                .hasMessageContaining("table db.t received a UPDATE_BEFORE row but declares no PRIMARY KEY");
    }
}
