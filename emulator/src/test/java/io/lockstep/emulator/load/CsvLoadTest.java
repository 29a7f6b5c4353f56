package io.lockstep.emulator.load;

import static io.lockstep.emulator.load.LoadFixture.parse;
import static io.lockstep.emulator.load.LoadFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CsvLoadTest {

    @Test
    void readsTabSeparatedRecordsWithNullMarkerAndEmptyStrings() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "1\tnew\t12.50\t2024-01-02 03:04:05\n2\t\t\\N\t\\N\n");
        assertThat(batch.totalRows()).isEqualTo(2);
        assertThat(batch.filteredRows()).isZero();
        assertThat(batch.unselectedRows()).isZero();
        assertThat(values(batch.rows().get(0)))
                .containsExactly(1L, "new", new BigDecimal("12.50"), LocalDateTime.of(2024, 1, 2, 3, 4, 5));
        assertThat(values(batch.rows().get(1))).containsExactly(2L, "", null, null);
        assertThat(batch.rows()).noneMatch(RowChange::delete);
    }

    @Test
    void customAndMultiByteDelimiters() throws LoadFormatException {
        ParsedBatch comma = parse("orders", "1,a,1,\\N|2,b,2,\\N|", "column_separator", ",", "row_delimiter", "|");
        assertThat(comma.rows()).extracting(r -> r.values()[1]).containsExactly("a", "b");
        ParsedBatch hex = parse("orders", "1\u0001a\u0001\\N\u0001\\N\r\n2\u0001b\u0001\\N\u0001\\N\r\n",
                "column_separator", "\\x01", "row_delimiter", "\\x0D0A");
        assertThat(hex.rows()).extracting(r -> r.values()[1]).containsExactly("a", "b");
        ParsedBatch multi = parse("orders", "1||a||\\N||\\N##2||b||\\N||\\N##", "column_separator", "||",
                "row_delimiter", "##");
        assertThat(multi.rows()).extracting(r -> r.values()[0]).containsExactly(1L, 2L);
    }

    @Test
    void emptyRecordsAreSkippedAndAnUnterminatedLastRecordIsStillRead() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "\n1\ta\t\\N\t\\N\n\n2\tb\t\\N\t\\N");
        assertThat(batch.totalRows()).isEqualTo(2);
        assertThat(batch.rows()).extracting(r -> r.values()[0]).containsExactly(1L, 2L);
    }

    @Test
    void wrongFieldCountFiltersTheRecord() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "1\ta\n2\tb\t1\t\\N\t5\n3\tc\t1\t\\N\n");
        assertThat(batch.totalRows()).isEqualTo(3);
        assertThat(batch.filteredRows()).isEqualTo(2);
        assertThat(batch.rows()).hasSize(1);
        assertThat(batch.errorRows()).containsExactly(
                "Error: Value count does not match column count. Expect 4, but got 2. Column delimiter: 9,Row"
                        + " delimiter: 10. Row: 1\ta",
                "Error: Value count does not match column count. Expect 4, but got 5. Column delimiter: 9,Row"
                        + " delimiter: 10. Row: 2\tb\t1\t\\N\t5");
    }

    @Test
    void nullInNotNullColumnFilters() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "\\N\tx\t1\t\\N\n");
        assertThat(batch.filteredRows()).isEqualTo(1);
        assertThat(batch.errorRows()).containsExactly(
                "Error: NULL value in non-nullable column 'order_id'. Row: \\N\tx\t1\t\\N");
    }

    @Test
    void nonStrictModeTurnsBadValuesIntoNullAndFiltersOnlyNotNullColumns() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "1\ttoolongvalue\tabc\tnot-a-date\nxyz\ta\t1\t\\N\n");
        assertThat(batch.totalRows()).isEqualTo(2);
        assertThat(batch.rows()).hasSize(1);
        assertThat(values(batch.rows().get(0))).containsExactly(1L, null, null, null);
        assertThat(batch.errorRows()).containsExactly("Error: NULL value in non-nullable column 'order_id' (Value"
                + " 'xyz' cannot be converted to BIGINT for column 'order_id'). Row: xyz\ta\t1\t\\N");
    }

    @Test
    void strictModeFiltersEveryConversionFailure() throws LoadFormatException {
        ParsedBatch batch = parse("orders", """
                1\ttoolongvalue\t1\t\\N
                2\tok\tabc\t\\N
                3\tok\t10000.00\t\\N
                4\tok\t1\t2024-02-30 00:00:00
                5\t\\N\t\\N\t\\N
                """, "strict_mode", "true");
        assertThat(batch.totalRows()).isEqualTo(5);
        assertThat(batch.filteredRows()).isEqualTo(4);
        assertThat(batch.rows()).extracting(r -> r.values()[0]).as("NULL sources are not conversion failures")
                .containsExactly(5L);
        assertThat(batch.errorRows()).containsExactly(
                "Error: String (length=12 bytes) is too long. The max length of 'status' is 8. Row: 1\ttoolongvalue"
                        + "\t1\t\\N",
                "Error: Value 'abc' cannot be converted to DECIMAL(6,2) for column 'total'. Row: 2\tok\tabc\t\\N",
                "Error: Value '10000.00' is out of range of DECIMAL(6,2) for column 'total'. Row: 3\tok\t10000.00\t\\N",
                "Error: Value '2024-02-30 00:00:00' cannot be converted to DATETIME for column 'created'. Row: 4\tok\t1"
                        + "\t2024-02-30 00:00:00");
    }

    @Test
    void columnsHeaderMapsReordersSkipsAndDerives() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "x\t7\tpaid\n", "columns", "skipped, order_id, tmp_status, status = "
                + "tmp_status, total = '3.5'");
        assertThat(values(batch.rows().get(0))).containsExactly(7L, "paid", new BigDecimal("3.50"), null);
    }

    @Test
    void opColumnSelectsUpsertOrDeleteOnPrimaryKeyTables() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "1\ta\t0\n2\tb\t1\n3\tc\tdelete\n4\td\tupsert\n5\te\t\\N\n6\tf\t2\n",
                "columns", "order_id, status, __op");
        assertThat(batch.rows()).extracting(RowChange::delete).containsExactly(false, true, true, false, false);
        assertThat(batch.errorRows()).containsExactly(
                "Error: Invalid __op value '2': expected 0 (upsert) or 1 (delete). Row: 6\tf\t2");
        ParsedBatch fromTemp = parse("orders", "1\t1\n", "columns", "order_id, t, __op = t");
        assertThat(fromTemp.rows().get(0).delete()).isTrue();
        ParsedBatch constant = parse("orders", "1\n2\n", "columns", "order_id, __op = 'delete'");
        assertThat(constant.rows()).extracting(RowChange::delete).containsExactly(true, true);
    }

    @Test
    void opIsIgnoredOnDuplicateKeyTables() throws LoadFormatException {
        ParsedBatch batch = parse("logs", "1\t2\t1\n", "columns", "id, level, __op");
        assertThat(batch.rows()).hasSize(1);
        assertThat(batch.rows().get(0).delete()).isFalse();
        assertThat(values(batch.rows().get(0))).containsExactly(1, (byte) 2, "none");
    }

    @Test
    void planErrorsRejectTheWholeLoad() {
        assertThatThrownBy(() -> parse("orders", "1\n", "columns", "status"))
                .isInstanceOfSatisfying(LoadFormatException.class,
                        e -> assertThat(e.statusCode()).isEqualTo("ANALYSIS_ERROR"))
                .hasMessage("Column has no default value. column: order_id");
        assertThatThrownBy(() -> parse("orders", "1\n", "columns", "order_id, nope = order_id"))
                .hasMessage("Unknown column 'nope' in table 'd.orders' (derived in the columns header)");
        assertThatThrownBy(() -> parse("orders", "1\n", "columns", "order_id, status = missing"))
                .hasMessage("Unknown column 'missing' referenced by 'status' in the columns header; it is not a"
                        + " source column");
    }

    @Test
    void defaultsFillColumnsTheLoadDoesNotName() throws LoadFormatException {
        ParsedBatch batch = parse("logs", "5,1\n", "column_separator", ",", "columns", "id, level");
        assertThat(values(batch.rows().get(0))).containsExactly(5, (byte) 1, "none");
    }

    @Test
    void errorRowsAreCappedButEveryFilteredRowIsCounted() throws LoadFormatException {
        String body = "bad\n".repeat(BatchCollector.MAX_ERROR_ROWS + 5);
        ParsedBatch batch = parse("orders", body);
        assertThat(batch.filteredRows()).isEqualTo(BatchCollector.MAX_ERROR_ROWS + 5);
        assertThat(batch.errorRows()).hasSize(BatchCollector.MAX_ERROR_ROWS);
    }

    @Test
    void utf8FieldsAreDecoded() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "1\tñandú\t\\N\t\\N\n");
        assertThat(batch.rows().get(0).values()[1]).isEqualTo("ñandú");
        ParsedBatch tooLong = parse("orders", "1\tññññú\t\\N\t\\N\n", "strict_mode", "true");
        assertThat(tooLong.errorRows()).as("lengths count UTF-8 bytes").hasSize(1);
        assertThat(Arrays.asList(tooLong.errorRows().get(0).split("\\. Row"))).first().asString()
                .contains("length=10 bytes");
    }

    @Test
    void decimalExponentsAreBoundedBeforeRescaling() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "1\ta\t1e999999999\t\\N\n2\tb\t1e-999999999\t\\N\n3\tc\t-1.5e1\t\\N\n",
                "strict_mode", "true");
        assertThat(batch.errorRows()).containsExactly("Error: Value '1e999999999' is out of range of DECIMAL(6,2) for"
                + " column 'total'. Row: 1\ta\t1e999999999\t\\N");
        assertThat(batch.rows()).extracting(r -> r.values()[2])
                .containsExactly(new BigDecimal("0.00"), new BigDecimal("-15.00"));
    }
}
